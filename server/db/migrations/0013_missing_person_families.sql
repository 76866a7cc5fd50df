CREATE TABLE "families" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"case_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"analysis_id" uuid NOT NULL,
	"relatives" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"population_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"threshold" double precision NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"activated_at" timestamp with time zone,
	"searched_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "family_id" uuid;--> statement-breakpoint
ALTER TABLE "families" ADD CONSTRAINT "families_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "families" ADD CONSTRAINT "families_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "families" ADD CONSTRAINT "families_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "families_case_idx" ON "families" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "families_organization_status_idx" ON "families" USING btree ("organization_id","status");--> statement-breakpoint
ALTER TABLE "hits" ADD CONSTRAINT "hits_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hits_family_idx" ON "hits" USING btree ("family_id");