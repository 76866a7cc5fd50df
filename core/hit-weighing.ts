import type { HitFigures } from './schemas/hit-figures';
import { formatHitProbability } from './probability-display';

/** Why a hit carries no number (issue 30): the rule found it, but no population of the organization weighed it. */
export const NOT_WEIGHED_REASON = 'not weighed: no population of this organization is used by the rule';

/** The label of a history row that records a hit weighed again (a pending → pending row; no decision makes one). */
export const WEIGHED_AGAIN_LABEL = 'Weighed again with the current populations';

/** What a hit needs for the not-weighed text: its kind, its stored LR and its figures. */
export interface WeighedHit {
  matchKind: string;
  combinedIndex: number | null;
  markerCount: number;
  nonExclusionMarkerCount: number | null;
  figures: HitFigures | null;
}

/**
 * A hit no population weighed (issue 30): found by a rule (it has figures) that is not an exclusion
 * count, with no population's result. Such a hit has no LR, no match probability and no chance figure.
 */
export const isNotWeighed = (hit: WeighedHit): boolean =>
  hit.matchKind !== 'exclusion' && hit.combinedIndex === null && hit.figures !== null && !hit.figures.populations.some((p) => p.populationId !== null);

/** "16 of 16 markers match; not weighed: …" for a hit no population weighed, else null (the stringency counts, GENETICS.md "Database search"). */
export function notWeighedText(hit: WeighedHit): string | null {
  if (!isNotWeighed(hit)) return null;
  const s = hit.figures!.stringency;
  const compared = s?.comparedMarkers ?? hit.markerCount;
  const matching = compared - (s?.mismatches ?? 0);
  return `${matching} of ${compared} markers match; ${NOT_WEIGHED_REASON}`;
}

/** The probability text of a hit as lists, the dashboard and reports show it: spec 4's, or why it has none; a mixture hit's number is named LR. */
export const hitProbabilityText = (hit: WeighedHit): string =>
  notWeighedText(hit) ??
  formatHitProbability({ combinedIndex: hit.combinedIndex, markerCount: hit.markerCount, nonExclusionMarkerCount: hit.nonExclusionMarkerCount ?? 0, indexName: hit.matchKind === 'mixture' ? 'LR' : 'CI' });
