import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { formatHitProbability } from '../../../core/probability-display';
import type { KeyboardSearchAnswer, KeyboardSearchBody, KeyboardSearchCandidate } from '../../../core/schemas/keyboard-search';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { cases, chemistries, profiles } from '../../db/schema';
import { candidateResults } from '../../matching/candidate-results';
import { stringencyMatchProbability, unrelatedDistribution } from '../../matching/chance-distribution';
import type { LrDistribution } from '../../genetics/statistics';
import { CHANCE_GRID_STEP } from '../../matching/rule-search';
import { compareProfiles } from '../../matching/genotype-comparison';
import { loadActiveAnalyses, loadMatchPopulations } from '../../matching/load-search-inputs';
import type { MatchingService } from '../../matching/matching-service';
import { isIgnoredMarker } from '../../matching/profile-index';
import { searchProfile } from '../../matching/search-profile';
import type { ProfileKind } from '../../matching/types';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest } from '../errors';
import { findVisiblePopulation } from '../populations/visibility';
import { assertNoMarkerErrors, checkMarkerValues, chemistryOrder, loadMarkers } from '../profiles/marker-values';
import { inReachableOrganizations } from '../tenancy';

/** Most candidates one answer lists (the strongest first); `truncated` says when more were found. */
export const MAX_CANDIDATES = 200;

/** A bracketed p-value as the answer shows it: its upper end, and the bracket. */
const pValueFields = (tail: { lower: number; upper: number } | null) => ({ pValue: tail?.upper ?? null, pValueBracket: tail ? { lower: tail.lower, upper: tail.upper } : null });

/** The typed-in genotypes checked by the allele rules (mixtures allowed: a forensic unknown may be one), by marker name. */
async function readQuery(db: Db, body: KeyboardSearchBody) {
  const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.id, body.chemistryId));
  if (!chemistry) throw new BadRequest(`No chemistry with id ${body.chemistryId}`, [{ path: '/chemistryId', message: 'Unknown chemistry' }]);
  const kind = chemistry.kind as ProfileKind;
  const markers = await loadMarkers(db, body.markerValues.map((v) => v.markerId));
  const checked = checkMarkerValues(body.markerValues, { kind, sampleType: 'Forensic Mixture', markers, order: await chemistryOrder(db, chemistry.id) });
  assertNoMarkerErrors(checked.errors);
  if (checked.values.length === 0) throw new BadRequest('Type at least one marker', [{ path: '/markerValues', message: 'Type at least one marker' }]);
  return { kind, query: new Map(checked.values.map((v) => [markers.get(v.markerId)!.name, v.alleles])) };
}

/**
 * The keyboard search (spec 2.6): the stringency candidates and every analysis's results over its
 * threshold, with each candidate's figures per analysis and population; only profiles of organizations
 * the user reaches. Nothing about the typed profile is stored: the audit row records that a search
 * was made, with its settings, never the alleles.
 */
export async function keyboardSearch(db: Db, clock: Clock, user: AuthenticatedUser, body: KeyboardSearchBody, matching: MatchingService): Promise<KeyboardSearchAnswer> {
  const { kind, query } = await readQuery(db, body);
  // The body's organization bounds the search even for scope All; only an explicit `all` spans every organization.
  const searchAll = body.organizationId === ALL_ORGANIZATIONS;
  const populationRows = await Promise.all([...new Set(body.populationIds)].map((id) => findVisiblePopulation(db, user, id)));
  const wrongKind = populationRows.find((p) => p.kind !== kind);
  if (wrongKind) throw new BadRequest(`Population ${wrongKind.name} does not hold ${kind === 'YStr' ? 'Y-STR haplotypes' : 'autosomal frequencies'}`);
  const [all, populations] = await Promise.all([loadActiveAnalyses(db, kind), loadMatchPopulations(db, populationRows.map((p) => p.id))]);
  // A typed mixture is weighed by the mixture search (POST mixture-search), not by the pairwise analyses.
  const analyses = all.filter((a) => a.kind !== 'Mixture');
  const synthetic = new Set(populationRows.filter((p) => p.synthetic).map((p) => p.id));

  const options = { stringency: body.stringency, minMarkers: body.minMarkers, maxMismatches: body.maxMismatches };
  const ids = new Set(matching.identity(kind, query, options).map((c) => c.profileId));
  const queryProfile = { id: randomUUID(), kind, chemistryId: body.chemistryId, organizationId: body.organizationId, genotypes: query };
  for (const hit of searchProfile(queryProfile, analyses, populations, matching.indexes)) for (const p of hit.profiles) if (p.profileId !== queryProfile.id) ids.add(p.profileId);

  const visible = ids.size === 0 ? [] : await db
    .select({ id: profiles.id, sampleName: profiles.profileId, caseId: profiles.caseId, caseNumber: cases.caseNumber })
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .where(and(inArray(profiles.id, [...ids]), eq(profiles.status, 'approved'), inReachableOrganizations(profiles.organizationId, user), searchAll ? undefined : eq(profiles.organizationId, body.organizationId)));
  const genotypes = new Map(visible.flatMap((v) => {
    const found = matching.indexes.find(v.id);
    return found ? [[v.id, found.genotypes] as const] : [];
  }));
  const results = candidateResults(kind, query, genotypes, analyses, populations);
  const names = { analyses: new Map(analyses.map((a) => [a.id, a.name])), populations: new Map(populations.map((p) => [p.id, p.name])) };
  // GENETICS.md "Expected chance hits": N is every approved profile of the kind the user reaches; a candidate's p-value comes from
  // the unrelated-profile distribution of its analysis and population, computed once per pair that has a candidate.
  const reach = (organizationId: string) => (searchAll ? user.scope === 'All' || user.organizationIds.includes(organizationId) : organizationId === body.organizationId);
  const searchedProfiles = matching.indexes.indexes(kind).reduce((n, index) => n + index.countInGroups(index.groupMask((g) => reach(g.organizationId))), 0);
  const chance = populations.map((p) => {
    const probability = kind === 'Autosomal' ? stringencyMatchProbability(body.stringency, query, p, options).probability : 0;
    return { populationId: p.id, populationName: p.name, synthetic: synthetic.has(p.id), probability, expectedChanceHits: searchedProfiles * probability };
  });
  const distributions = new Map<string, LrDistribution | null>();
  const pValueOf = (analysisId: string, populationId: string | null, combinedIndex: number | null) => {
    const analysis = analyses.find((a) => a.id === analysisId);
    const population = populations.find((p) => p.id === populationId);
    if (!analysis || !population || combinedIndex === null || analysis.kind !== 'Computational' || kind !== 'Autosomal' || analysis.roles.length !== 2) return null;
    const key = `${analysisId}:${populationId}`;
    if (!distributions.has(key)) distributions.set(key, unrelatedDistribution(analysis, query, 0, population, { step: CHANCE_GRID_STEP }));
    return distributions.get(key)!.tail(combinedIndex > 0 ? Math.log10(combinedIndex) : -Infinity);
  };

  const candidates: KeyboardSearchCandidate[] = visible
    .filter((v) => genotypes.has(v.id))
    .map((v) => {
      const counts = compareProfiles(body.stringency, query, genotypes.get(v.id)!, isIgnoredMarker);
      return {
        profileId: v.id,
        sampleName: v.sampleName,
        caseId: v.caseId,
        caseNumber: v.caseNumber,
        ...counts,
        stringencyMet: counts.mismatches <= body.maxMismatches && counts.comparedMarkers >= body.minMarkers,
        results: results
          .filter((r) => r.profileId === v.id)
          .map((r) => ({
            analysisId: r.analysisId,
            analysisName: names.analyses.get(r.analysisId) ?? '',
            populationId: r.populationId,
            populationName: r.populationId === null ? null : (names.populations.get(r.populationId) ?? ''),
            combinedIndex: r.combinedIndex,
            markerCount: r.markerCount,
            nonExclusionMarkerCount: r.nonExclusionMarkerCount,
            probability: formatHitProbability({ combinedIndex: r.combinedIndex, markerCount: r.markerCount, nonExclusionMarkerCount: r.nonExclusionMarkerCount ?? 0 }),
            overThreshold: r.overThreshold,
            synthetic: r.populationId !== null && synthetic.has(r.populationId),
            ...pValueFields(pValueOf(r.analysisId, r.populationId, r.combinedIndex)),
          })),
      };
    });
  const strength = (c: KeyboardSearchCandidate) => Math.max(c.stringencyMet ? Infinity : -Infinity, ...c.results.filter((r) => r.overThreshold).map((r) => r.combinedIndex ?? 0));
  candidates.sort((a, b) => strength(b) - strength(a) || a.mismatches - b.mismatches || b.comparedMarkers - a.comparedMarkers || a.sampleName.localeCompare(b.sampleName));

  await db.transaction((tx) =>
    appendAudit(tx, auditActor(user), clock, {
      entity: 'KeyboardSearch',
      entityId: randomUUID(),
      action: 'Search',
      organizationId: searchAll ? null : body.organizationId,
      after: { chemistryId: body.chemistryId, markerCount: query.size, populationIds: body.populationIds, ...options, candidateCount: candidates.length },
    }),
  );
  return { candidates: candidates.slice(0, MAX_CANDIDATES), truncated: candidates.length > MAX_CANDIDATES, searchedProfiles, chance };
}
