import { inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { profiles } from '../db/schema';
import type { RuleMatch } from '../matching/rule-match';

// A search's matches are written only for profiles that are still approved and in an organization the search looked in
// (a reset during the search withdrew it); a group of searches reads those facts once for all its matches.

/** Each profile's organization, status and sample type, read once for every match of a group of searches. */
export async function profileFacts(db: Db, matches: readonly RuleMatch[]) {
  const ids = [...new Set(matches.flatMap((m) => [m.queryId, m.candidateId]))];
  if (ids.length === 0) return new Map<string, { organizationId: string; status: string; sampleType: string }>();
  const rows = await db.select({ id: profiles.id, organizationId: profiles.organizationId, status: profiles.status, sampleType: profiles.sampleType }).from(profiles).where(inArray(profiles.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Only matches whose candidate belongs to an organization the search looked in (a hit never names another
 * organization's profile, but at the upper level every held laboratory's: held-organizations.ts) and is still approved
 * (a reset during the search withdrew it), with every profile's sample type (the hit's roles).
 */
export function stillApproved(facts: Awaited<ReturnType<typeof profileFacts>>, organizationIds: readonly string[], matches: readonly RuleMatch[]): { matches: RuleMatch[]; sampleTypes: Map<string, string> } {
  const inside = (id: string) => {
    const f = facts.get(id);
    return f !== undefined && f.status === 'approved' && organizationIds.includes(f.organizationId);
  };
  const kept = matches.filter((m) => inside(m.queryId) && inside(m.candidateId));
  const ids = new Set(matches.flatMap((m) => [m.queryId, m.candidateId]));
  return { matches: kept, sampleTypes: new Map([...ids].flatMap((id) => (facts.has(id) ? [[id, facts.get(id)!.sampleType] as const] : []))) };
}
