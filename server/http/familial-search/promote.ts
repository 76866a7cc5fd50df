import { formatHitProbability } from '../../../core/probability-display';
import type { FamilialPromoteAnswer, FamilialSkippedCandidate } from '../../../core/schemas/familial-search';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import type { OrganizationEvents } from '../../events/organization-events';
import { profileSetOf, recordRuleMatches } from '../../hits/record-rule-matches';
import { noticeCandidateMatches } from '../../network/candidate-match-notices';
import type { scoreCandidates, FamilialCandidate, FamilialRefusal } from '../../matching/familial-search';
import { toWireRule } from '../../search/search-wire';
import type { SearchRuntime } from '../../search/search-runtime';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { candidateRows, existingHits, familialInputs, type FamilialRequest } from './familial-inputs';

const REFUSAL: Record<FamilialRefusal, (minMarkers: number) => string> = {
  query: () => 'It is the profile searched',
  'not-indexed': () => 'It is not in the search index yet (approved a moment ago?): search again',
  excluded: () => 'The analysis excludes the relationship (LR 0) in at least one population',
  'too-few-markers': (minMarkers) => `Fewer than the rule’s ${minMarkers} markers are compared`,
};

/**
 * Promotes chosen candidates of a familial search to pending hits (issue 12). Nothing the browser
 * holds is trusted: each candidate must be an approved profile of the searched sample types in the
 * profile's organization, and its figures are computed again as the search computed them
 * (scoreCandidates); each becomes one pending hit with roles named from the sample types
 * (recordRuleMatches). A candidate already named with the profile by a hit of this analysis, or by
 * an identity hit, is skipped with the reason. The hits and the audit row land in one transaction.
 */
export async function promoteCandidates(
  { db, clock, search, events }: { db: Db; clock: Clock; search: SearchRuntime | undefined; events?: Pick<OrganizationEvents, 'publish'> | undefined },
  user: AuthenticatedUser,
  profileId: string,
  request: FamilialRequest & { candidateIds: readonly string[] },
): Promise<FamilialPromoteAnswer> {
  const { row, profile, rule, search: runtime } = await familialInputs(db, search, user, profileId, request);
  const ids = [...new Set(request.candidateIds)];
  const rows = await candidateRows(db, ids);
  const skipped: FamilialSkippedCandidate[] = [];
  const skip = (candidateId: string, reason: string) => skipped.push({ candidateId, sampleName: rows.get(candidateId)?.sampleName ?? null, reason });

  const ownProfile = (id: string) => rows.get(id)?.organizationId === profile.organizationId;
  const eligible: string[] = [];
  for (const id of ids) {
    const r = rows.get(id);
    // Another organization's profile is not even confirmed to exist (no sample name either).
    if (!r || !ownProfile(id)) skipped.push({ candidateId: id, sampleName: null, reason: 'No profile with this id in the profile’s organization' });
    else if (r.status !== 'approved') skip(id, `It is ${r.status}, not approved`);
    else if (!rule.searchedSampleTypes.includes(r.sampleType)) skip(id, `Search rule ${rule.name} does not search ${r.sampleType} profiles`);
    else eligible.push(id);
  }
  const { scored } = await runtime.pool.run<ReturnType<typeof scoreCandidates>>(runtime.service.indexes, profile.kind, { task: 'familial-score', profile, rule: toWireRule(rule), candidateIds: eligible });
  const hitsOf = await existingHits(db, profile.organizationId, profile.id, eligible);
  const matches: FamilialCandidate[] = [];
  for (const id of eligible) {
    const score = scored.get(id)!;
    const existing = hitsOf.get(id) ?? [];
    const identity = existing.find((h) => h.matchKind === 'identity');
    const same = existing.find((h) => h.analysisId === rule.analysis.id);
    if (typeof score === 'string') skip(id, REFUSAL[score](rule.minMarkers));
    else if (same) skip(id, `Already a hit (${same.status})`);
    else if (identity) skip(id, `An identity hit (${identity.status}) already names these profiles: the same person is not a relative`);
    else matches.push(score);
  }

  const sampleTypes = new Map([[profile.id, row.profile.sampleType], ...[...rows.values()].map((r) => [r.id, r.sampleType] as const)]);
  const actor = auditActor(user);
  const added = await db.transaction(async (tx) => {
    const created = await recordRuleMatches(tx, { organizationId: profile.organizationId, matches, rules: new Map([[rule.id, rule]]), sampleTypes, foundBy: { userId: actor.id, userName: actor.name } });
    // At an upper level held profiles (the searched one and its relative) are sent down with the hit (issue 32).
    await noticeCandidateMatches(tx, created);
    await appendAudit(tx, actor, clock, {
      entity: 'FamilialSearch',
      entityId: profile.id,
      action: 'Promote',
      caseId: row.profile.caseId,
      organizationId: profile.organizationId,
      after: {
        profileId: profile.id,
        searchRuleId: rule.id,
        populationIds: rule.populations.map((p) => p.id),
        // The row names only profiles of the profile's organization, which its readers may read: another organization's
        // ids (refused above) are not echoed, only counted (issue 30).
        candidateIds: ids.filter(ownProfile),
        ...(ids.length > ids.filter(ownProfile).length ? { candidatesNotFound: ids.length - ids.filter(ownProfile).length } : {}),
        hitIds: created.map((h) => h.id),
        skipped: skipped.filter((s) => ownProfile(s.candidateId)).map(({ candidateId, reason }) => ({ candidateId, reason })),
      },
    });
    return created;
  });
  if (added.length > 0) events?.publish(profile.organizationId, 'hits');

  const candidateOf = new Map(added.map((h) => [h.id, matches.find((m) => h.profileSet === profileSetOf([profile.id, m.candidateId]))!]));
  // Recorded meanwhile by another call: the unique dedupe key kept the first.
  for (const m of matches) if (![...candidateOf.values()].includes(m)) skip(m.candidateId, 'Already a hit');
  return {
    hits: added.map((h) => {
      const m = candidateOf.get(h.id)!;
      const r = rows.get(m.candidateId)!;
      return {
        id: h.id,
        candidateId: m.candidateId,
        sampleName: r.sampleName,
        caseNumber: r.caseNumber,
        combinedIndex: h.combinedIndex,
        probability: formatHitProbability({ combinedIndex: h.combinedIndex, markerCount: h.markerCount, nonExclusionMarkerCount: h.nonExclusionMarkerCount ?? 0 }),
        populationId: h.populationId,
      };
    }),
    skipped,
  };
}
