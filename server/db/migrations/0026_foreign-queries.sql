-- Issue 32, foreign queries (Prüm II): a profile another country's instance sends is answered hit / no hit; each
-- candidate of a hit waits as a release request for a person of the holding laboratory. (number 0026: 0025 is another
-- branch's; these tables name none of its.)
CREATE TABLE "foreign_queries" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"service_client_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"requesting_country" text NOT NULL,
	"requesting_instance" text NOT NULL,
	"chemistry_id" uuid NOT NULL,
	"marker_count" integer NOT NULL,
	"stringency" text,
	"candidate_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "foreign_query_releases" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"foreign_query_id" uuid NOT NULL,
	"profile_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "foreign_queries" ADD CONSTRAINT "foreign_queries_service_client_id_service_clients_id_fk" FOREIGN KEY ("service_client_id") REFERENCES "public"."service_clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foreign_queries" ADD CONSTRAINT "foreign_queries_chemistry_id_chemistries_id_fk" FOREIGN KEY ("chemistry_id") REFERENCES "public"."chemistries"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foreign_query_releases" ADD CONSTRAINT "foreign_query_releases_foreign_query_id_foreign_queries_id_fk" FOREIGN KEY ("foreign_query_id") REFERENCES "public"."foreign_queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foreign_query_releases" ADD CONSTRAINT "foreign_query_releases_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foreign_query_releases" ADD CONSTRAINT "foreign_query_releases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "foreign_query_releases" ADD CONSTRAINT "foreign_query_releases_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "foreign_queries_reference_unique" ON "foreign_queries" USING btree ("service_client_id","reference");--> statement-breakpoint
CREATE INDEX "foreign_query_releases_query_idx" ON "foreign_query_releases" USING btree ("foreign_query_id");--> statement-breakpoint
CREATE INDEX "foreign_query_releases_organization_status_idx" ON "foreign_query_releases" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "foreign_query_releases_profile_idx" ON "foreign_query_releases" USING btree ("profile_id");