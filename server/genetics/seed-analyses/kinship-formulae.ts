import { enumeratePatterns } from '../patterns';
import { genotypesOf, type SeedFormula } from './types';

/**
 * Pairwise kinship LR per locus, LR = κ0 + κ1·X1 + κ2·X2 with θ = 0 (GENETICS.md "Pairwise kinship";
 * Evett & Weir 1998 ch. 7): X1 by pattern (1/p, 1/(2p), (p+q)/(4pq), 1/(4p), 0), X2 = 1/P(G2) when the
 * genotypes are equal. `unrelatedAtLocus` replaces κ0 where no allele is shared (parent–child: μ/A).
 */
export function kinshipFormulae(unrelatedAtLocus = 'kappa0'): SeedFormula[] {
  return enumeratePatterns(2).map((pattern) => {
    const [a, b] = genotypesOf(pattern) as [string[], string[]];
    const shared = a.filter((x) => b.includes(x));
    const identical = a.length === b.length && shared.length === a.length;
    let expression: string;
    if (shared.length === 0) expression = unrelatedAtLocus;
    else if (identical && a.length === 1) expression = 'kappa0 + kappa1/p + kappa2/p^2';
    else if (identical) expression = 'kappa0 + kappa1*(p + q)/(4*p*q) + kappa2/(2*p*q)';
    else if (a.length === 1 || b.length === 1) expression = 'kappa0 + kappa1/(2*p)';
    else expression = 'kappa0 + kappa1/(4*p)';
    return { pattern, expression, isExclusion: null };
  });
}

/** The κ constants of a relationship, as an analysis's constants table holds them. */
export function kappaConstants(k0: number, k1: number, k2: number) {
  return [
    { name: 'kappa0', notation: '\\kappa_0', value: k0 },
    { name: 'kappa1', notation: '\\kappa_1', value: k1 },
    { name: 'kappa2', notation: '\\kappa_2', value: k2 },
  ];
}
