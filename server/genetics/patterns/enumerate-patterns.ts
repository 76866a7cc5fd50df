import { canonicalPattern, PatternError, type PatternOptions } from './canonical-pattern';
import { PATTERN_LETTERS } from './pattern-letters';

/**
 * Every canonical allele expression `roleCount` roles can produce (GENETICS.md "Analyses are data": an
 * analysis's formulae must cover them all), sorted. Found by brute force: each role takes every genotype
 * over as many alleles as the roles can hold (2 per diploid role, 1 per haploid role), and each
 * combination is canonicalised. Complete because any genotypes can be renamed onto that allele set
 * without changing their pattern.
 */
export function enumeratePatterns(roleCount: number, options: PatternOptions = {}): string[] {
  const ploidy = options.ploidy ?? 'diploid';
  const perRole = ploidy === 'haploid' ? 1 : 2;
  if (!Number.isInteger(roleCount) || roleCount < 1) throw new PatternError(`Role count must be a whole number ≥ 1, not ${roleCount}`);
  const alleleCount = roleCount * perRole;
  if (alleleCount > PATTERN_LETTERS.length) {
    throw new PatternError(
      `${roleCount} ${ploidy} roles can carry ${alleleCount} distinct alleles: an allele expression has at most ${PATTERN_LETTERS.length}`,
    );
  }

  const alleles = Array.from({ length: alleleCount }, (_, i) => String(i + 1));
  const genotypes = ploidy === 'haploid' ? alleles.map((a) => [a]) : diploidGenotypes(alleles);
  const patterns = new Set<string>();
  for (const combination of product(genotypes, roleCount)) {
    patterns.add(canonicalPattern(combination, options).pattern);
  }
  return [...patterns].sort();
}

/** Homozygotes (one allele) and heterozygotes over the alleles. */
function diploidGenotypes(alleles: readonly string[]): string[][] {
  return alleles.flatMap((a, i) => alleles.slice(i).map((b) => (a === b ? [a] : [a, b])));
}

function* product<T>(choices: readonly T[], length: number, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === length) {
    yield prefix;
    return;
  }
  for (const choice of choices) yield* product(choices, length, [...prefix, choice]);
}
