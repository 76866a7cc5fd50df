ALTER TABLE "profiles" ADD COLUMN "searched_at" timestamp with time zone;--> statement-breakpoint
-- Profiles approved before this column existed were searched when they were approved.
UPDATE "profiles" SET "searched_at" = "reviewed_at" WHERE "status" = 'approved';
