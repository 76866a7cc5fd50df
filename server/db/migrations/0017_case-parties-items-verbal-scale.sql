ALTER TABLE "organizations" ADD COLUMN "verbal_scale" text DEFAULT 'enfsi-2015' NOT NULL;--> statement-breakpoint
ALTER TABLE "involved_parties" ADD COLUMN "role" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "involved_parties" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "involved_parties" ADD COLUMN "identifiers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "physical_items" ADD COLUMN "collected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "physical_items" ADD COLUMN "collection_place" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "physical_items" ADD COLUMN "collected_by" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "involved_party_id" uuid;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_involved_party_id_involved_parties_id_fk" FOREIGN KEY ("involved_party_id") REFERENCES "public"."involved_parties"("id") ON DELETE set null ON UPDATE no action;