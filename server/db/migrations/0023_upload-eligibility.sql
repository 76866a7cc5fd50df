-- Issue 32 "A network of laboratories": the upper level's upload eligibility rules, one row per index (NDIS's
-- Convicted Offender, Forensic Unknown, …); the seed rows are written at start-up (server/db/seed/upload-eligibility.ts).
-- (journal "when" after 0022's: the migrator applies only later-dated migrations.)
CREATE TABLE "upload_eligibility_indexes" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"sample_types" text[] NOT NULL,
	"min_core_loci" integer NOT NULL,
	"max_alleles_per_locus" integer NOT NULL,
	"rarity_one_in" double precision
);
--> statement-breakpoint
CREATE UNIQUE INDEX "upload_eligibility_indexes_name_unique" ON "upload_eligibility_indexes" USING btree ("name");