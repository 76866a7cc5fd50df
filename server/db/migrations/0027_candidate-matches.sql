CREATE TABLE "candidate_match_notices" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hit_id" uuid,
	"lower_instance_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"held_profile_id" uuid,
	"notice" jsonb NOT NULL,
	"delivered_at" timestamp with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "candidate_matches" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"organization_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"upper_instance" text NOT NULL,
	"notice" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_by" uuid,
	"decided_by_name" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "candidate_match_notices" ADD CONSTRAINT "candidate_match_notices_hit_id_hits_id_fk" FOREIGN KEY ("hit_id") REFERENCES "public"."hits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_match_notices" ADD CONSTRAINT "candidate_match_notices_lower_instance_id_lower_instances_id_fk" FOREIGN KEY ("lower_instance_id") REFERENCES "public"."lower_instances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_match_notices" ADD CONSTRAINT "candidate_match_notices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_match_notices" ADD CONSTRAINT "candidate_match_notices_held_profile_id_profiles_id_fk" FOREIGN KEY ("held_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_matches" ADD CONSTRAINT "candidate_matches_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_matches" ADD CONSTRAINT "candidate_matches_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_matches" ADD CONSTRAINT "candidate_matches_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "candidate_match_notices_undelivered_idx" ON "candidate_match_notices" USING btree ("lower_instance_id","id") WHERE "candidate_match_notices"."delivered_at" is null;--> statement-breakpoint
CREATE INDEX "candidate_match_notices_hit_idx" ON "candidate_match_notices" USING btree ("hit_id");--> statement-breakpoint
CREATE INDEX "candidate_matches_organization_status_idx" ON "candidate_matches" USING btree ("organization_id","status","created_at");--> statement-breakpoint
CREATE INDEX "candidate_matches_profile_idx" ON "candidate_matches" USING btree ("profile_id");