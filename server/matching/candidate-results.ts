import { pairWeigher } from './analysis-scan';
import type { Genotype } from '../genetics/types';
import type { MatchAnalysis, MatchPopulation, ProfileKind } from './types';

/** One analysis over one population for one candidate, and whether it reaches the analysis threshold. */
export interface CandidateResult {
  profileId: string;
  analysisId: string;
  populationId: string | null;
  combinedIndex: number | null;
  markerCount: number;
  nonExclusionMarkerCount: number | null;
  overThreshold: boolean;
}

/** The analysis with its threshold lifted, one object per analysis: the marker evaluators made for it are kept by it (markerEvaluator). */
function liftedThreshold(analysis: MatchAnalysis): MatchAnalysis {
  let lifted = LIFTED.get(analysis);
  if (!lifted) LIFTED.set(analysis, (lifted = { ...analysis, threshold: analysis.kind === 'Exclusion' ? Infinity : 0 }));
  return lifted;
}

const LIFTED = new WeakMap<MatchAnalysis, MatchAnalysis>();

/**
 * Every two-role analysis over every population of the kind for a short list of candidates (keyboard
 * search, a rule's matches): each candidate weighed marker by marker with the threshold lifted, the
 * per-marker factors of just those profiles (no table over every genotype of a column), so the figures
 * are the database search's to the bit; `overThreshold` says whether it would be a hit.
 * `queryRole` places the query in the analysis's first or second role.
 * A Y-STR haplotype whose markers differ has no figure (not a match).
 */
export function candidateResults(
  kind: ProfileKind,
  query: ReadonlyMap<string, Genotype>,
  candidates: ReadonlyMap<string, ReadonlyMap<string, Genotype>>,
  analyses: readonly MatchAnalysis[],
  populations: readonly MatchPopulation[],
  queryRole: 0 | 1 = 0,
): CandidateResult[] {
  const out: CandidateResult[] = [];
  for (const analysis of analyses) {
    if (analysis.profileKind !== kind || analysis.roles.length !== 2 || analysis.threshold === null) continue;
    const threshold = analysis.threshold;
    const pops = analysis.kind === 'Exclusion' ? [null] : populations.filter((p) => p.kind === kind);
    const lifted = liftedThreshold(analysis);
    for (const population of pops) {
      const weigh = pairWeigher({ analysis: lifted, query, queryRole, population, minMarkers: 0 });
      for (const [profileId, genotypes] of candidates) {
        const m = weigh(genotypes);
        if (!m) continue;
        const overThreshold = analysis.kind === 'Exclusion' ? m.markerCount - m.nonExclusionMarkerCount! <= threshold : (m.combinedIndex ?? 0) >= threshold;
        out.push({ profileId, ...m, analysisId: analysis.id, populationId: population?.id ?? null, overThreshold });
      }
    }
  }
  return out;
}
