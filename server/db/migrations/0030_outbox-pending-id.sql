CREATE INDEX IF NOT EXISTS "upload_outbox_pending_id_idx" ON "upload_outbox" USING btree ("id") WHERE "upload_outbox"."delivered_at" is null and "upload_outbox"."refused_at" is null;
