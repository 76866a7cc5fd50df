import { describe, expect, it } from 'vitest';
import {
  kinshipLikelihoodRatio,
  kinshipLocusLikelihoodRatio,
  kinshipX1,
  kinshipX2,
  RELATIONSHIP_KAPPA,
} from '../../../../../server/genetics/statistics';
import { FOUR_ALLELES, fourAlleleFrequency, population, profile } from './engine-fixtures';

// Source: Evett & Weir (1998) ch. 7, Fung & Hu (2008); the X1 table and checks of GENETICS.md "Pairwise kinship".
// Frequencies p = 0.1 (P = 10), q = 0.2 (Q = 11), r = 0.3 (R = 12), s = 0.05 (S = 13). Tolerance 1e-12 throughout.
const freq = fourAlleleFrequency;
const [p, q] = [0.1, 0.2];

describe('kinship X1 and X2 (GENETICS.md table; Evett & Weir 1998)', () => {
  it.each([
    ['PP–PP', ['10'], ['10'], 1 / p],
    ['PP–PQ', ['10'], ['10', '11'], 1 / (2 * p)],
    ['PQ–PP', ['10', '11'], ['10'], 1 / (2 * p)],
    ['PQ–PQ', ['10', '11'], ['10', '11'], (p + q) / (4 * p * q)],
    ['PQ–PR', ['10', '11'], ['10', '12'], 1 / (4 * p)],
    ['PQ–RP (P shared second)', ['10', '11'], ['12', '10'].sort(), 1 / (4 * p)],
    ['PP–QQ (none shared)', ['10'], ['11'], 0],
    ['PQ–RS (none shared)', ['10', '11'], ['12', '13'], 0],
  ])('%s: X1 = %s', (_label, g1, g2, expected) => {
    expect(kinshipX1(g1, g2, freq)).toBeCloseTo(expected, 12);
  });

  it('X2 = 1/P(G2) for identical genotypes: 1/p² = 100, 1/(2pq) = 25; 0 otherwise', () => {
    expect(kinshipX2(['10'], ['10'], freq)).toBeCloseTo(100, 10);
    expect(kinshipX2(['10', '11'], ['10', '11'], freq)).toBeCloseTo(25, 10);
    expect(kinshipX2(['10', '11'], ['10', '12'], freq)).toBe(0);
  });
});

describe('kinship LR = κ0 + κ1·X1 + κ2·X2 (Evett & Weir 1998 ch. 7)', () => {
  it('GENETICS.md check: full siblings PQ–PQ = (1 + p + q + 2pq)/(8pq) = 1.34/0.16 = 8.375', () => {
    const lr = kinshipLocusLikelihoodRatio(['10', '11'], ['10', '11'], freq, RELATIONSHIP_KAPPA['full siblings']);
    expect(lr).toBeCloseTo((1 + p + q + 2 * p * q) / (8 * p * q), 12);
    expect(lr).toBeCloseTo(8.375, 12);
  });

  it('full siblings PP–PP = (1 + p)²/(4p²) = 1.21/0.04 = 30.25 (Fung & Hu 2008)', () => {
    expect(kinshipLocusLikelihoodRatio(['10'], ['10'], freq, RELATIONSHIP_KAPPA['full siblings'])).toBeCloseTo(30.25, 12);
  });

  it('parent–child is X1: PQ–PR = 1/(4p) = 2.5; no shared allele = 0', () => {
    const kappa = RELATIONSHIP_KAPPA['parent-child'];
    expect(kinshipLocusLikelihoodRatio(['10', '11'], ['10', '12'], freq, kappa)).toBeCloseTo(2.5, 12);
    expect(kinshipLocusLikelihoodRatio(['10', '11'], ['12', '13'], freq, kappa)).toBe(0);
  });

  it('half siblings, grandparent and avuncular share (½, ½, 0): PP–PQ = ½ + ½·1/(2p) = 3', () => {
    for (const rel of ['half siblings', 'grandparent-grandchild', 'avuncular'] as const) {
      expect(RELATIONSHIP_KAPPA[rel]).toEqual({ k0: 0.5, k1: 0.5, k2: 0 });
      expect(kinshipLocusLikelihoodRatio(['10'], ['10', '11'], freq, RELATIONSHIP_KAPPA[rel])).toBeCloseTo(3, 12);
    }
  });

  it('first cousins (¾, ¼, 0): PQ–PR = ¾ + ¼·1/(4p) = 1.375; unrelated-looking pair keeps ¾', () => {
    const kappa = RELATIONSHIP_KAPPA['first cousins'];
    expect(kinshipLocusLikelihoodRatio(['10', '11'], ['10', '12'], freq, kappa)).toBeCloseTo(1.375, 12);
    expect(kinshipLocusLikelihoodRatio(['10', '11'], ['12', '13'], freq, kappa)).toBeCloseTo(0.75, 12);
  });

  it('full siblings with no shared allele keep κ0 = ¼ (siblings may share nothing at a locus)', () => {
    expect(kinshipLocusLikelihoodRatio(['10', '11'], ['12', '13'], freq, RELATIONSHIP_KAPPA['full siblings'])).toBe(0.25);
  });

  it('combines loci and skips what cannot be compared: 8.375 · 30.25 = 253.34375', () => {
    const pop = population({ A: FOUR_ALLELES, B: FOUR_ALLELES });
    const lr = kinshipLikelihoodRatio(
      profile({ A: ['10', '11'], B: ['10'], C: ['9'] }),
      profile({ A: ['11', '10'], B: ['10'], D: ['9'] }),
      pop,
      RELATIONSHIP_KAPPA['full siblings'],
    );
    expect(lr.product).toBeCloseTo(253.34375, 9);
    expect(lr.skipped.map((s) => s.marker)).toEqual(['C', 'D']);
  });

  it('a mixture (3 alleles) is skipped, not evaluated with a single-source formula', () => {
    const pop = population({ A: FOUR_ALLELES });
    const lr = kinshipLikelihoodRatio(profile({ A: ['10', '11', '12'] }), profile({ A: ['10'] }), pop, RELATIONSHIP_KAPPA['full siblings']);
    expect(lr.skipped).toEqual([{ marker: 'A', reason: 'mixture' }]);
    expect(lr.product).toBe(1);
  });
});
