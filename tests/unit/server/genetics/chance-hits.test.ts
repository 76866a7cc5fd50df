import { describe, expect, it } from 'vitest';
import {
  hardyWeinbergGenotypes,
  kinshipLocusLikelihoodRatio,
  lrDistribution,
  OTHER_ALLELE,
  poissonBinomialAtMost,
  RELATIONSHIP_KAPPA,
  unrelatedGenotypeAtoms,
  type Kappa,
  type LrAtom,
} from '../../../../server/genetics/statistics';

// GENETICS.md "Expected chance hits" (Tippett et al. 1968; Taylor et al. 2016): P(Σ log10 LR ≥ t) for an
// unrelated candidate, bracketed by a grid rounded down and up. Every check below is against brute-force
// enumeration inside the test; probabilities compare with an absolute tolerance of 1e-12 (sums of a few
// dozen products), the grid brackets need no tolerance beyond that.
const TOL = 1e-12;

/** Two markers, three alleles each (hand-made frequencies summing to 1). */
const MARKERS: Record<string, Record<string, number>> = {
  A: { '10': 0.5, '11': 0.3, '12': 0.2 },
  B: { '7': 0.6, '8': 0.25, '9': 0.15 },
};
/** The query: a heterozygote at A, a homozygote at B. */
const QUERY: Record<string, string[]> = { A: ['10', '11'], B: ['8'] };

/** Every Hardy–Weinberg genotype of a frequency table, enumerated by hand (i ≤ j). */
function genotypesByHand(freqs: Record<string, number>): { genotype: string[]; probability: number }[] {
  const alleles = Object.entries(freqs);
  const out: { genotype: string[]; probability: number }[] = [];
  for (let i = 0; i < alleles.length; i++)
    for (let j = i; j < alleles.length; j++) {
      const [a, p] = alleles[i]!;
      const [b, q] = alleles[j]!;
      out.push(i === j ? { genotype: [a], probability: p * p } : { genotype: [a, b], probability: 2 * p * q });
    }
  return out;
}

/** Per-marker LR of a candidate against the query under a relationship (the engine's kinship formula). */
const kinshipLr = (marker: string, kappa: Kappa) => (candidate: readonly string[]) =>
  kinshipLocusLikelihoodRatio(QUERY[marker]!, candidate, (a) => MARKERS[marker]![a]!, kappa);

/** Exact P(S ≥ t) and P(LR = 0) by enumerating all 6 × 6 genotype combinations. */
function bruteForce(kappa: Kappa) {
  const outcomes: { s: number; probability: number }[] = [];
  for (const a of genotypesByHand(MARKERS.A!))
    for (const b of genotypesByHand(MARKERS.B!)) {
      const s = Math.log10(kinshipLr('A', kappa)(a.genotype)) + Math.log10(kinshipLr('B', kappa)(b.genotype));
      outcomes.push({ s, probability: a.probability * b.probability });
    }
  return {
    outcomes,
    tail: (t: number) => outcomes.filter((o) => o.s >= t).reduce((sum, o) => sum + o.probability, 0),
    zero: outcomes.filter((o) => o.s === -Infinity).reduce((sum, o) => sum + o.probability, 0),
  };
}

const atomsFor = (kappa: Kappa): LrAtom[][] =>
  ['A', 'B'].map((m) => unrelatedGenotypeAtoms(new Map(Object.entries(MARKERS[m]!)), { lrOf: (g) => kinshipLr(m, kappa)(g) }));

/** Thresholds midway between consecutive distinct exact sums (gaps over 0.01 log10), plus a few off-grid ones. */
function thresholdsBetween(sums: readonly number[]): number[] {
  const finite = [...new Set(sums.filter(Number.isFinite))].sort((x, y) => x - y);
  const mids = finite.slice(1).flatMap((s, i) => (s - finite[i]! > 0.01 ? [(s + finite[i]!) / 2] : []));
  return [...mids, finite[0]! - 0.5, finite.at(-1)! + 0.5, 0.0037, 1.2345];
}

describe('Hardy–Weinberg genotypes of one marker (GENETICS.md "Expected chance hits")', () => {
  it('gives p² and 2pq for a table summing to 1, in table order', () => {
    const genotypes = hardyWeinbergGenotypes(new Map(Object.entries(MARKERS.A!)));
    expect(genotypes.map((g) => g.genotype)).toEqual([['10'], ['10', '11'], ['10', '12'], ['11'], ['11', '12'], ['12']]);
    const expected = [0.25, 0.3, 0.2, 0.09, 0.12, 0.04];
    genotypes.forEach((g, i) => expect(g.probability).toBeCloseTo(expected[i]!, 12));
  });

  it('adds the pseudo-allele "other" with the missing mass of a table summing below 1, and ignores a gap of rounding size', () => {
    const short = hardyWeinbergGenotypes(new Map([['10', 0.5], ['11', 0.3]]));
    const other = short.find((g) => g.genotype.length === 1 && g.genotype[0] === OTHER_ALLELE)!;
    expect(other.probability).toBeCloseTo(0.04, 12);
    expect(short.find((g) => g.genotype.join() === ['10', OTHER_ALLELE].join())!.probability).toBeCloseTo(0.2, 12);
    const rounded = hardyWeinbergGenotypes(new Map([['10', 0.5], ['11', 0.5 - 1e-12]]));
    expect(rounded.some((g) => g.genotype.includes(OTHER_ALLELE))).toBe(false);
  });

  it('gives an extra allele the minimum frequency 5/(2N), or the configured minimum without N, then normalises', () => {
    // N = 100: minimum 0.025; total 1.025, so 10 has 0.5/1.025 and 99 has 0.025/1.025.
    const withN = hardyWeinbergGenotypes(new Map(Object.entries(MARKERS.A!)), { extraAlleles: ['99', '10'], sampleSize: 100 });
    expect(withN).toHaveLength(10);
    expect(withN.find((g) => g.genotype.join() === '99')!.probability).toBeCloseTo((0.025 / 1.025) ** 2, 12);
    expect(withN.find((g) => g.genotype.join() === '10')!.probability).toBeCloseTo((0.5 / 1.025) ** 2, 12);
    const configured = hardyWeinbergGenotypes(new Map(Object.entries(MARKERS.A!)), { extraAlleles: ['99'], minimumAlleleFrequency: 0.01 });
    expect(configured.find((g) => g.genotype.join() === '99')!.probability).toBeCloseTo((0.01 / 1.01) ** 2, 12);
    const byDefault = hardyWeinbergGenotypes(new Map(Object.entries(MARKERS.A!)), { extraAlleles: ['99'] });
    expect(byDefault.find((g) => g.genotype.join() === '99')!.probability).toBeCloseTo((0.001 / 1.001) ** 2, 12);
    for (const list of [withN, configured, byDefault]) expect(list.reduce((s, g) => s + g.probability, 0)).toBeCloseTo(1, 12);
  });

  it('drops alleles of frequency 0 (an extra allele of frequency 0 gets the minimum) and refuses bad frequencies; an empty table is all "other"', () => {
    const genotypes = hardyWeinbergGenotypes(new Map([['10', 1], ['11', 0]]));
    expect(genotypes).toEqual([{ genotype: ['10'], probability: 1 }]);
    expect(hardyWeinbergGenotypes(new Map([['10', 1], ['11', 0]]), { extraAlleles: ['11'], minimumAlleleFrequency: 0.01 })).toHaveLength(3);
    expect(() => hardyWeinbergGenotypes(new Map([['10', -0.1]]))).toThrow(/frequency -0.1/);
    expect(() => hardyWeinbergGenotypes(new Map([['10', Number.NaN]]))).toThrow(RangeError);
    expect(hardyWeinbergGenotypes(new Map())).toEqual([{ genotype: [OTHER_ALLELE], probability: 1 }]);
  });
});

describe('LR atoms of one marker', () => {
  it('merges genotypes of equal LR, reads null as factor 1 and 0 as log10 −Infinity', () => {
    const freqs = new Map(Object.entries(MARKERS.A!));
    // Parent–child against 10/11: the genotypes sharing no allele (12/12) have LR 0.
    const atoms = unrelatedGenotypeAtoms(freqs, { lrOf: kinshipLr('A', RELATIONSHIP_KAPPA['parent-child']) });
    expect(atoms.find((a) => a.log10 === -Infinity)!.probability).toBeCloseTo(0.04, 12);
    expect(atoms.reduce((s, a) => s + a.probability, 0)).toBeCloseTo(1, 12);
    // PP–PQ (10/10) and PQ–PR (10/12) against 10/11: 1/(2p) = 1 and 1/(4p) = 0.5 with p = 0.5; 11/11 gives 1/(2q).
    expect(atoms.find((a) => Math.abs(a.log10) < 1e-12)!.probability).toBeCloseTo(0.25, 12);
    const notEvaluated = unrelatedGenotypeAtoms(freqs, { lrOf: () => null });
    expect(notEvaluated).toEqual([{ log10: 0, probability: expect.closeTo(1, 12) }]);
    expect(() => unrelatedGenotypeAtoms(freqs, { lrOf: () => -1 })).toThrow(/LR -1/);
  });

  it('merges equal LRs into one atom each, consistent and inconsistent apart, in the order each value first appears', () => {
    // Merged by a number key since issue 29: the atoms (and so the distribution's sums) are those of a merge by the value's text.
    const freqs = new Map(Object.entries({ '8': 0.1, '9': 0.2, '10': 0.3, '11': 0.15, '12': 0.25 }));
    const lrOf = (g: string[]) => {
      const n = g.reduce((s, a) => s + (a === OTHER_ALLELE ? 0 : Number(a)), 0);
      if (n % 5 === 0) return null;
      return n % 3 === 0 ? { value: (n % 4) / 2, inconsistent: n % 2 === 0 } : (n % 4) / 2;
    };
    const byText = new Map<string, LrAtom>();
    for (const { genotype, probability } of hardyWeinbergGenotypes(freqs)) {
      const answer = lrOf(genotype);
      const lr = answer !== null && typeof answer === 'object' ? answer.value : answer;
      const inconsistent = answer !== null && typeof answer === 'object' && answer.inconsistent;
      const log10 = lr === null ? 0 : Math.log10(lr);
      const key = `${log10}${inconsistent ? '!' : ''}`;
      const atom = byText.get(key);
      if (atom) atom.probability += probability;
      else byText.set(key, inconsistent ? { log10, probability, inconsistent } : { log10, probability });
    }
    const atoms = unrelatedGenotypeAtoms(freqs, { lrOf });
    expect(atoms.length).toBeGreaterThan(4);
    expect(atoms.some((a) => a.inconsistent)).toBe(true);
    expect(atoms).toEqual([...byText.values()]);
  });

  it('passes the pseudo-allele to lrOf as it is, so the caller gives it the LR of an allele the query does not carry', () => {
    const seen: string[][] = [];
    const atoms = unrelatedGenotypeAtoms(new Map([['10', 0.6]]), { lrOf: (g) => (seen.push(g), g.includes('10') ? 2 : 0.5) });
    expect(seen).toContainEqual([OTHER_ALLELE]);
    expect(seen).toContainEqual(['10', OTHER_ALLELE]);
    expect(atoms.find((a) => a.log10 === Math.log10(0.5))!.probability).toBeCloseTo(0.16, 12);
  });
});

describe('the distribution of Σ log10 LR against brute-force enumeration (2 markers, 3 alleles)', () => {
  it.each([
    ['full siblings', RELATIONSHIP_KAPPA['full siblings']],
    ['parent–child (LR 0 where no allele is shared)', RELATIONSHIP_KAPPA['parent-child']],
    ['first cousins', RELATIONSHIP_KAPPA['first cousins']],
  ])('%s: lower ≤ exact ≤ upper at every threshold, for steps 0.1, 0.01 and 0.001', (_name, kappa) => {
    const exact = bruteForce(kappa);
    const thresholds = thresholdsBetween(exact.outcomes.map((o) => o.s));
    for (const step of [0.1, 0.01, 0.001]) {
      const distribution = lrDistribution(atomsFor(kappa), { step });
      expect(distribution.step).toBe(step);
      expect(distribution.zeroProbability).toBeCloseTo(exact.zero, 12);
      for (const t of thresholds) {
        const { lower, upper } = distribution.tail(t);
        expect(lower, `step ${step}, t ${t}`).toBeLessThanOrEqual(exact.tail(t) + TOL);
        expect(upper, `step ${step}, t ${t}`).toBeGreaterThanOrEqual(exact.tail(t) - TOL);
      }
    }
  });

  it('the bracket narrows as the step shrinks, and is exact once two steps are finer than the gaps between sums', () => {
    const kappa = RELATIONSHIP_KAPPA['full siblings'];
    const exact = bruteForce(kappa);
    const thresholds = thresholdsBetween(exact.outcomes.map((o) => o.s));
    const width = (step: number) => {
      const d = lrDistribution(atomsFor(kappa), { step });
      return thresholds.reduce((sum, t) => sum + d.tail(t).upper - d.tail(t).lower, 0);
    };
    const [coarse, medium, fine] = [width(0.3), width(0.03), width(0.0005)];
    expect(coarse).toBeGreaterThan(medium);
    expect(medium).toBeGreaterThan(fine);
    // Midpoints are ≥ 0.005 from every exact sum; 2 markers × 0.0005 < 0.005: no sum crosses a threshold.
    const d = lrDistribution(atomsFor(kappa), { step: 0.0005 });
    for (const t of thresholds) {
      expect(d.tail(t).lower).toBeCloseTo(exact.tail(t), 12);
      expect(d.tail(t).upper).toBeCloseTo(exact.tail(t), 12);
    }
  });
});

describe('maxInconsistencies (GENETICS.md "Parentage with inconsistencies"): more inconsistent markers than allowed is LR 0', () => {
  // Parent–child with μ/A = 0.01 where no allele is shared (inconsistent), over the markers A, B, A.
  const names = ['A', 'B', 'A'];
  const lrOf = (marker: string) => (g: readonly string[]) => {
    const value = kinshipLr(marker, RELATIONSHIP_KAPPA['parent-child'])(g);
    return value === 0 ? { value: 0.01, inconsistent: true } : { value };
  };
  const atoms = names.map((m) => unrelatedGenotypeAtoms(new Map(Object.entries(MARKERS[m]!)), { lrOf: lrOf(m) }));

  /** Exact tail by enumerating the 6 × 6 × 6 combinations, LR 0 above `most` inconsistent markers. */
  function exact(most: number) {
    let outcomes: { s: number; inconsistent: number; probability: number }[] = [{ s: 0, inconsistent: 0, probability: 1 }];
    for (const m of names)
      outcomes = outcomes.flatMap((o) =>
        genotypesByHand(MARKERS[m]!).map((g) => {
          const r = lrOf(m)(g.genotype);
          return { s: o.s + Math.log10(r.value), inconsistent: o.inconsistent + (r.inconsistent ? 1 : 0), probability: o.probability * g.probability };
        }),
      );
    const scored = outcomes.map((o) => ({ s: o.inconsistent > most ? -Infinity : o.s, probability: o.probability }));
    return { scored, tail: (t: number) => scored.filter((o) => o.s >= t).reduce((sum, o) => sum + o.probability, 0) };
  }

  it('merges atoms by value and flag', () => {
    expect(atoms[0]!.filter((a) => a.inconsistent)).toEqual([{ log10: -2, probability: expect.closeTo(0.04, 12), inconsistent: true }]);
  });

  it.each([0, 1, 2, 3, 7.5])('at most %s: the bracket holds the exact tail and P(LR = 0)', (most) => {
    const truth = exact(most);
    const thresholds = thresholdsBetween(truth.scored.map((o) => o.s));
    for (const step of [0.01, 0.001]) {
      const d = lrDistribution(atoms, { step, maxInconsistencies: most });
      expect(d.zeroProbability).toBeCloseTo(truth.scored.filter((o) => o.s === -Infinity).reduce((sum, o) => sum + o.probability, 0), 12);
      expect(d.tail(-Infinity).upper).toBeCloseTo(1, 12);
      for (const t of thresholds) {
        expect(d.tail(t).lower).toBeLessThanOrEqual(truth.tail(t) + TOL);
        expect(d.tail(t).upper).toBeGreaterThanOrEqual(truth.tail(t) - TOL);
      }
    }
  });

  it('without a limit the flag is ignored, and a negative or NaN limit is refused', () => {
    const free = lrDistribution(atoms);
    const all = lrDistribution(atoms, { maxInconsistencies: 3 });
    for (const t of [-5, -3, -1, 0, 1]) expect(free.tail(t).upper).toBeCloseTo(all.tail(t).upper, 12);
    expect(free.zeroProbability).toBe(0);
    expect(() => lrDistribution(atoms, { maxInconsistencies: -1 })).toThrow(/maxInconsistencies/);
    expect(() => lrDistribution(atoms, { maxInconsistencies: Number.NaN })).toThrow(RangeError);
  });
});

describe('tail and thresholdFor', () => {
  const fullSiblings = lrDistribution(atomsFor(RELATIONSHIP_KAPPA['full siblings']));
  const parentChild = lrDistribution(atomsFor(RELATIONSHIP_KAPPA['parent-child']));

  it('has total probability 1 (the tail at −Infinity counts LR 0 too), 0 at +Infinity, and is monotone non-increasing', () => {
    for (const d of [fullSiblings, parentChild]) {
      expect(d.tail(-Infinity).lower).toBeCloseTo(1, 12);
      expect(d.tail(-Infinity).upper).toBeCloseTo(1, 12);
      expect(d.tail(Infinity)).toEqual({ lower: 0, upper: 0 });
      let previous = d.tail(-Infinity);
      for (let t = d.range.min - 1; t <= d.range.max + 1; t += 0.0137) {
        const now = d.tail(t);
        expect(now.lower).toBeLessThanOrEqual(previous.lower);
        expect(now.upper).toBeLessThanOrEqual(previous.upper);
        expect(now.lower).toBeLessThanOrEqual(now.upper);
        previous = now;
      }
    }
  });

  it('outside the reachable range: below it every finite sum (1 − P(LR = 0)), above it nothing', () => {
    expect(parentChild.zeroProbability).toBeGreaterThan(0);
    const below = parentChild.tail(parentChild.range.min - 5);
    expect(below.lower).toBeCloseTo(1 - parentChild.zeroProbability, 12);
    expect(below.upper).toBeCloseTo(1 - parentChild.zeroProbability, 12);
    expect(parentChild.tail(parentChild.range.max + 0.5)).toEqual({ lower: 0, upper: 0 });
    expect(fullSiblings.zeroProbability).toBe(0);
    expect(() => fullSiblings.tail(Number.NaN)).toThrow(RangeError);
  });

  it('thresholdFor: the upper tail there is ≤ the asked probability, one grid step lower it is above (unless at the range edge)', () => {
    for (const d of [fullSiblings, parentChild])
      for (const asked of [0.5, 0.2, 0.1, 0.05, 0.01, 0.003, 1e-4, 0]) {
        const t = d.thresholdFor(asked);
        expect(d.tail(t).upper).toBeLessThanOrEqual(asked);
        // The range edge: t is the rounded-up grid's minimum, where the upper tail already holds every finite sum.
        if (d.tail(t).upper < 1 - d.zeroProbability - TOL) expect(d.tail(t - d.step).upper).toBeGreaterThan(asked);
        else expect(t).toBeGreaterThanOrEqual(d.range.min);
        // On the grid.
        expect(Math.abs(t / d.step - Math.round(t / d.step))).toBeLessThan(1e-6);
      }
    expect(fullSiblings.thresholdFor(0)).toBeGreaterThan(fullSiblings.range.max);
  });

  it('thresholdFor at the edges: −Infinity from probability 1, the range minimum when every finite sum qualifies, errors for bad input', () => {
    expect(fullSiblings.thresholdFor(1)).toBe(-Infinity);
    expect(parentChild.thresholdFor(1)).toBe(-Infinity);
    const finite = 1 - parentChild.zeroProbability;
    const t = parentChild.thresholdFor((finite + 1) / 2);
    expect(t).toBeGreaterThanOrEqual(parentChild.range.min);
    expect(parentChild.tail(t).upper).toBeCloseTo(finite, 12);
    expect(parentChild.tail(t + parentChild.step).upper).toBeLessThan(finite);
    expect(parentChild.tail(t - 10).upper).toBeCloseTo(finite, 12);
    expect(() => fullSiblings.thresholdFor(-0.1)).toThrow(RangeError);
    expect(() => fullSiblings.thresholdFor(Number.NaN)).toThrow(RangeError);
  });

  it('reports the range from the rounded-down minimum to the rounded-up maximum', () => {
    const d = lrDistribution([[{ log10: -0.601, probability: 0.5 }, { log10: 1.234, probability: 0.5 }], [{ log10: 0.3, probability: 1 }]], { step: 0.01 });
    expect(d.range.min).toBeCloseTo(-0.61 + 0.3, 9);
    expect(d.range.max).toBeCloseTo(1.24 + 0.3, 9);
  });
});

describe('lrDistribution edge cases', () => {
  it('no marker: S = 0 with probability 1', () => {
    const d = lrDistribution([]);
    expect(d.tail(0)).toEqual({ lower: 1, upper: 1 });
    expect(d.tail(0.001)).toEqual({ lower: 0, upper: 0 });
    expect(d.range).toEqual({ min: 0, max: 0 });
  });

  it('values on the grid are not moved by floating-point noise: log10(1000) reaches threshold 3 in both bounds', () => {
    const d = lrDistribution([[{ log10: Math.log10(1000), probability: 0.1 }, { log10: 0, probability: 0.9 }]]);
    expect(d.tail(3)).toEqual({ lower: 0.1, upper: 0.1 });
  });

  it('a marker whose every genotype has LR 0 leaves nothing finite', () => {
    const d = lrDistribution([[{ log10: -Infinity, probability: 1 }], [{ log10: 1, probability: 1 }]]);
    expect(d.zeroProbability).toBe(1);
    expect(d.tail(-100)).toEqual({ lower: 0, upper: 0 });
    expect(d.tail(-Infinity)).toEqual({ lower: 1, upper: 1 });
  });

  it('keeps atoms of probability 0 out of the sums', () => {
    const d = lrDistribution([[{ log10: 5, probability: 0 }, { log10: 1, probability: 1 }]]);
    expect(d.tail(2)).toEqual({ lower: 0, upper: 0 });
    expect(d.tail(1)).toEqual({ lower: 1, upper: 1 });
  });

  it('refuses a bad step, an empty marker, a bad probability or an infinite LR', () => {
    expect(() => lrDistribution([], { step: 0 })).toThrow(/step/);
    expect(() => lrDistribution([], { step: Infinity })).toThrow(/step/);
    expect(() => lrDistribution([[]])).toThrow(/marker 1 has no genotype atoms/);
    expect(() => lrDistribution([[{ log10: 0, probability: -1 }]])).toThrow(/probability -1/);
    expect(() => lrDistribution([[{ log10: Infinity, probability: 1 }]])).toThrow(/log10 LR Infinity/);
    expect(() => lrDistribution([[{ log10: Number.NaN, probability: 1 }]])).toThrow(RangeError);
  });
});

describe('poissonBinomialAtMost (exact DP)', () => {
  /** P(at most k successes) by enumerating all 2^n outcomes. */
  function enumerate(ps: readonly number[], k: number): number {
    let total = 0;
    for (let mask = 0; mask < 1 << ps.length; mask++) {
      let probability = 1;
      let successes = 0;
      ps.forEach((p, i) => {
        if (mask & (1 << i)) {
          probability *= p;
          successes++;
        } else probability *= 1 - p;
      });
      if (successes <= k) total += probability;
    }
    return total;
  }

  it('equals brute-force enumeration for n ≤ 10 and every k', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let n = 0; n <= 10; n++) {
      const ps = Array.from({ length: n }, (_, i) => (i === 3 ? 0 : i === 5 ? 1 : random()));
      for (let k = -1; k <= n + 1; k++) expect(poissonBinomialAtMost(ps, k), `n ${n}, k ${k}`).toBeCloseTo(enumerate(ps, k), 12);
    }
  });

  it('equals the binomial distribution when every p is equal', () => {
    const n = 20;
    const p = 0.3;
    let cumulative = 0;
    let coefficient = 1;
    for (let k = 0; k <= n; k++) {
      if (k > 0) coefficient = (coefficient * (n - k + 1)) / k;
      cumulative += coefficient * p ** k * (1 - p) ** (n - k);
      expect(poissonBinomialAtMost(Array(n).fill(p), k)).toBeCloseTo(cumulative, 12);
    }
  });

  it('reads a fractional k as its floor, and refuses probabilities outside [0, 1] or a NaN k', () => {
    expect(poissonBinomialAtMost([0.5, 0.5], 0.9)).toBeCloseTo(0.25, 12);
    expect(poissonBinomialAtMost([0.5, 0.5], -0.5)).toBe(0);
    expect(() => poissonBinomialAtMost([1.5], 0)).toThrow(/1.5/);
    expect(() => poissonBinomialAtMost([0.5], Number.NaN)).toThrow(RangeError);
  });
});

describe('lrDistribution from a threshold (sums that cannot reach it dropped)', () => {
  it('answers every tail at or above `from` as the full grid does, refuses below it, and finds thresholds at or above it', () => {
    // Twelve markers, each far below zero with most of its mass (a mixture's unrelated candidates) and a little above.
    const markers = Array.from({ length: 12 }, (_, m) => [
      { log10: -6 - m / 10, probability: 0.55 },
      { log10: -2.5, probability: 0.3 },
      { log10: 0.4 + m / 50, probability: 0.1 },
      { log10: 1.3, probability: 0.049 },
      { log10: -Infinity, probability: 0.001 },
    ]);
    const full = lrDistribution(markers, { step: 0.001 });
    const from = lrDistribution(markers, { step: 0.001, from: 2 });
    for (const t of [2, 2.0005, 3, 4.7, 8, 12, 15.6, 16]) expect(from.tail(t), `t = ${t}`).toEqual(full.tail(t));
    expect(() => from.tail(1.9)).toThrow(RangeError);
    expect(Math.abs(from.zeroProbability - full.zeroProbability)).toBeLessThan(1e-12);
    for (const p of [1e-3, 1e-6, 1e-9]) expect(from.thresholdFor(p)).toBe(Math.max(2, full.thresholdFor(p)));
    expect(from.thresholdFor(1)).toBe(2);
  });
});
