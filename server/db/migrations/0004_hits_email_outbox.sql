CREATE TABLE "task_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"organization_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"requested_by" uuid,
	"assigned_to" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"case_id" uuid,
	"due_date" date
);
--> statement-breakpoint
CREATE TABLE "hit_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hit_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"user_id" uuid,
	"user_name" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"comments" text DEFAULT '' NOT NULL,
	"notified" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hit_profiles" (
	"hit_id" uuid NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	"profile_id" uuid NOT NULL,
	CONSTRAINT "hit_profiles_pk" PRIMARY KEY("hit_id","position")
);
--> statement-breakpoint
CREATE TABLE "hits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"organization_id" uuid NOT NULL,
	"analysis_id" uuid NOT NULL,
	"population_id" uuid,
	"combined_index" double precision,
	"marker_count" integer NOT NULL,
	"non_exclusion_marker_count" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"comments" text DEFAULT '' NOT NULL,
	"dedupe_key" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"template_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "task_requests" ADD CONSTRAINT "task_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_requests" ADD CONSTRAINT "task_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_requests" ADD CONSTRAINT "task_requests_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_requests" ADD CONSTRAINT "task_requests_case_id_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hit_history" ADD CONSTRAINT "hit_history_hit_id_hits_id_fk" FOREIGN KEY ("hit_id") REFERENCES "public"."hits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hit_history" ADD CONSTRAINT "hit_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hit_profiles" ADD CONSTRAINT "hit_profiles_hit_id_hits_id_fk" FOREIGN KEY ("hit_id") REFERENCES "public"."hits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hit_profiles" ADD CONSTRAINT "hit_profiles_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hits" ADD CONSTRAINT "hits_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hits" ADD CONSTRAINT "hits_analysis_id_analyses_id_fk" FOREIGN KEY ("analysis_id") REFERENCES "public"."analyses"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hits" ADD CONSTRAINT "hits_population_id_populations_id_fk" FOREIGN KEY ("population_id") REFERENCES "public"."populations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_requests_organization_status_idx" ON "task_requests" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "task_requests_assigned_to_idx" ON "task_requests" USING btree ("assigned_to");--> statement-breakpoint
CREATE INDEX "hit_history_hit_idx" ON "hit_history" USING btree ("hit_id","at");--> statement-breakpoint
CREATE INDEX "hit_profiles_profile_idx" ON "hit_profiles" USING btree ("profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hits_dedupe_key_unique" ON "hits" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "hits_organization_status_idx" ON "hits" USING btree ("organization_id","status","created_at");--> statement-breakpoint
CREATE INDEX "hits_analysis_idx" ON "hits" USING btree ("analysis_id");--> statement-breakpoint
CREATE INDEX "hits_population_idx" ON "hits" USING btree ("population_id");--> statement-breakpoint
CREATE INDEX "email_outbox_unsent_idx" ON "email_outbox" USING btree ("next_attempt_at","created_at") WHERE "email_outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at");