ALTER TABLE "organizations" ADD COLUMN "four_eyes_review" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "entered_by" uuid;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Profiles entered before this migration: who entered or imported each, from the audit trail.
UPDATE "profiles" SET "entered_by" = a."user_id" FROM "audit_log" a JOIN "users" u ON u."id" = a."user_id" WHERE a."entity" = 'Profile' AND a."entity_id" = "profiles"."id"::text AND a."action" IN ('Added', 'Imported') AND "profiles"."entered_by" IS NULL;
