// Spec section 4 "Hit probability display". The text, chosen to read at a glance in a hit list:
//   with a combined index:  "99.99% (CI 1.23e+21)"  — CI/(CI+1) as a percentage, two decimals, capped at 99.99,
//                           then the combined index in exponential form with two decimals;
//   without one:            "17/17"                 — non-exclusion markers / markers compared.
//   excluded:               "Excluded"              — more markers inconsistent with the relationship than allowed
//                                                     (GENETICS.md "Parentage with inconsistencies").
// An index too large for a double (Infinity) reads "99.99% (CI > 1.80e+308)".
// A mixture's number is a likelihood ratio, not a paternity combined index: it reads "99.99% (LR 6.20e+8)".

/** The figures a hit carries: a combined index for computational analyses, marker counts for exclusion ones. */
export interface HitFigures {
  combinedIndex?: number | null;
  nonExclusionMarkerCount: number;
  markerCount: number;
  /** More markers inconsistent with the relationship than the analysis allows: the text is "Excluded". */
  excluded?: boolean;
  /** What the index is called after the percentage: CI (combined index, the default) or LR (a mixture's likelihood ratio). */
  indexName?: IndexName;
}

/** The name of a hit's number: a combined index, or a mixture's likelihood ratio. */
export type IndexName = 'CI' | 'LR';

/** The probability text of an excluded parentage result (GENETICS.md "Parentage with inconsistencies"). */
export const EXCLUDED_TEXT = 'Excluded';

/** The highest percentage ever shown: no statistic makes a match certain (spec 4). */
export const MAX_DISPLAY_PERCENT = 99.99;

/** CI/(CI + 1) as a percentage, capped at 99.99 before rounding so the text never exceeds it (spec 4). */
export function hitProbabilityPercent(combinedIndex: number): number {
  if (!(combinedIndex >= 0)) throw new RangeError(`a combined index is a number ≥ 0 (got ${combinedIndex})`);
  if (combinedIndex === Infinity) return MAX_DISPLAY_PERCENT;
  return Math.min(MAX_DISPLAY_PERCENT, (100 * combinedIndex) / (combinedIndex + 1));
}

/** The hit's probability text (spec 4 "Hit probability display"), e.g. `99.99% (CI 1.23e+21)`, `99.99% (LR 6.20e+8)`, `17/17` or `Excluded`. */
export function formatHitProbability(hit: HitFigures): string {
  if (hit.excluded) return EXCLUDED_TEXT;
  const ci = hit.combinedIndex;
  if (ci === undefined || ci === null) return `${hit.nonExclusionMarkerCount}/${hit.markerCount}`;
  const index = ci === Infinity ? `> ${Number.MAX_VALUE.toExponential(2)}` : ci.toExponential(2);
  return `${hitProbabilityPercent(ci).toFixed(2)}% (${hit.indexName ?? 'CI'} ${index})`;
}
