import { MAX_MULTI_COPY } from '../../../core/alleles';
import type { EngineProfile } from '../types';
import { alignProfiles, type SkippedMarker } from './aligned-markers';

/** A marker's verdict in an exclusion analysis (GENETICS.md "Exclusion analyses"). */
export type ExclusionDecision = 'Exclusion' | 'Non Exclusion';

/** The verdict at one marker. */
export interface MarkerDecision {
  marker: string;
  decision: ExclusionDecision;
}

/** Per-marker verdicts and the counts a hit shows as nonExclusionMarkerCount / markerCount. */
export interface ExclusionResult {
  decisions: MarkerDecision[];
  skipped: SkippedMarker[];
  /** Markers compared (skipped ones excluded). */
  markerCount: number;
  nonExclusionMarkerCount: number;
}

/** Tally of per-marker decisions. */
function tally(decisions: MarkerDecision[], skipped: SkippedMarker[]): ExclusionResult {
  const nonExclusionMarkerCount = decisions.filter((d) => d.decision === 'Non Exclusion').length;
  return { decisions, skipped, markerCount: decisions.length, nonExclusionMarkerCount };
}

/** Parent–child exclusion (AABB; Fung & Hu 2008): a marker where parent and child share no allele is an Exclusion. */
export function parentChildExclusion(parent: EngineProfile, child: EngineProfile): ExclusionResult {
  const { compared, skipped } = alignProfiles([parent, child], { maxAlleles: 2 });
  const decisions = compared.map(({ marker, genotypes: [p, c] }): MarkerDecision => ({
    marker,
    decision: p!.some((a) => c!.includes(a)) ? 'Non Exclusion' : 'Exclusion',
  }));
  return tally(decisions, skipped);
}

/**
 * Y-STR lineage exclusion (SWGDAM 2014): a marker whose allele differs is an Exclusion; multi-copy
 * markers (DYS385a/b, DYF387S1) compare as unordered sets, so 11,14 equals 14,11.
 */
export function yLineageExclusion(a: EngineProfile, b: EngineProfile): ExclusionResult {
  const { compared, skipped } = alignProfiles([a, b], { maxAlleles: MAX_MULTI_COPY });
  const decisions = compared.map(({ marker, genotypes: [x, y] }): MarkerDecision => ({
    marker,
    decision: x!.join('/') === y!.join('/') ? 'Non Exclusion' : 'Exclusion',
  }));
  return tally(decisions, skipped);
}

/** A hit threshold of an exclusion analysis, e.g. at most 1 exclusion over at least 17 Y-STR markers. */
export interface ExclusionThreshold {
  maxExclusions: number;
  minMarkers: number;
}

/** Whether an exclusion result is a hit under the analysis threshold (GENETICS.md "Exclusion analyses"). */
export function isExclusionHit(result: ExclusionResult, threshold: ExclusionThreshold): boolean {
  return result.markerCount >= threshold.minMarkers && result.markerCount - result.nonExclusionMarkerCount <= threshold.maxExclusions;
}
