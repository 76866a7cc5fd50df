ALTER TABLE "analyses" ADD COLUMN "pedigree" jsonb;--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "mutation" jsonb;