-- The upload outbox's backlog without counting it (issue 32): /api/health counted every undelivered entry three times
-- per probe (a sequential scan for the failed ones), 40 ms at 10,000 entries and ten times that at 100,000. Generated
-- by drizzle-kit (the table, the indexes), then by hand: the trigger that keeps the counts exact and their backfill.
CREATE TABLE "upload_outbox_counts" (
	"state" text NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "upload_outbox_waiting_created_idx" ON "upload_outbox" USING btree ("created_at") WHERE "upload_outbox"."delivered_at" is null and "upload_outbox"."refused_at" is null and "upload_outbox"."last_error" is null;--> statement-breakpoint
CREATE INDEX "upload_outbox_retrying_created_idx" ON "upload_outbox" USING btree ("created_at") WHERE "upload_outbox"."delivered_at" is null and "upload_outbox"."refused_at" is null and "upload_outbox"."last_error" is not null;--> statement-breakpoint
-- An entry's state as the backlog counts it; a delivered entry counts nowhere.
CREATE FUNCTION "upload_outbox_state"(delivered_at timestamptz, refused_at timestamptz, last_error text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN delivered_at IS NOT NULL THEN NULL WHEN refused_at IS NOT NULL THEN 'failed' WHEN last_error IS NOT NULL THEN 'retrying' ELSE 'waiting' END
$$;
--> statement-breakpoint
-- One statement's change of each state, appended as a row of its own (never an update of a shared counter row, which
-- would make every approval wait for a delivered batch's commit, and an approval and a deletion lock counters in
-- opposite orders). A claim (attempts and lease only) changes no state and writes nothing.
CREATE FUNCTION "upload_outbox_counts_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM upload_outbox_counts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO upload_outbox_counts (state, n)
      SELECT state, count(*) FROM (SELECT upload_outbox_state(delivered_at, refused_at, last_error) AS state FROM new_rows) AS s
      WHERE state IS NOT NULL GROUP BY state;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO upload_outbox_counts (state, n)
      SELECT state, -count(*) FROM (SELECT upload_outbox_state(delivered_at, refused_at, last_error) AS state FROM old_rows) AS s
      WHERE state IS NOT NULL GROUP BY state;
  ELSE
    INSERT INTO upload_outbox_counts (state, n)
      SELECT state, sum(d) FROM (
        SELECT upload_outbox_state(delivered_at, refused_at, last_error) AS state, 1 AS d FROM new_rows
        UNION ALL SELECT upload_outbox_state(delivered_at, refused_at, last_error), -1 FROM old_rows
      ) AS changed WHERE state IS NOT NULL GROUP BY state HAVING sum(d) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "upload_outbox_counts_insert" AFTER INSERT ON "upload_outbox" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "upload_outbox_counts_follow"();--> statement-breakpoint
CREATE TRIGGER "upload_outbox_counts_update" AFTER UPDATE ON "upload_outbox" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "upload_outbox_counts_follow"();--> statement-breakpoint
CREATE TRIGGER "upload_outbox_counts_delete" AFTER DELETE ON "upload_outbox" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "upload_outbox_counts_follow"();--> statement-breakpoint
CREATE TRIGGER "upload_outbox_counts_truncate" AFTER TRUNCATE ON "upload_outbox" FOR EACH STATEMENT EXECUTE FUNCTION "upload_outbox_counts_follow"();--> statement-breakpoint
-- The entries already there. The triggers above hold the table's lock until this migration commits, so no write falls
-- between the count and the triggers.
INSERT INTO "upload_outbox_counts" ("state", "n")
  SELECT state, count(*) FROM (SELECT upload_outbox_state(delivered_at, refused_at, last_error) AS state FROM upload_outbox) AS s
  WHERE state IS NOT NULL GROUP BY state;
