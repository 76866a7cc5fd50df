import { enumeratePatterns } from '../patterns';
import { genotypesOf, type SeedFormula } from './types';

/**
 * Identity (same source) LR per locus: 1 / match probability with coancestry θ (NRC II 1996 rec. 4.10,
 * Balding & Nichols 1994); genotypes that differ cannot share a source (LR 0).
 */
export function identityFormulae(): SeedFormula[] {
  return enumeratePatterns(2).map((pattern) => {
    const [a, b] = genotypesOf(pattern) as [string[], string[]];
    const same = a.length === b.length && a.every((x) => b.includes(x));
    if (!same) return { pattern, expression: '0', isExclusion: null };
    const expression =
      a.length === 1
        ? '((1 + theta)*(1 + 2*theta)) / ((2*theta + (1 - theta)*p)*(3*theta + (1 - theta)*p))'
        : '((1 + theta)*(1 + 2*theta)) / (2*(theta + (1 - theta)*p)*(theta + (1 - theta)*q))';
    return { pattern, expression, isExclusion: null };
  });
}
