import { describe, expect, it } from 'vitest';
import {
  duoExclusionPower,
  duoLocusIndex,
  duoPaternityIndex,
  trioExclusionPower,
  trioLocusIndex,
  trioPaternityIndex,
} from '../../../../../server/genetics/statistics';
import { fbi2015, FOUR_ALLELES, fourAlleleFrequency, population, profile } from './engine-fixtures';

// Source: Evett & Weir (1998) ch. 8 and AABB relationship-testing practice, as in GENETICS.md "Parentage trio".
// P = 10 (p = 0.1), Q = 11 (q = 0.2), R = 12 (r = 0.3), S = 13 (s = 0.05). Tolerance 1e-12 unless stated.
const freq = fourAlleleFrequency;

describe('trio paternity index per locus (Evett & Weir 1998 ch. 8)', () => {
  it.each([
    ['M=PQ C=PQ AF=PQ: (t_P + t_Q)/(p + q) = 1/0.3', ['10', '11'], ['10', '11'], ['10', '11'], 1 / 0.3],
    ['M=PQ C=PQ AF=PR: (½ + 0)/(p + q) = 0.5/0.3', ['10', '11'], ['10', '11'], ['10', '12'], 0.5 / 0.3],
    ['M=PQ C=PQ AF=PP: (1 + 0)/(p + q)', ['10', '11'], ['10', '11'], ['10'], 1 / 0.3],
    ['M=PQ C=QR AF=RS: obligate R, 1/(2r)', ['10', '11'], ['11', '12'], ['12', '13'], 1 / 0.6],
    ['M=PQ C=QR AF=RR: 1/r', ['10', '11'], ['11', '12'], ['12'], 1 / 0.3],
    ['M=PP C=PQ AF=QQ: 1/q', ['10'], ['10', '11'], ['11'], 5],
    ['M=PQ C=PP AF=PR: 1/(2p)', ['10', '11'], ['10'], ['10', '12'], 5],
    ['M=PQ C=QR AF=PS: no obligate allele → 0', ['10', '11'], ['11', '12'], ['10', '13'], 0],
  ])('%s', (_label, m, c, f, expected) => {
    expect(trioLocusIndex(m, c, f, freq)).toBeCloseTo(expected, 12);
  });

  it('returns null when the mother shares no allele with the child (not a paternity question)', () => {
    expect(trioLocusIndex(['12', '13'], ['10', '11'], ['10'], freq)).toBeNull();
  });
});

describe('duo paternity index per locus = parent–child row (Evett & Weir 1998 ch. 7)', () => {
  it('C=PQ AF=PR: 1/(4p) = 2.5; C=PQ AF=PQ: (p+q)/(4pq) = 3.75; C=PP AF=PP: 1/p = 10; no shared: 0', () => {
    expect(duoLocusIndex(['10', '11'], ['10', '12'], freq)).toBeCloseTo(2.5, 12);
    expect(duoLocusIndex(['10', '11'], ['10', '11'], freq)).toBeCloseTo(3.75, 12);
    expect(duoLocusIndex(['10'], ['10'], freq)).toBeCloseTo(10, 12);
    expect(duoLocusIndex(['10', '11'], ['12'], freq)).toBe(0);
  });
});

/** Independent check of the exclusion powers: enumerate every mother, child and random man at a locus. */
function genotypesOf(fs: readonly number[]): { alleles: number[]; probability: number }[] {
  const out: { alleles: number[]; probability: number }[] = [];
  fs.forEach((p, i) => fs.forEach((q, j) => j >= i && out.push({ alleles: i === j ? [i] : [i, j], probability: i === j ? p * p : 2 * p * q })));
  return out;
}
function bruteTrioExclusion(fs: readonly number[]): number {
  let pe = 0;
  for (const mother of genotypesOf(fs)) {
    const copies = mother.alleles.length === 1 ? [mother.alleles[0]!, mother.alleles[0]!] : mother.alleles;
    for (const m of copies) {
      fs.forEach((po, o) => {
        // Child {m, o}: the paternal alleles that complete it given any allele this mother can give.
        const obligate = new Set<number>();
        for (const x of mother.alleles) {
          if (x === m) obligate.add(o);
          if (x === o) obligate.add(m);
        }
        for (const man of genotypesOf(fs)) {
          if (!man.alleles.some((a) => obligate.has(a))) pe += mother.probability * 0.5 * po * man.probability;
        }
      });
    }
  }
  return pe;
}
function bruteDuoExclusion(fs: readonly number[]): number {
  let pe = 0;
  for (const child of genotypesOf(fs)) for (const man of genotypesOf(fs)) if (!man.alleles.some((a) => child.alleles.includes(a))) pe += child.probability * man.probability;
  return pe;
}

describe('mean exclusion power A of a locus (Jamieson & Taylor 1997; Fung & Hu 2008)', () => {
  it('two equally common alleles: trio 3/16, duo 1/8 (hand enumeration)', () => {
    expect(trioExclusionPower([0.5, 0.5])).toBeCloseTo(3 / 16, 14);
    expect(duoExclusionPower([0.5, 0.5])).toBeCloseTo(1 / 8, 14);
  });

  it('equals a full enumeration of mother × child × random man, on a 4-allele locus and on FBI 2015 Caucasian TH01 (tolerance 1e-12)', () => {
    const th01 = [...fbi2015('Caucasian').markers.get('TH01')!.frequencies.values()];
    for (const fs of [[0.1, 0.2, 0.3, 0.4], th01]) {
      expect(trioExclusionPower(fs)).toBeCloseTo(bruteTrioExclusion(fs), 12);
      expect(duoExclusionPower(fs)).toBeCloseTo(bruteDuoExclusion(fs), 12);
    }
  });

  it('a trio excludes more than a duo (the mother removes half the child’s alleles from the question)', () => {
    const fs = [0.1, 0.2, 0.3, 0.4];
    expect(trioExclusionPower(fs)).toBeGreaterThan(duoExclusionPower(fs));
  });
});

describe('combined paternity index with the μ/A rule (AABB)', () => {
  const pop = population({ A: FOUR_ALLELES, B: { '10': 0.5, '11': 0.5 } });
  const opts = { mutationRate: 0.002 };

  it('trio: one excluded locus contributes μ/A = 0.002/(3/16) instead of zeroing the index', () => {
    const mother = profile({ A: ['10', '11'], B: ['11'] });
    const child = profile({ A: ['10', '11'], B: ['11'] });
    const father = profile({ A: ['10', '11'], B: ['10'] });
    const pi = trioPaternityIndex(mother, child, father, pop, opts);
    expect(pi.exclusions).toEqual(['B']);
    expect(pi.loci.find((l) => l.marker === 'B')!.value).toBeCloseTo(0.002 / (3 / 16), 12);
    expect(pi.product).toBeCloseTo((1 / 0.3) * (0.002 / (3 / 16)), 12);
    expect(pi.product).toBeGreaterThan(0);
  });

  it('trio: a locus where the mother shares nothing with the child is skipped as "mother inconsistent"', () => {
    const pi = trioPaternityIndex(profile({ A: ['12', '13'] }), profile({ A: ['10', '11'] }), profile({ A: ['10'] }), pop, opts);
    expect(pi.skipped).toEqual([{ marker: 'A', reason: 'mother inconsistent' }]);
    expect(pi.loci).toEqual([]);
  });

  it('duo: PQ–PR gives 1/(4p) = 2.5; an exclusion gives μ/A with the duo power 1/8', () => {
    const pi = duoPaternityIndex(profile({ A: ['10', '11'], B: ['11'] }), profile({ A: ['10', '12'], B: ['10'] }), pop, opts);
    expect(pi.exclusions).toEqual(['B']);
    expect(pi.product).toBeCloseTo(2.5 * (0.002 / 0.125), 12);
  });
});
