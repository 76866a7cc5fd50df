-- Issue 31 "Heights are data": replicates with peak heights and sizes beside (never inside) profiles.genotype, so the
-- search index does not grow; kits' allele bins, dyes and analytical thresholds as reference data.
-- (journal "when" set after 0019's, which was dated ahead: the migrator applies only later-dated migrations.)
CREATE TABLE "profile_replicates" (
	"profile_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"genotype" "bytea" NOT NULL,
	"peaks" "bytea" NOT NULL,
	CONSTRAINT "profile_replicates_pk" PRIMARY KEY("profile_id","position")
);
--> statement-breakpoint
CREATE TABLE "kit_alleles" (
	"chemistry_id" uuid NOT NULL,
	"marker_id" uuid NOT NULL,
	"allele" text NOT NULL,
	"size" real NOT NULL,
	"virtual" boolean DEFAULT false NOT NULL,
	CONSTRAINT "kit_alleles_pk" PRIMARY KEY("chemistry_id","marker_id","allele")
);
--> statement-breakpoint
CREATE TABLE "kit_markers" (
	"chemistry_id" uuid NOT NULL,
	"marker_id" uuid NOT NULL,
	"dye" text NOT NULL,
	"repeat_length" smallint NOT NULL,
	"size_offset" real NOT NULL,
	CONSTRAINT "kit_markers_pk" PRIMARY KEY("chemistry_id","marker_id")
);
--> statement-breakpoint
CREATE TABLE "kit_thresholds" (
	"chemistry_id" uuid NOT NULL,
	"dye" text DEFAULT '' NOT NULL,
	"rfu" real NOT NULL,
	CONSTRAINT "kit_thresholds_pk" PRIMARY KEY("chemistry_id","dye")
);
--> statement-breakpoint
ALTER TABLE "profile_import_rows" ADD COLUMN "replicates" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "profile_replicates" ADD CONSTRAINT "profile_replicates_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_alleles" ADD CONSTRAINT "kit_alleles_chemistry_id_chemistries_id_fk" FOREIGN KEY ("chemistry_id") REFERENCES "public"."chemistries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_alleles" ADD CONSTRAINT "kit_alleles_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_markers" ADD CONSTRAINT "kit_markers_chemistry_id_chemistries_id_fk" FOREIGN KEY ("chemistry_id") REFERENCES "public"."chemistries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_markers" ADD CONSTRAINT "kit_markers_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kit_thresholds" ADD CONSTRAINT "kit_thresholds_chemistry_id_chemistries_id_fk" FOREIGN KEY ("chemistry_id") REFERENCES "public"."chemistries"("id") ON DELETE cascade ON UPDATE no action;