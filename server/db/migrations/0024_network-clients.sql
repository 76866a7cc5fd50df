-- Issue 32 "A network of laboratories", the foundation: service clients (OAuth 2 client credentials), this instance's
-- settings (level, upper instance) and the upper instance's registry of lower instances with their laboratories.
-- (number 0024: 0021 and 0023 are other branches'; journal "when" after 0022's.)
CREATE TABLE "service_clients" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text,
	"organization_id" uuid,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "service_clients" ADD CONSTRAINT "service_clients_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_clients_client_id_unique" ON "service_clients" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_clients_name_unique" ON "service_clients" USING btree (lower("name"));--> statement-breakpoint
CREATE TABLE "instance_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"level" text DEFAULT 'Local' NOT NULL,
	"upper_url" text,
	"upper_client_id" text,
	"upper_client_secret" text,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lower_instances" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"service_client_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lower_instances" ADD CONSTRAINT "lower_instances_service_client_id_service_clients_id_fk" FOREIGN KEY ("service_client_id") REFERENCES "public"."service_clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lower_instances_name_unique" ON "lower_instances" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "lower_instances_client_unique" ON "lower_instances" USING btree ("service_client_id");--> statement-breakpoint
CREATE TABLE "lower_instance_organizations" (
	"lower_instance_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lower_instance_organizations" ADD CONSTRAINT "lower_instance_organizations_lower_instance_id_lower_instances_id_fk" FOREIGN KEY ("lower_instance_id") REFERENCES "public"."lower_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lower_instance_organizations" ADD CONSTRAINT "lower_instance_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lower_instance_organizations_org_unique" ON "lower_instance_organizations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "lower_instance_organizations_instance_idx" ON "lower_instance_organizations" USING btree ("lower_instance_id");
