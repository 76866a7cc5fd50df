import { eq, inArray } from 'drizzle-orm';
import { hitProbabilityText, WEIGHED_AGAIN_LABEL } from '../../core/hit-weighing';
import type { Hit } from '../../core/schemas/hits';
import type { SearchTrigger } from '../../core/schemas/search-rules';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { updateVersioned } from '../db/versioned';
import { hitHistory, hits, profiles, searchRules } from '../db/schema';
import { Conflict } from '../errors';
import { loadMatchProfiles } from '../matching/load-indexes';
import type { MatchRule, RuleMatch } from '../matching/rule-match';
import { stringencyMatches } from '../matching/rule-search';
import type { MatchProfile, ProfileKind } from '../matching/types';
import { loadSearchRules, SearchInputCache } from '../search/load-search-rules';
import { hitFigureColumns, hitFigures } from './record-rule-matches';

/** The rule as it runs today for the hit's searching profile (its populations resolved now), with that profile and the other. */
async function ruleToday(db: Db, hit: Hit): Promise<{ rule: MatchRule; query: MatchProfile; candidate: MatchProfile }> {
  const [row] = hit.searchRuleId ? await db.select({ trigger: searchRules.trigger, active: searchRules.active, name: searchRules.name }).from(searchRules).where(eq(searchRules.id, hit.searchRuleId)) : [];
  if (!row || !row.active) throw new Conflict('The search rule that found this hit is deleted or inactive, so the hit cannot be weighed again by it.');
  const ids = hit.profiles.map((p) => p.profileId);
  const statuses = await db.select({ status: profiles.status }).from(profiles).where(inArray(profiles.id, ids));
  const loaded = new Map((await loadMatchProfiles(db, ids)).map((p) => [p.id, p]));
  if (statuses.length !== ids.length || statuses.some((s) => s.status !== 'approved') || loaded.size !== ids.length) {
    throw new Conflict('A profile of this hit is no longer approved, so the hit cannot be weighed again.');
  }
  const cache = new SearchInputCache();
  // In role order: the first profile whose sample type the rule searches with is the query, as when it was found.
  for (const id of ids) {
    const query = loaded.get(id)!;
    const [rule] = await loadSearchRules(db, cache, { organizationId: hit.organizationId, sampleType: query.sampleType ?? '', kind: query.kind as ProfileKind }, row.trigger as SearchTrigger, hit.searchRuleId!);
    if (rule) return { rule, query, candidate: loaded.get(ids.find((other) => other !== id)!)! };
  }
  throw new Conflict(`The search rule ${row.name} no longer searches with these profiles' sample types, so the hit cannot be weighed again by it.`);
}

/**
 * Weighs a pending identity hit again with the populations its rule uses today (issue 30: a hit found
 * where the organization had no population, or before one was uploaded): the stringency counts stay as
 * found, the LR, the chance an unrelated profile meets the stringency and the expected chance hits over
 * the profiles searched then are computed again. One transaction: the versioned update (409 when stale),
 * a pending → pending history row whose comments keep the old figures, and the audit row with both.
 * A published or rejected hit keeps the figures it was decided on (409): reset it first.
 */
/** Weighs a stored identity pair (stringencyMatches' arguments): on a search worker in the server, here without one. */
export type WeighStringency = (...args: Parameters<typeof stringencyMatches>) => RuleMatch[] | Promise<RuleMatch[]>;

export async function weighHitAgain(db: Db, clock: Clock, actor: AuditActor, hit: Hit, version: number, weigh: WeighStringency = stringencyMatches): Promise<void> {
  if (hit.status !== 'pending') throw new Conflict(`This hit is ${hit.status}; only a pending hit is weighed again (a decided hit keeps the figures it was decided on: reset it first).`);
  const stored = hit.figures?.stringency;
  if (hit.matchKind !== 'identity' || !stored) throw new Conflict('Only an identity hit found by a search rule is weighed again.');
  const { rule, query, candidate } = await ruleToday(db, hit);
  const [match] = await weigh(rule, query, [{ profileId: candidate.id, comparedMarkers: stored.comparedMarkers, mismatches: stored.mismatches }], new Map([[candidate.id, candidate.genotypes]]), stored.searchedProfiles);
  const columns = hitFigureColumns(hitFigures(match!, rule));
  const before = hit.probability;
  const after = hitProbabilityText({ matchKind: hit.matchKind, ...columns });
  const populationNames = rule.populations.filter((p) => p.kind === rule.analysis.profileKind).map((p) => p.name);
  const comments = `${WEIGHED_AGAIN_LABEL} (${populationNames.length > 0 ? populationNames.join(', ') : 'none'}). Before: ${before}${hit.populationName ? ` (${hit.populationName})` : ''}. Now: ${after}.`;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const updated = await updateVersioned(t, hits, hit.id, version, columns, 'hit');
    const at = clock.now();
    await t.insert(hitHistory).values({ hitId: hit.id, fromStatus: hit.status, toStatus: hit.status, userId: actor.id, userName: actor.name, at, comments });
    await appendAudit(t, actor, clock, {
      entity: 'Hit',
      entityId: hit.id,
      action: 'WeighedAgain',
      caseId: hit.profiles.find((p) => p.organizationId === hit.organizationId)?.caseId ?? null,
      organizationId: hit.organizationId,
      before: { version: hit.version, populationId: hit.populationId, combinedIndex: hit.combinedIndex, probability: before, expectedChanceHits: hit.expectedChanceHits, pValue: hit.pValue },
      after: { version: updated.version, populationId: columns.populationId, combinedIndex: columns.combinedIndex, probability: after, expectedChanceHits: columns.expectedChanceHits, pValue: columns.pValue },
    });
  });
}
