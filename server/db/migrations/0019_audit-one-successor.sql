-- The audit trail cannot fork (issue 30). Written by hand, not declared in server/db/schema (as 0009, 0010 and 0018), so
-- drizzle's snapshots do not know these indexes and no later generated migration drops them.
-- A trail written before this fix may already hold forks (two rows linking to one predecessor): they stay, as written,
-- and the export names each one; the unique index covers every row after the last of them, so from now on the
-- database itself refuses a second row linking to the same predecessor.
DO $$
DECLARE
  last_fork bigint;
BEGIN
  SELECT coalesce(max(seq), 0) INTO last_fork
  FROM audit_log a
  WHERE EXISTS (SELECT 1 FROM audit_log b WHERE b.prev_hash = a.prev_hash AND b.seq <> a.seq);
  EXECUTE format('CREATE UNIQUE INDEX "audit_log_one_successor" ON "audit_log" ("prev_hash") WHERE seq > %s', last_fork);
END
$$;
--> statement-breakpoint
-- Verification looks a row's predecessor up by its hash (a link to a row further back than the one before it).
CREATE INDEX "audit_log_hash_idx" ON "audit_log" ("hash");
