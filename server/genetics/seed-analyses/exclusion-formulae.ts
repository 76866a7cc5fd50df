import { enumeratePatterns } from '../patterns';
import { genotypesOf, type SeedFormula } from './types';

/** Parent–child exclusion per marker: no shared allele is an Exclusion (GENETICS.md "Exclusion analyses"). */
export function parentChildExclusionFormulae(): SeedFormula[] {
  return enumeratePatterns(2).map((pattern) => {
    const [a, b] = genotypesOf(pattern) as [string[], string[]];
    return { pattern, expression: null, isExclusion: !a.some((x) => b.includes(x)) };
  });
}

/** Y-STR lineage exclusion per marker: a differing allele is an Exclusion (GENETICS.md; SWGDAM 2014). */
export function lineageExclusionFormulae(): SeedFormula[] {
  return enumeratePatterns(2, { ploidy: 'haploid' }).map((pattern) => ({ pattern, expression: null, isExclusion: pattern !== 'P-P' }));
}

/** Y-STR haplotype match per marker: 1 where the alleles agree, 0 where they differ (the haplotype count does the rest). */
export function haplotypeMatchFormulae(): SeedFormula[] {
  return enumeratePatterns(2, { ploidy: 'haploid' }).map((pattern) => ({ pattern, expression: pattern === 'P-P' ? '1' : '0', isExclusion: null }));
}
