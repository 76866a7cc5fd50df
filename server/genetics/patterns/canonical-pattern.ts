import { compareAlleles } from '../../../core/alleles';
import type { Genotype } from '../types';
import { PATTERN_LETTERS, type PatternLetter } from './pattern-letters';

/** Autosomal genotypes carry one (homozygote) or two alleles; a Y-STR haplotype allele is one letter. */
export type Ploidy = 'diploid' | 'haploid';

/** A canonical allele expression and the allele each of its letters stands for. */
export interface CanonicalPattern {
  /** E.g. `PQ-PR`: one genotype per role, in role order, joined by `-`. */
  pattern: string;
  /** Letter → allele designation (P first); only the letters the pattern uses. */
  alleles: ReadonlyMap<PatternLetter, string>;
}

export interface PatternOptions {
  /** 'diploid' (default): a homozygote is `PP`; 'haploid' (single-copy Y-STR): one letter per role. */
  ploidy?: Ploidy;
}

/** Raised for a genotype the pattern language cannot express (empty, a mixture, more than six alleles). */
export class PatternError extends Error {
  override name = 'PatternError';
}

/**
 * The canonical allele expression of the roles' genotypes (GENETICS.md "Analyses are data"): letters in
 * order of first appearance, each genotype's alleles ordered to make the string smallest, so a shared
 * allele is P (child 12/14, father 14/15 → `PQ-PR`, P = 14). Among equal strings the letter mapping
 * whose alleles come first in compareAlleles order wins, so the result ignores the input order.
 */
export function canonicalPattern(genotypes: readonly Genotype[], options: PatternOptions = {}): CanonicalPattern {
  const ploidy = options.ploidy ?? 'diploid';
  if (genotypes.length === 0) throw new PatternError('An allele expression needs at least one role');
  const distinct = genotypes.map((genotype, role) => distinctAlleles(genotype, role, ploidy));
  const alleleCount = new Set(distinct.flat()).size;
  if (alleleCount > PATTERN_LETTERS.length) {
    throw new PatternError(`${alleleCount} distinct alleles: an allele expression has at most ${PATTERN_LETTERS.length} (P to U)`);
  }

  let best: { pattern: string; order: string[] } | null = null;
  for (const ordered of orderings(distinct)) {
    const labelled = label(ordered, ploidy);
    if (best === null || isBetter(labelled, best)) best = labelled;
  }
  // orderings() yields at least one candidate, so best is set.
  const { pattern, order } = best!;
  return { pattern, alleles: new Map(order.map((allele, i) => [PATTERN_LETTERS[i]!, allele])) };
}

function distinctAlleles(genotype: Genotype, role: number, ploidy: Ploidy): string[] {
  const alleles = [...new Set(genotype)];
  const allowed = ploidy === 'haploid' ? 1 : 2;
  if (alleles.length === 0) throw new PatternError(`Role ${role + 1} has no allele`);
  if (alleles.length > allowed) {
    throw new PatternError(
      `Role ${role + 1} has ${alleles.length} alleles (${alleles.join(', ')}): a ${ploidy} pattern allows at most ${allowed}`,
    );
  }
  return alleles.sort(compareAlleles);
}

/** Every way of ordering each heterozygote's two alleles: 2^(heterozygotes) candidates, a handful per role set. */
function* orderings(genotypes: readonly string[][]): Generator<string[][]> {
  const heterozygotes = genotypes.flatMap((g, i) => (g.length === 2 ? [i] : []));
  for (let mask = 0; mask < 2 ** heterozygotes.length; mask++) {
    yield genotypes.map((g, i) => {
      const bit = heterozygotes.indexOf(i);
      return bit >= 0 && mask & (2 ** bit) ? [g[1]!, g[0]!] : g;
    });
  }
}

/** Letters in order of first appearance; a diploid homozygote is written `PP`. */
function label(genotypes: readonly string[][], ploidy: Ploidy): { pattern: string; order: string[] } {
  const order: string[] = [];
  const letterOf = (allele: string): string => {
    if (!order.includes(allele)) order.push(allele);
    return PATTERN_LETTERS[order.indexOf(allele)]!;
  };
  const parts = genotypes.map((g) => {
    const letters = g.map(letterOf).join('');
    return ploidy === 'diploid' && letters.length === 1 ? letters + letters : letters;
  });
  return { pattern: parts.join('-'), order };
}

function isBetter(candidate: { pattern: string; order: string[] }, best: { pattern: string; order: string[] }): boolean {
  if (candidate.pattern !== best.pattern) return candidate.pattern < best.pattern;
  for (let i = 0; i < candidate.order.length; i++) {
    const d = compareAlleles(candidate.order[i]!, best.order[i]!);
    if (d !== 0) return d < 0;
  }
  return false;
}
