CREATE TABLE "search_rule_populations" (
	"search_rule_id" uuid NOT NULL,
	"population_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_rule_populations_pk" PRIMARY KEY("search_rule_id","population_id")
);
--> statement-breakpoint
CREATE TABLE "search_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"trigger" text DEFAULT 'approval' NOT NULL,
	"searching_sample_types" text[] NOT NULL,
	"searched_sample_types" text[] NOT NULL,
	"analysis_id" uuid NOT NULL,
	"stringency" text,
	"min_markers" integer DEFAULT 8 NOT NULL,
	"max_mismatches" integer DEFAULT 0 NOT NULL,
	"threshold_kind" text DEFAULT 'likelihood-ratio' NOT NULL,
	"threshold" double precision
);
--> statement-breakpoint
ALTER TABLE "populations" ADD COLUMN "synthetic" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "search_rule_id" uuid;--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "match_kind" text DEFAULT 'kinship' NOT NULL;--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "profile_set" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "figures" jsonb;--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "expected_chance_hits" double precision;--> statement-breakpoint
ALTER TABLE "hits" ADD COLUMN "p_value" double precision;--> statement-breakpoint
ALTER TABLE "search_rule_populations" ADD CONSTRAINT "search_rule_populations_search_rule_id_search_rules_id_fk" FOREIGN KEY ("search_rule_id") REFERENCES "public"."search_rules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_rule_populations" ADD CONSTRAINT "search_rule_populations_population_id_populations_id_fk" FOREIGN KEY ("population_id") REFERENCES "public"."populations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "search_rules" ADD CONSTRAINT "search_rules_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_rule_populations_population_idx" ON "search_rule_populations" USING btree ("population_id");--> statement-breakpoint
CREATE UNIQUE INDEX "search_rules_name_unique" ON "search_rules" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "search_rules_analysis_idx" ON "search_rules" USING btree ("analysis_id");--> statement-breakpoint
ALTER TABLE "hits" ADD CONSTRAINT "hits_search_rule_id_search_rules_id_fk" FOREIGN KEY ("search_rule_id") REFERENCES "public"."search_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hits_profile_set_idx" ON "hits" USING btree ("organization_id","profile_set");--> statement-breakpoint
CREATE INDEX "hits_organization_status_strength_idx" ON "hits" USING btree ("organization_id","status","combined_index","created_at");--> statement-breakpoint
CREATE INDEX "hits_search_rule_idx" ON "hits" USING btree ("search_rule_id");--> statement-breakpoint
UPDATE "populations" SET "synthetic" = true WHERE "name" = 'Synthetic demo population (not for casework)';--> statement-breakpoint
UPDATE "hits" h SET "profile_set" = coalesce((SELECT string_agg(hp."profile_id"::text, ',' ORDER BY hp."profile_id"::text) FROM "hit_profiles" hp WHERE hp."hit_id" = h."id"), '');--> statement-breakpoint
UPDATE "hits" h SET "match_kind" = CASE WHEN a."kind" = 'Exclusion' THEN 'exclusion' WHEN a."name" = 'Identity' THEN 'identity' ELSE 'kinship' END FROM "analyses" a WHERE a."id" = h."analysis_id";
