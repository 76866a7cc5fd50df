import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { formatHitProbability } from '../../../core/probability-display';
import type { KeyboardSearchAnswer, KeyboardSearchBody, KeyboardSearchCandidate } from '../../../core/schemas/keyboard-search';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { cases, chemistries, profiles } from '../../db/schema';
import { keyboardTails, type KeyboardChance } from '../../matching/keyboard-chance';
import { KEYBOARD_SCAN_LIMIT, mergeKeyboardCandidates, type KeyboardCandidates } from '../../matching/keyboard-candidates';
import { searchOn, searchOnParts, type SearchPool } from '../../search/search-pool';
import { toWireAnalysis } from '../../search/search-wire';
import { isSameSourceAnalysis, keyboardSearchAnalyses } from '../../matching/keyboard-analyses';
import { loadActiveAnalyses, loadMatchPopulations, type PopulationStatistics } from '../../matching/load-search-inputs';
import type { MatchingService } from '../../matching/matching-service';
import type { MatchAnalysis, ProfileKind } from '../../matching/types';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest } from '../errors';
import { findVisiblePopulation } from '../populations/visibility';
import { assertNoMarkerErrors, checkMarkerValues, chemistryOrder, loadMarkers } from '../profiles/marker-values';
import { inReachableOrganizations } from '../tenancy';

/** Most candidates one answer lists (the strongest first); `notShown` counts the others found. */
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
 * The analyses a search runs: those it names, each an analysis the keyboard search can run for the kind (400
 * otherwise), or by default the same-source ones (KeyboardSearchBody.analysisIds says why).
 */
function chosenAnalyses<A extends MatchAnalysis & { name: string }>(active: readonly A[], kind: ProfileKind, analysisIds: readonly string[] | undefined): A[] {
  const eligible = keyboardSearchAnalyses(active, kind);
  if (analysisIds === undefined) return eligible.filter(isSameSourceAnalysis);
  const byId = new Map(eligible.map((a) => [a.id, a]));
  const unknown = analysisIds.flatMap((id, i) => (byId.has(id) ? [] : [{ path: `/analysisIds/${i}`, message: 'Not an active two-role analysis of this kind with a threshold' }]));
  if (unknown.length > 0) throw new BadRequest('The keyboard search cannot run some of these analyses', unknown);
  return [...new Set(analysisIds)].map((id) => byId.get(id)!);
}

/**
 * The keyboard search (spec 2.6): the stringency candidates and the chosen analyses' results over their thresholds,
 * with each candidate's figures per analysis and population; only profiles of organizations the user reaches. The
 * scans (keyboardCandidates) keep a bounded number of the strongest and count the rest; names are read for those
 * kept only, and p-values computed for those listed. Nothing about the typed profile is stored: the audit row
 * records that a search was made, with its settings, never the alleles.
 */
export async function keyboardSearch(db: Db, clock: Clock, user: AuthenticatedUser, body: KeyboardSearchBody, matching: MatchingService, pool?: SearchPool, statistics: PopulationStatistics = loadMatchPopulations): Promise<KeyboardSearchAnswer> {
  const { kind, query } = await readQuery(db, body);
  // The body's organization bounds the search even for scope All; only an explicit `all` spans every organization.
  const searchAll = body.organizationId === ALL_ORGANIZATIONS;
  const populationRows = await Promise.all([...new Set(body.populationIds)].map((id) => findVisiblePopulation(db, user, id)));
  const wrongKind = populationRows.find((p) => p.kind !== kind);
  if (wrongKind) throw new BadRequest(`Population ${wrongKind.name} does not hold ${kind === 'YStr' ? 'Y-STR haplotypes' : 'autosomal frequencies'}`);
  const [active, populations] = await Promise.all([loadActiveAnalyses(db, kind), statistics(db, populationRows.map((p) => p.id))]);
  const analyses = chosenAnalyses(active, kind, body.analysisIds);
  const synthetic = new Set(populationRows.filter((p) => p.synthetic).map((p) => p.id));

  const options = { stringency: body.stringency, minMarkers: body.minMarkers, maxMismatches: body.maxMismatches };
  const organizations = searchAll ? (user.scope === 'All' ? 'all' : user.organizationIds) : [body.organizationId];
  // The scans run on the search workers, split over them by slices of the index (ARCHITECTURE.md "Using every core"),
  // one thread left to the chance figures, which need nothing of the scans: both run at once, and this thread answers
  // others meanwhile.
  const queuePosition = pool?.queuePosition() ?? 0;
  const wire = analyses.map(toWireAnalysis);
  const [scanned, figures] = await Promise.all([
    searchOnParts<KeyboardCandidates>(
      pool,
      matching.indexes,
      kind,
      { task: 'keyboard', input: { kind, query, options, analyses: wire, populations, organizations, limit: KEYBOARD_SCAN_LIMIT } },
      mergeKeyboardCandidates,
      { leave: 1 },
    ),
    // GENETICS.md "Expected chance hits": the stringency's probabilities and the analyses' unrelated distributions.
    searchOn<KeyboardChance>(pool, matching.indexes, kind, { task: 'keyboard-chance', input: { kind, query, stringency: body.stringency, options, populations, analyses: wire } }),
  ]);

  // The database stays the safety net: a profile reset or moved since the index saw it is not listed.
  const ids = scanned.candidates.map((c) => c.profileId);
  const rows = ids.length === 0 ? [] : await db
    .select({ id: profiles.id, sampleName: profiles.profileId, caseId: profiles.caseId, caseNumber: cases.caseNumber })
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .where(and(inArray(profiles.id, ids), eq(profiles.status, 'approved'), inReachableOrganizations(profiles.organizationId, user), searchAll ? undefined : eq(profiles.organizationId, body.organizationId)));
  const named = new Map(rows.map((r) => [r.id, r]));
  // The list's order: strength, fewest mismatches, most compared markers, then the sample name (the scans broke ties by id).
  const ranked = scanned.candidates
    .filter((c) => named.has(c.profileId))
    .map((c) => ({ ...c, ...named.get(c.profileId)! }))
    .sort((a, b) => (a.strength === b.strength ? 0 : a.strength > b.strength ? -1 : 1) || a.mismatches - b.mismatches || b.comparedMarkers - a.comparedMarkers || a.sampleName.localeCompare(b.sampleName));
  const listed = ranked.slice(0, MAX_CANDIDATES);
  const candidateCount = scanned.found - (scanned.candidates.length - ranked.length);

  const names = { analyses: new Map(analyses.map((a) => [a.id, a.name])), populations: new Map(populations.map((p) => [p.id, p.name])) };
  // N is every approved profile of the kind the search reaches; p-values are read for the listed results only.
  const { searchedProfiles } = scanned;
  const asked = listed.flatMap((c) => c.results.map((r) => ({ analysisId: r.analysisId, populationId: r.populationId, combinedIndex: r.combinedIndex })));
  const tails = keyboardTails(figures, asked);
  const chance = populations.map((p, i) => {
    const probability = figures.probabilities[i]!;
    return { populationId: p.id, populationName: p.name, synthetic: synthetic.has(p.id), probability, expectedChanceHits: searchedProfiles * probability };
  });
  let nextTail = 0;

  const candidates: KeyboardSearchCandidate[] = listed.map((c) => ({
    profileId: c.profileId,
    sampleName: c.sampleName,
    caseId: c.caseId,
    caseNumber: c.caseNumber,
    comparedMarkers: c.comparedMarkers,
    mismatches: c.mismatches,
    stringencyMet: c.stringencyMet,
    results: c.results.map((r) => ({
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
      // In `asked`'s order: candidate by candidate, result by result.
      ...pValueFields(tails[nextTail++] ?? null),
    })),
  }));
  const notShown = candidateCount - candidates.length;

  await db.transaction((tx) =>
    appendAudit(tx, auditActor(user), clock, {
      entity: 'KeyboardSearch',
      entityId: randomUUID(),
      action: 'Search',
      organizationId: searchAll ? null : body.organizationId,
      after: { chemistryId: body.chemistryId, markerCount: query.size, populationIds: body.populationIds, analysisIds: analyses.map((a) => a.id), ...options, candidateCount },
    }),
  );
  return { candidates, truncated: notShown > 0, candidateCount, notShown, candidateLimit: MAX_CANDIDATES, scanLimit: KEYBOARD_SCAN_LIMIT, searchedProfiles, chance, queuePosition };
}
