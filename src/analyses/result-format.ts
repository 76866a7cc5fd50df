/** A per-marker LR or combined index as the calculator, its PDF and CSV show it: two decimals in exponential form (spec 4). */
export const formatIndex = (value: number): string => value.toExponential(2);

/** A genotype as read in a table: its alleles joined by commas; a marker the profile lacks is a dash. */
export const genotypeText = (genotype: readonly string[] | null): string => (genotype && genotype.length > 0 ? genotype.join(', ') : '–');
