/** A per-marker LR or combined index as the calculator, its PDF and CSV show it: two decimals in exponential form (spec 4). */
export const formatIndex = (value: number): string => value.toExponential(2);

/** A genotype as read in a table: its alleles joined by commas; a marker the profile lacks is a dash. */
export const genotypeText = (genotype: readonly string[] | null): string => (genotype && genotype.length > 0 ? genotype.join(', ') : '–');

/** A probability or frequency as read (0.05, 0.123, 0.000761): three significant digits; null below 10⁻⁴, which reads better in scientific notation. */
export const decimalText = (value: number): string | null => (value === 0 || Math.abs(value) >= 1e-4 ? String(Number(value.toPrecision(3))) : null);

/** A log10 LR with two decimals; a dash when the LR is 0 (no logarithm). */
export const log10Text = (value: number | null): string => (value === null || !Number.isFinite(value) ? '–' : value.toFixed(2));
