import type { EngineProfile, PopulationFrequencies } from '../types';
import { alignProfiles } from './aligned-markers';
import { frequencyLookup, type FrequencyOf } from './allele-frequency';
import { combineIndices, type CombinedIndex } from './combined-index';

/** IBD coefficients: the probabilities that two relatives share 0, 1 or 2 alleles identical by descent. */
export interface Kappa {
  k0: number;
  k1: number;
  k2: number;
}

/** The named pairwise relationships of GENETICS.md. */
export type Relationship = 'parent-child' | 'full siblings' | 'half siblings' | 'grandparent-grandchild' | 'avuncular' | 'first cousins';

/** (κ0, κ1, κ2) of each named relationship (Evett & Weir 1998, table 7.3; Fung & Hu 2008). */
export const RELATIONSHIP_KAPPA: Readonly<Record<Relationship, Kappa>> = {
  'parent-child': { k0: 0, k1: 1, k2: 0 },
  'full siblings': { k0: 0.25, k1: 0.5, k2: 0.25 },
  'half siblings': { k0: 0.5, k1: 0.5, k2: 0 },
  'grandparent-grandchild': { k0: 0.5, k1: 0.5, k2: 0 },
  avuncular: { k0: 0.5, k1: 0.5, k2: 0 },
  'first cousins': { k0: 0.75, k1: 0.25, k2: 0 },
};

/** Genotype probability under Hardy–Weinberg, θ = 0 (NRC II 1996 rec. 4.1): p² or 2pq. */
function genotypeProbability(alleles: readonly string[], freq: FrequencyOf): number {
  const [a, b] = alleles;
  return b === undefined ? freq(a!) ** 2 : 2 * freq(a!) * freq(b);
}

/** P(G2 | one of G2's alleles is a, the other drawn from the population). */
function givenOneAllele(a: string, g2: readonly string[], freq: FrequencyOf): number {
  const [x, y] = g2;
  if (y === undefined) return x === a ? freq(a) : 0;
  if (x === a) return freq(y);
  return y === a ? freq(x!) : 0;
}

/**
 * X1 = P(G2 | G1, one allele IBD) / P(G2) (Evett & Weir 1998 ch. 7): each of G1's two allele copies
 * is the shared one with probability ½. Gives the GENETICS.md table: PP–PP 1/p, PP–PQ 1/(2p),
 * PQ–PQ (p+q)/(4pq), PQ–PR 1/(4p), no shared allele 0.
 */
export function kinshipX1(g1: readonly string[], g2: readonly string[], freq: FrequencyOf): number {
  const copies = g1.length === 1 ? [g1[0]!, g1[0]!] : g1;
  const conditional = copies.reduce((sum, a) => sum + givenOneAllele(a, g2, freq) / 2, 0);
  return conditional / genotypeProbability(g2, freq);
}

/** X2 = 1/P(G2) when the genotypes are identical, else 0 (Evett & Weir 1998 ch. 7). */
export function kinshipX2(g1: readonly string[], g2: readonly string[], freq: FrequencyOf): number {
  return g1.join('/') === g2.join('/') ? 1 / genotypeProbability(g2, freq) : 0;
}

/**
 * One locus's kinship LR for distinct-allele genotypes, θ = 0: κ0 + κ1·X1 + κ2·X2 (Evett & Weir 1998
 * ch. 7; Fung & Hu 2008). Full siblings PQ–PQ gives (1 + p + q + 2pq)/(8pq).
 */
export function kinshipLocusLikelihoodRatio(g1: readonly string[], g2: readonly string[], freq: FrequencyOf, kappa: Kappa): number {
  return kappa.k0 + kappa.k1 * kinshipX1(g1, g2, freq) + kappa.k2 * kinshipX2(g1, g2, freq);
}

/**
 * Pairwise kinship LR of two profiles across their shared markers (Evett & Weir 1998 ch. 7), combined
 * in log space; markers missing from either profile, with lab markings, mixtures or not in the population are skipped.
 */
export function kinshipLikelihoodRatio(
  person1: EngineProfile,
  person2: EngineProfile,
  population: PopulationFrequencies,
  kappa: Kappa,
): CombinedIndex {
  const { compared, skipped } = alignProfiles([person1, person2], { maxAlleles: 2, population });
  const values = compared.map(({ marker, genotypes: [g1, g2] }) => ({
    marker,
    value: kinshipLocusLikelihoodRatio(g1!, g2!, frequencyLookup(population, marker), kappa),
  }));
  return combineIndices(values, skipped);
}
