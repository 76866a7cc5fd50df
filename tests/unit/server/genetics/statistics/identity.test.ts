import { describe, expect, it } from 'vitest';
import { identityLikelihoodRatio, matchProbability } from '../../../../../server/genetics/statistics';
import { fbi2015, population, profile } from './engine-fixtures';

// Source: NRC II (1996) rec. 4.10 / Balding & Nichols (1994), as written in GENETICS.md "Identity".
describe('matchProbability with θ (NRC II 1996 rec. 4.10)', () => {
  // Hand-computed, tolerance 1e-12: p = 0.1, θ = 0.01 → [0.02 + 0.099][0.03 + 0.099] / (1.01 · 1.02) = 0.119 · 0.129 / 1.0302.
  it('homozygote p = 0.1, θ = 0.01: 0.015351/1.0302 = 0.0149010…', () => {
    expect(matchProbability([0.1], 0.01)).toBeCloseTo((0.119 * 0.129) / 1.0302, 12);
    expect(matchProbability([0.1], 0.01)).toBeCloseTo(0.014901, 6);
  });

  // Hand-computed, tolerance 1e-12: 2 · (0.01 + 0.099)(0.01 + 0.198) / 1.0302 = 2 · 0.109 · 0.208 / 1.0302.
  it('heterozygote p = 0.1, q = 0.2, θ = 0.01: 0.045344/1.0302 = 0.0440147…', () => {
    expect(matchProbability([0.1, 0.2], 0.01)).toBeCloseTo((2 * 0.109 * 0.208) / 1.0302, 12);
    expect(matchProbability([0.1, 0.2], 0.01)).toBeCloseTo(0.0440147, 6);
  });

  it('θ = 0 is the product rule: p² = 0.01 and 2pq = 0.04', () => {
    expect(matchProbability([0.1], 0)).toBeCloseTo(0.01, 15);
    expect(matchProbability([0.1, 0.2], 0)).toBeCloseTo(0.04, 15);
  });

  it('θ raises the match probability (makes the LR more conservative)', () => {
    expect(matchProbability([0.1, 0.2], 0.03)).toBeGreaterThan(matchProbability([0.1, 0.2], 0.01));
  });
});

describe('identityLikelihoodRatio across loci (NRC II 1996 rec. 4.10)', () => {
  const pop = population({ A: { '10': 0.1, '11': 0.2 }, B: { '8': 0.5 }, C: { '7': 0.25 } });

  it('multiplies 1/MP across loci and reports log10 and the product: 1/(2·0.1·0.2) · 1/0.25 = 100', () => {
    const both = profile({ A: ['10', '11'], B: ['8'] });
    const lr = identityLikelihoodRatio(both, both, pop, 0);
    expect(lr.loci.map((l) => [l.marker, l.value])).toEqual([
      ['A', expect.closeTo(25, 12)],
      ['B', expect.closeTo(4, 12)],
    ]);
    expect(lr.log10).toBeCloseTo(2, 12);
    expect(lr.product).toBeCloseTo(100, 9);
  });

  it('skips and counts markers missing from either profile, holding lab markings, or without frequencies', () => {
    const evidence = profile({ A: ['10', '11'], B: ['OL', '8'], C: ['7'], Amelogenin: ['X', 'Y'] });
    const reference = profile({ A: ['10', '11'], B: ['8'], Amelogenin: ['X', 'Y'], D: ['12'] });
    const lr = identityLikelihoodRatio(evidence, reference, pop, 0);
    expect(lr.loci.map((l) => l.marker)).toEqual(['A']);
    expect(lr.skipped).toEqual([
      { marker: 'B', reason: 'lab marking' },
      { marker: 'C', reason: 'missing' },
      { marker: 'Amelogenin', reason: 'no frequencies' },
      { marker: 'D', reason: 'missing' },
    ]);
  });

  it('a range marking such as <8 is not comparable either', () => {
    const lr = identityLikelihoodRatio(profile({ A: ['<8', '10'] }), profile({ A: ['<8', '10'] }), pop, 0);
    expect(lr.skipped).toEqual([{ marker: 'A', reason: 'lab marking' }]);
  });

  it('a locus where the genotypes differ gives LR 0 (the profiles cannot share a source)', () => {
    const lr = identityLikelihoodRatio(profile({ A: ['10', '11'], B: ['8'] }), profile({ A: ['10'], B: ['8'] }), pop, 0);
    expect(lr.loci[0]!.value).toBe(0);
    expect(lr.product).toBe(0);
    expect(lr.log10).toBe(-Infinity);
  });

  it('reads a homozygote written twice (12,12) as one allele', () => {
    const lr = identityLikelihoodRatio(profile({ B: ['8', '8'] }), profile({ B: ['8'] }), pop, 0);
    expect(lr.product).toBeCloseTo(4, 12);
  });
});

describe('identity LR on the FBI 2015 Caucasian frequencies (Moretti et al. 2016; NRC II rec. 4.10)', () => {
  const caucasian = fbi2015('Caucasian');
  // A 20-locus CODIS core genotype with, per locus, the allele counts the published frequencies come from
  // (frequency × alleles typed): the hand calculation below uses these counts, not the CSV's doubles.
  const LOCI: [marker: string, a: string, b: string, countA: number, countB: number, allelesTyped: number][] = [
    ['D3S1358', '15', '16', 100, 94, 404],
    ['vWA', '17', '17', 108, 108, 404],
    ['D16S539', '11', '12', 110, 138, 404],
    ['CSF1PO', '10', '12', 102, 132, 403],
    ['TPOX', '8', '8', 221, 221, 404],
    ['D8S1179', '13', '14', 135, 83, 403],
    ['D21S11', '29', '30', 73, 94, 403],
    ['D18S51', '14', '16', 71, 42, 404],
    ['D2S441', '10', '14', 73, 106, 404],
    ['D19S433', '13', '14', 113, 141, 403],
    ['TH01', '6', '9.3', 91, 123, 404],
    ['FGA', '21', '22', 71, 76, 402],
    ['D22S1045', '15', '16', 147, 128, 403],
    ['D5S818', '11', '12', 165, 142, 404],
    ['D13S317', '11', '12', 126, 125, 404],
    ['D7S820', '10', '11', 116, 82, 401],
    ['D10S1248', '13', '14', 136, 111, 404],
    ['D1S1656', '16', '17.3', 45, 61, 402],
    ['D12S391', '18', '19', 71, 43, 404],
    ['D2S1338', '17', '20', 78, 60, 404],
  ];
  const person = profile(Object.fromEntries([...LOCI.map(([m, a, b]) => [m, a === b ? [a] : [a, b]]), ['Amelogenin', ['X', 'Y']]]));

  it('θ = 0: equals the hand product of (2N)²/(2·cA·cB) or (2N)²/cA², 8.853e18 (log10 within 1e-10)', () => {
    const hand = LOCI.reduce((log, [, a, b, ca, cb, n]) => log + Math.log10(a === b ? (n * n) / (ca * ca) : (n * n) / (2 * ca * cb)), 0);
    const lr = identityLikelihoodRatio(person, person, caucasian, 0);
    expect(lr.loci).toHaveLength(20);
    expect(lr.skipped).toEqual([{ marker: 'Amelogenin', reason: 'no frequencies' }]);
    expect(lr.log10).toBeCloseTo(hand, 10);
    expect(lr.product / 8.85333e18).toBeCloseTo(1, 5);
  });

  it('θ = 0.01: lower, 3.629e18 (Balding–Nichols per locus; computed independently to 6 significant figures)', () => {
    const lr = identityLikelihoodRatio(person, person, caucasian, 0.01);
    expect(lr.product / 3.629361e18).toBeCloseTo(1, 5);
    // Single loci by hand: D3S1358 15/16 → 2(0.01 + 0.99·100/404)(0.01 + 0.99·94/404)/(1.01·1.02).
    const d3 = (2 * (0.01 + (0.99 * 100) / 404) * (0.01 + (0.99 * 94) / 404)) / (1.01 * 1.02);
    expect(lr.loci.find((l) => l.marker === 'D3S1358')!.value).toBeCloseTo(1 / d3, 10);
    const tpox = ((0.02 + (0.99 * 221) / 404) * (0.03 + (0.99 * 221) / 404)) / (1.01 * 1.02);
    expect(lr.loci.find((l) => l.marker === 'TPOX')!.value).toBeCloseTo(1 / tpox, 10);
  });

  it('an allele unseen in the population uses 5/(2N): TH01 6/13.3 → 1/(2 · 91/404 · 5/404)', () => {
    const rare = profile({ TH01: ['6', '13.3'] });
    const lr = identityLikelihoodRatio(rare, rare, caucasian, 0);
    expect(lr.product).toBeCloseTo((404 * 404) / (2 * 91 * 5), 8);
  });
});
