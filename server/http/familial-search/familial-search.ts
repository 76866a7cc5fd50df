import { formatHitProbability } from '../../../core/probability-display';
import type { FamilialCandidate, FamilialSearchAnswer } from '../../../core/schemas/familial-search';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import type { FamilialRanking, rankRule } from '../../matching/familial-search';
import { toWireRule } from '../../search/search-wire';
import type { SearchRuntime } from '../../search/search-runtime';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { candidateRows, existingHits, familialInputs, type FamilialRequest } from './familial-inputs';

/**
 * A familial search for one approved profile (ARCHITECTURE.md "Search policy", issue 12): the rule's
 * kinship analysis over the chosen populations against the organization's approved profiles of the
 * searched sample types, the best `limit` by their smallest LR, each with every population's figures
 * and the expected number of chance candidates at its rank. Nothing is stored but the audit row of the
 * request and its parameters; promoting candidates is a second call.
 */
export async function familialSearch(
  { db, clock, search }: { db: Db; clock: Clock; search: SearchRuntime | undefined },
  user: AuthenticatedUser,
  profileId: string,
  request: FamilialRequest & { limit: number },
): Promise<FamilialSearchAnswer> {
  const { row, profile, rule, analysisName, search: runtime } = await familialInputs(db, search, user, profileId, request);
  // On a search worker (ARCHITECTURE.md "Using every core"): this thread answers others meanwhile.
  const ranking = await runtime.pool.run<ReturnType<typeof rankRule>>(runtime.service.indexes, profile.kind, { task: 'familial', profile, rule: toWireRule(rule), limit: request.limit });
  const rows = await candidateRows(db, ranking.candidates.map((c) => c.candidateId));
  // The index may lag a reset or a move by a moment: only approved profiles of the organization are listed.
  const listed = ranking.candidates.filter((c) => {
    const r = rows.get(c.candidateId);
    return r !== undefined && r.status === 'approved' && r.organizationId === profile.organizationId;
  });
  const hitsOf = await existingHits(db, profile.organizationId, profile.id, listed.map((c) => c.candidateId));
  const candidates: FamilialCandidate[] = listed.map((c, i) => {
    const r = rows.get(c.candidateId)!;
    return {
      rank: i + 1,
      profileId: c.candidateId,
      sampleName: r.sampleName,
      caseId: r.caseId,
      caseNumber: r.caseNumber,
      sampleType: r.sampleType,
      populations: c.populations.map((p) => ({
        populationId: p.populationId!,
        combinedIndex: p.combinedIndex!,
        log10: p.log10!,
        markerCount: p.markerCount,
        probability: formatHitProbability({ combinedIndex: p.combinedIndex, markerCount: p.markerCount, nonExclusionMarkerCount: 0 }),
        pValue: p.chance?.pValue ?? null,
        pValueBracket: p.chance?.pValueBracket ?? null,
        expectedChanceCandidates: p.chance?.pValue === null || p.chance?.pValue === undefined ? null : p.chance.expectedChanceHits,
      })),
      smallestCombinedIndex: c.smallestCombinedIndex,
      reportedPopulationId: c.reportedPopulationId!,
      alreadyHit: (hitsOf.get(c.candidateId) ?? []).some((h) => h.analysisId === rule.analysis.id || h.matchKind === 'identity'),
    };
  });
  const populationIds = rule.populations.map((p) => p.id);
  await db.transaction((tx) =>
    appendAudit(tx, auditActor(user), clock, {
      entity: 'FamilialSearch',
      // The search is recorded against the profile searched (its case's trail shows it too).
      entityId: profile.id,
      action: 'Search',
      caseId: row.profile.caseId,
      organizationId: profile.organizationId,
      after: { profileId: profile.id, searchRuleId: rule.id, populationIds, limit: request.limit, candidateCount: candidates.length },
    }),
  );
  return {
    rule: { id: rule.id, name: rule.name },
    analysis: { id: rule.analysis.id, name: analysisName },
    populations: rule.populations.map((p) => ({ id: p.id, name: p.name, synthetic: p.synthetic, ...notEvaluatedOf(ranking, p.id) })),
    searchedProfiles: ranking.searchedProfiles,
    limit: request.limit,
    candidates,
  };
}

/** A population the ranking did not weigh with, said as such; nothing for one it did (the answer stays as before). */
function notEvaluatedOf(ranking: FamilialRanking, populationId: string): { notEvaluated?: string } {
  const reason = ranking.skipped?.find((s) => s.populationId === populationId)?.reason;
  return reason ? { notEvaluated: reason } : {};
}
