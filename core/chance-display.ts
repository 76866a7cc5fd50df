// How the expected number of chance hits and p-values read (GENETICS.md "Expected chance hits"), the same on
// screens, PDFs and CSV files: "in 1,000,000 profiles, 0.0003 chance hits expected at this threshold".

/** The label every number computed with a synthetic (demo) population carries, wherever it is shown. */
export const SYNTHETIC_LABEL = 'Synthetic data — not for casework';

/** A small probability or count as a reader takes it in: plain down to 0.0001, exponential below, never "0" for a positive value. */
export function formatSmall(value: number): string {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return String(value);
  if (value >= 0.0001) return Number(value.toPrecision(2)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  return value.toExponential(1);
}

/** The expected chance hits of a search, e.g. "in 1,000,000 profiles, 0.0003 chance hits expected at this threshold". */
export function formatExpectedChanceHits(expected: number, searchedProfiles: number, what = 'chance hits', format: (value: number) => string = formatSmall): string {
  return `in ${searchedProfiles.toLocaleString('en-US')} ${searchedProfiles === 1 ? 'profile' : 'profiles'}, ${format(expected)} ${what} expected at this threshold`;
}

/** A p-value, P(LR ≥ this LR | unrelated), the upper end of its bracket: "p ≤ 1.2e-20". */
export function formatPValue(upper: number, format: (value: number) => string = formatSmall): string {
  return `p ≤ ${format(upper)}`;
}

/**
 * Where an exact probability lies (the bracket of a log10 grid): "between 1.1e-20 and 1.2e-20". A lower
 * end of 0 (rounding down lost the observed value itself, as for an exact identity match) says nothing,
 * so it reads "at most 1.2e-20".
 */
export function formatBracket(bracket: { lower: number; upper: number }, format: (value: number) => string = formatSmall): string {
  if (bracket.lower === 0) return `at most ${format(bracket.upper)}`;
  return `between ${format(bracket.lower)} and ${format(bracket.upper)}`;
}
