-- Issue 32, the upload pipeline: the sender's outbox (written in the transaction of the change) and the upper
-- instance's record of the batches and entries it applied and of the profiles it holds for lower instances.
CREATE TABLE "held_profiles" (
	"profile_id" uuid PRIMARY KEY NOT NULL,
	"lower_instance_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"origin_profile_id" uuid NOT NULL,
	"specimen_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_applied_entries" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"batch_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "network_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"lower_instance_id" uuid NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_outbox" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"idempotency_key" text NOT NULL,
	"action" text NOT NULL,
	"profile_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"laboratory" text NOT NULL,
	"specimen_id" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"refused_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "held_profiles" ADD CONSTRAINT "held_profiles_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_profiles" ADD CONSTRAINT "held_profiles_lower_instance_id_lower_instances_id_fk" FOREIGN KEY ("lower_instance_id") REFERENCES "public"."lower_instances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_profiles" ADD CONSTRAINT "held_profiles_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_applied_entries" ADD CONSTRAINT "network_applied_entries_batch_id_network_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."network_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "network_batches" ADD CONSTRAINT "network_batches_lower_instance_id_lower_instances_id_fk" FOREIGN KEY ("lower_instance_id") REFERENCES "public"."lower_instances"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "held_profiles_origin_unique" ON "held_profiles" USING btree ("lower_instance_id","origin_profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "upload_outbox_key_unique" ON "upload_outbox" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "upload_outbox_due_idx" ON "upload_outbox" USING btree ("next_attempt_at","created_at") WHERE "upload_outbox"."delivered_at" is null and "upload_outbox"."refused_at" is null;--> statement-breakpoint
CREATE INDEX "upload_outbox_profile_idx" ON "upload_outbox" USING btree ("profile_id");