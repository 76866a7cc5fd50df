import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  kinshipLocusLikelihoodRatio,
  matchProbability,
  RELATIONSHIP_KAPPA,
  type FrequencyOf,
  type Relationship,
} from '../../../../../server/genetics/statistics';

// Properties of GENETICS.md that hold for every frequency table: Evett & Weir (1998) ch. 7 for kinship,
// NRC II (1996) rec. 4.10 for identity. Relative tolerance 1e-9 where two computations are compared.

const ALLELES = ['8', '9', '10', '11', '12'];

/** A locus: five allele frequencies summing to 1, each at least 0.01. */
const locus = fc
  .array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: ALLELES.length, maxLength: ALLELES.length })
  .map((ws) => {
    const total = ws.reduce((a, b) => a + b, 0);
    const table = new Map(ALLELES.map((a, i) => [a, ws[i]! / total]));
    return (allele: string) => table.get(allele)!;
  });

/** A single-source genotype in canonical form: one allele (homozygote) or two distinct, in order. */
const genotype = fc.uniqueArray(fc.constantFrom(...ALLELES), { minLength: 1, maxLength: 2 }).map((g) => g.sort((a, b) => Number(a) - Number(b)));

const relationships = Object.keys(RELATIONSHIP_KAPPA) as Relationship[];

function closeRelative(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function identityLR(g: string[], freq: FrequencyOf, theta: number): number {
  return 1 / matchProbability(g.map(freq) as [number] | [number, number], theta);
}

describe('properties of the statistics (fast-check)', () => {
  it('kinship LR is symmetric: LR(G1, G2) = LR(G2, G1) for every named relationship', () => {
    fc.assert(
      fc.property(locus, genotype, genotype, fc.constantFrom(...relationships), (freq, g1, g2, rel) => {
        const kappa = RELATIONSHIP_KAPPA[rel];
        return closeRelative(kinshipLocusLikelihoodRatio(g1, g2, freq, kappa), kinshipLocusLikelihoodRatio(g2, g1, freq, kappa));
      }),
    );
  });

  it('for identical genotypes the identity LR (θ = 0) is at least every kinship LR', () => {
    fc.assert(
      fc.property(locus, genotype, fc.constantFrom(...relationships), (freq, g, rel) => {
        return identityLR(g, freq, 0) >= kinshipLocusLikelihoodRatio(g, g, freq, RELATIONSHIP_KAPPA[rel]) * (1 - 1e-12);
      }),
    );
  });

  it('θ = 0 reduces the match probability to the product rule: p² and 2pq', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 1, noNaN: true }), fc.double({ min: 1e-4, max: 1, noNaN: true }), (p, q) => {
        return closeRelative(matchProbability([p], 0), p * p) && closeRelative(matchProbability([p, q], 0), 2 * p * q);
      }),
    );
  });

  it('θ > 0 never raises the identity LR above the product rule for a homozygote', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 1, noNaN: true }), fc.double({ min: 1e-4, max: 0.25, noNaN: true }), (p, theta) => {
        return matchProbability([p], theta) >= matchProbability([p], 0) * (1 - 1e-12);
      }),
    );
  });
});
