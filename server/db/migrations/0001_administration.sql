CREATE TABLE "case_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "laboratories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sample_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chemistries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chemistry_markers" (
	"chemistry_id" uuid NOT NULL,
	"marker_id" uuid NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "chemistry_markers_pk" PRIMARY KEY("chemistry_id","marker_id")
);
--> statement-breakpoint
CREATE TABLE "markers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"multi_copy" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "population_alleles" (
	"population_id" uuid NOT NULL,
	"marker_id" uuid NOT NULL,
	"allele" text NOT NULL,
	"frequency" double precision NOT NULL,
	CONSTRAINT "population_alleles_pk" PRIMARY KEY("population_id","marker_id","allele")
);
--> statement-breakpoint
CREATE TABLE "population_haplotypes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"population_id" uuid NOT NULL,
	"values" jsonb NOT NULL,
	"count" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "population_markers" (
	"population_id" uuid NOT NULL,
	"marker_id" uuid NOT NULL,
	"sample_size" integer,
	CONSTRAINT "population_markers_pk" PRIMARY KEY("population_id","marker_id")
);
--> statement-breakpoint
CREATE TABLE "population_organizations" (
	"population_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	CONSTRAINT "population_organizations_pk" PRIMARY KEY("population_id","organization_id")
);
--> statement-breakpoint
CREATE TABLE "populations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'Autosomal' NOT NULL,
	"minimum_allele_frequency" double precision DEFAULT 0.001 NOT NULL,
	"source" text DEFAULT '' NOT NULL,
	"statistics_uploaded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "email_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hook" text NOT NULL,
	"subject" text NOT NULL,
	"body" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "citations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"title" text NOT NULL,
	"file_name" text,
	"content_type" text,
	"file_size" integer,
	"content" "bytea"
);
--> statement-breakpoint
CREATE TABLE "analyses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"analysis_group_id" uuid NOT NULL,
	"name" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"profile_kind" text DEFAULT 'Autosomal' NOT NULL,
	"roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"threshold" double precision,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analysis_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chemistry_markers" ADD CONSTRAINT "chemistry_markers_chemistry_id_chemistries_id_fk" FOREIGN KEY ("chemistry_id") REFERENCES "public"."chemistries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chemistry_markers" ADD CONSTRAINT "chemistry_markers_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_alleles" ADD CONSTRAINT "population_alleles_population_id_populations_id_fk" FOREIGN KEY ("population_id") REFERENCES "public"."populations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_alleles" ADD CONSTRAINT "population_alleles_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_haplotypes" ADD CONSTRAINT "population_haplotypes_population_id_populations_id_fk" FOREIGN KEY ("population_id") REFERENCES "public"."populations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_markers" ADD CONSTRAINT "population_markers_population_id_populations_id_fk" FOREIGN KEY ("population_id") REFERENCES "public"."populations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_markers" ADD CONSTRAINT "population_markers_marker_id_markers_id_fk" FOREIGN KEY ("marker_id") REFERENCES "public"."markers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_organizations" ADD CONSTRAINT "population_organizations_population_id_populations_id_fk" FOREIGN KEY ("population_id") REFERENCES "public"."populations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "population_organizations" ADD CONSTRAINT "population_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_analysis_group_id_analysis_groups_id_fk" FOREIGN KEY ("analysis_group_id") REFERENCES "public"."analysis_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_links" ADD CONSTRAINT "password_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "case_types_name_unique" ON "case_types" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "laboratories_name_unique" ON "laboratories" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "sample_sources_name_unique" ON "sample_sources" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "chemistries_kind_name_unique" ON "chemistries" USING btree ("kind",lower("name"));--> statement-breakpoint
CREATE INDEX "chemistry_markers_marker_idx" ON "chemistry_markers" USING btree ("marker_id");--> statement-breakpoint
CREATE UNIQUE INDEX "markers_name_unique" ON "markers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "population_haplotypes_population_idx" ON "population_haplotypes" USING btree ("population_id");--> statement-breakpoint
CREATE INDEX "population_markers_marker_idx" ON "population_markers" USING btree ("marker_id");--> statement-breakpoint
CREATE INDEX "population_organizations_organization_idx" ON "population_organizations" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "email_templates_hook_unique" ON "email_templates" USING btree ("hook");--> statement-breakpoint
CREATE INDEX "analyses_group_idx" ON "analyses" USING btree ("analysis_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "analysis_groups_name_unique" ON "analysis_groups" USING btree (lower("name"));