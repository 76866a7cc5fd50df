CREATE TABLE "profile_import_rows" (
	"import_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"line" integer,
	"profile_id" text NOT NULL,
	"kind" text NOT NULL,
	"kit" text,
	"sample_type" text,
	"marker_values" jsonb NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"add_problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"chosen" boolean DEFAULT false NOT NULL,
	"added" boolean DEFAULT false NOT NULL,
	"added_profile_id" uuid,
	CONSTRAINT "profile_import_rows_pk" PRIMARY KEY("import_id","index")
);
--> statement-breakpoint
CREATE TABLE "profile_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"case_id" uuid,
	"organization_id" uuid,
	"file_name" text NOT NULL,
	"file_bytes" integer DEFAULT 0 NOT NULL,
	"format" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'parsing' NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"profile_count" integer DEFAULT 0 NOT NULL,
	"flagged_count" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"controls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"markers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"suggested_chemistry_id" uuid,
	"digest" text DEFAULT '' NOT NULL,
	"assignment" jsonb,
	"chosen_count" integer DEFAULT 0 NOT NULL,
	"problem_count" integer DEFAULT 0 NOT NULL,
	"added_count" integer DEFAULT 0 NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"approval_expires_at" timestamp with time zone,
	"approval_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profile_import_rows" ADD CONSTRAINT "profile_import_rows_import_id_profile_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."profile_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_import_rows" ADD CONSTRAINT "profile_import_rows_added_profile_id_profiles_id_fk" FOREIGN KEY ("added_profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_imports" ADD CONSTRAINT "profile_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_imports" ADD CONSTRAINT "profile_imports_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_imports" ADD CONSTRAINT "profile_imports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profile_imports_user_idx" ON "profile_imports" USING btree ("user_id","created_at");