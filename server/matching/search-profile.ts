import { canonicalPattern } from '../genetics/patterns';
import { genotypesOf } from '../genetics/seed-analyses/types';
import { planAnalysis, scanAnalysis, type AnalysisMatch } from './analysis-scan';
import { fusedScan } from './fused-scan';
import type { IndexSet } from './index-set';
import type { ProfileIndex } from './profile-index';
import { DEFAULT_SEARCH_OPTIONS, type HitCandidate, type MatchAnalysis, type MatchPopulation, type MatchProfile, type SearchOptions } from './types';

/**
 * Whether swapping the two roles leaves every formula unchanged (identity, kinship, parent–child and
 * the exclusion tables are symmetric): then one scan covers both orders and the pair's roles follow
 * the profile ids, so the same pair gets the same roles whichever profile was approved last.
 */
export function isRoleSymmetric(analysis: MatchAnalysis): boolean {
  const byPattern = new Map(analysis.formulae.map((f) => [f.pattern, f]));
  const ploidy = analysis.profileKind === 'YStr' ? 'haploid' : 'diploid';
  return analysis.formulae.every((f) => {
    const swapped = byPattern.get(canonicalPattern(genotypesOf(f.pattern).reverse(), { ploidy }).pattern);
    return swapped !== undefined && swapped.expression === f.expression && swapped.isExclusion === f.isExclusion;
  });
}

/** One unit of a database search: an analysis over one index, one population and one role of the query. */
export interface SearchStep {
  run(): HitCandidate[];
}

function toCandidate(analysis: MatchAnalysis, populationId: string | null, queryId: string, queryRole: 0 | 1, symmetric: boolean, match: AnalysisMatch): HitCandidate {
  let ids: [string, string] = queryRole === 0 ? [queryId, match.profileId] : [match.profileId, queryId];
  if (symmetric && ids[0] > ids[1]) ids = [ids[1], ids[0]];
  return {
    analysisId: analysis.id,
    populationId,
    profiles: ids.map((profileId, i) => ({ role: analysis.roles[i]!, profileId })),
    combinedIndex: match.combinedIndex,
    markerCount: match.markerCount,
    nonExclusionMarkerCount: match.nonExclusionMarkerCount,
  };
}

/** One (analysis, population, query role) of a database search, before its tables are built. */
interface SearchLane {
  analysis: MatchAnalysis;
  population: MatchPopulation | null;
  queryRole: 0 | 1;
  symmetric: boolean;
}

/**
 * The steps of searching one profile (ARCHITECTURE.md "Matching"): every active two-role analysis of
 * its kind with a threshold, over every index of that kind, for each population of that kind
 * (exclusion analyses use none). Three-role analyses (paternity trio) need a known pair and are not
 * searched against the database. Autosomal indexes are searched by one fused pass per index (every
 * lane at once, fused-scan.ts); Y-STR lanes, whose haplotype count follows the scan, one by one.
 */
export function planProfileSearch(
  profile: MatchProfile,
  analyses: readonly MatchAnalysis[],
  populations: readonly MatchPopulation[],
  indexes: IndexSet,
  options: SearchOptions = DEFAULT_SEARCH_OPTIONS,
): SearchStep[] {
  const lanes: SearchLane[] = [];
  for (const analysis of analyses) {
    if (analysis.profileKind !== profile.kind || analysis.roles.length !== 2 || analysis.threshold === null) continue;
    const symmetric = isRoleSymmetric(analysis);
    const roles: (0 | 1)[] = symmetric ? [0] : [0, 1];
    const pops = analysis.kind === 'Exclusion' ? [null] : populations.filter((p) => p.kind === analysis.profileKind);
    for (const population of pops) for (const queryRole of roles) lanes.push({ analysis, population, queryRole, symmetric });
  }
  const request = (lane: SearchLane) => ({ analysis: lane.analysis, query: profile.genotypes, queryRole: lane.queryRole, population: lane.population, minMarkers: options.minMarkers, excludeId: profile.id });
  const candidates = (lane: SearchLane, matches: readonly AnalysisMatch[]) => matches.map((m) => toCandidate(lane.analysis, lane.population?.id ?? null, profile.id, lane.queryRole, lane.symmetric, m));
  return indexes.indexes(profile.kind).flatMap((index: ProfileIndex): SearchStep[] =>
    profile.kind === 'Autosomal'
      ? [
          {
            run: () => {
              const plans = lanes.map((lane) => planAnalysis(index, request(lane))!);
              return fusedScan(plans).flatMap((matches, i) => candidates(lanes[i]!, matches));
            },
          },
        ]
      : lanes.map((lane) => ({ run: () => candidates(lane, scanAnalysis(index, request(lane))) })),
  );
}

/** Searches an approved profile against the index set and returns every result over its analysis's threshold, in a stable order. */
export function searchProfile(
  profile: MatchProfile,
  analyses: readonly MatchAnalysis[],
  populations: readonly MatchPopulation[],
  indexes: IndexSet,
  options: SearchOptions = DEFAULT_SEARCH_OPTIONS,
): HitCandidate[] {
  return sortCandidates(planProfileSearch(profile, analyses, populations, indexes, options).flatMap((step) => step.run()));
}

const candidateKey = (c: HitCandidate) => [c.analysisId, c.populationId ?? '', ...c.profiles.map((p) => p.profileId)].join('\u0000');

/** Candidates ordered by analysis, population and profiles, so repeated searches answer identically. */
export function sortCandidates(candidates: HitCandidate[]): HitCandidate[] {
  return candidates.sort((a, b) => (candidateKey(a) < candidateKey(b) ? -1 : candidateKey(a) > candidateKey(b) ? 1 : 0));
}
