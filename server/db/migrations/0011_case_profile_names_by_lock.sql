-- Issue 15: bytes per profile. A sample name once per case is now kept by a lock per case in the one place profiles
-- are added (server/http/profiles/case-profile-names.ts), not by a unique index over (case, lower(name)) that cost
-- 50 bytes of every profile at a million; the case's profiles are found by case alone (about 7 bytes a profile).
-- Existing names were unique under the old index, so nothing needs converting.
CREATE INDEX "profiles_case_idx" ON "profiles" USING btree ("case_id");--> statement-breakpoint
DROP INDEX "profiles_case_profile_unique";
