-- Lists at a million rows (issue 15). Written by hand (drizzle-kit generate --custom): these indexes are not
-- declared in server/db/schema, so drizzle's snapshots do not know them and no later generated migration drops them.
-- Trigram indexes answer the lists' free-text search (contains, case-insensitive: ILIKE '%text%'); PGlite loads
-- pg_trgm in its worker (server/db/pglite-worker.mjs). pg_trgm is a trusted extension: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- The profile list's default order (updatedAt desc, then id), with the organization for tenancy: a page's ids
-- are read from the index alone (server/http/profiles/list-routes.ts).
CREATE INDEX IF NOT EXISTS "profiles_list_updated_idx" ON "profiles" USING btree ("updated_at" DESC, "id") INCLUDE ("organization_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "profiles_profile_id_trgm_idx" ON "profiles" USING gin ("profile_id" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cases_case_number_trgm_idx" ON "cases" USING gin ("case_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "physical_items_item_id_trgm_idx" ON "physical_items" USING gin ("item_id" gin_trgm_ops);--> statement-breakpoint
-- Profiles of the items found by name (and the ON DELETE SET NULL of an item); most profiles have no item.
CREATE INDEX IF NOT EXISTS "profiles_physical_item_idx" ON "profiles" USING btree ("physical_item_id") WHERE "physical_item_id" IS NOT NULL;--> statement-breakpoint
-- The hit lists' default order, strongest first (server/http/hits/hit-query.ts `strength`), then the newest,
-- then id: by status for the Review, Published and Rejected tabs, and over every status for All. The expression's
-- columns are included too: PostgreSQL reads an expression index without the table only when they are.
CREATE INDEX IF NOT EXISTS "hits_list_status_strength_idx" ON "hits" USING btree ("status", (coalesce("combined_index", "non_exclusion_marker_count"::double precision / nullif("marker_count", 0))) DESC, "created_at" DESC, "id") INCLUDE ("organization_id", "combined_index", "non_exclusion_marker_count", "marker_count");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "hits_list_strength_idx" ON "hits" USING btree ((coalesce("combined_index", "non_exclusion_marker_count"::double precision / nullif("marker_count", 0))) DESC, "created_at" DESC, "id") INCLUDE ("organization_id", "status", "combined_index", "non_exclusion_marker_count", "marker_count");--> statement-breakpoint
-- Counting a long hit list of one status (a deep page reads from the end after counting): every hit's status in
-- about 7 bytes (btree deduplication), where hits_organization_status_idx needs 100.
CREATE INDEX IF NOT EXISTS "hits_status_idx" ON "hits" USING btree ("status");
