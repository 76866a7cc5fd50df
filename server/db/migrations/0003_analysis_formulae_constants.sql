CREATE TABLE "analysis_constants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"analysis_id" uuid NOT NULL,
	"name" text NOT NULL,
	"notation" text DEFAULT '' NOT NULL,
	"value" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_formulae" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"analysis_id" uuid NOT NULL,
	"pattern" text NOT NULL,
	"expression" text,
	"is_exclusion" boolean
);
--> statement-breakpoint
ALTER TABLE "analysis_constants" ADD CONSTRAINT "analysis_constants_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analysis_formulae" ADD CONSTRAINT "analysis_formulae_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_constants_name_unique" ON "analysis_constants" USING btree ("analysis_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_formulae_pattern_unique" ON "analysis_formulae" USING btree ("analysis_id","pattern");