-- Issue 29: the list searches' trigram indexes take each new row into the index at once (fastupdate off).
-- With GIN's pending list, the insert that found the list over gin_pending_list_limit (4 MB) merged all
-- of it into the index: during a 100,000-profile import on PGlite, one batch's insert every ~16 s took
-- 57-106 ms instead of ~20, holding the one connection a health probe waits for. PostgreSQL's manual
-- (GIN "Fast Update Technique") advises turning it off where consistent response time matters more
-- than update speed. The pending entries already there go into the index now: PGlite has no autovacuum.
ALTER INDEX IF EXISTS "profiles_profile_id_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX IF EXISTS "cases_case_number_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
ALTER INDEX IF EXISTS "physical_items_item_id_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list(c.oid) FROM pg_class c WHERE c.relname IN ('profiles_profile_id_trgm_idx', 'cases_case_number_trgm_idx', 'physical_items_item_id_trgm_idx');
