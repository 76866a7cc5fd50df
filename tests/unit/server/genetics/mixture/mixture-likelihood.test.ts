/**
 * The semi-continuous mixture likelihood (server/genetics/mixture) against hand formulas, a brute-force enumeration
 * of every unknown's genotype over every allele written here, and the invariants GENETICS.md "Mixtures" names.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mixtureLr, MixtureError, type MixtureCase } from '../../../../../server/genetics/mixture/mixture-lr';
import type { Genotype, PopulationFrequencies } from '../../../../../server/genetics/types';

const population = (markers: Record<string, Record<string, number>>): PopulationFrequencies => ({
  name: 'test',
  minimumAlleleFrequency: 0.001,
  markers: new Map(Object.entries(markers).map(([m, f]) => [m, { frequencies: new Map(Object.entries(f)), sampleSize: null }])),
});
const profile = (g: Record<string, Genotype>) => new Map(Object.entries(g));
const closeTo = (actual: number, expected: number, relative = 1e-12) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.abs(expected));

const P = { '10': 0.1, '11': 0.2, '12': 0.3, '13': 0.25, '14': 0.15 };
const base = (over: Partial<MixtureCase>): MixtureCase => ({
  replicates: [profile({ M: ['10', '11'] })],
  personOfInterest: profile({ M: ['10', '11'] }),
  knownContributors: [],
  contributors: 1,
  dropout: [0],
  dropIn: 0,
  theta: 0,
  personOfInterestTypedUnderHd: true,
  population: population({ M: P }),
  frequencyRule: { normalize: false },
  ...over,
});

describe('mixture likelihood by hand', () => {
  it('one contributor, no drop-out or drop-in: LR = 1/(2pq), the single-source match', () => {
    const r = mixtureLr(base({}));
    closeTo(r.markers[0]!.likelihoodHp, 1);
    closeTo(r.markers[0]!.likelihoodHd, 2 * 0.1 * 0.2);
    closeTo(r.lr, 1 / (2 * 0.1 * 0.2));
  });

  it('θ: the Balding–Nichols match probability (NRC II 4.10b) for a heterozygote and a homozygote', () => {
    const theta = 0.03;
    const het = mixtureLr(base({ theta }));
    closeTo(het.lr, ((1 + theta) * (1 + 2 * theta)) / (2 * (theta + (1 - theta) * 0.1) * (theta + (1 - theta) * 0.2)));
    const hom = mixtureLr(base({ theta, replicates: [profile({ M: ['12'] })], personOfInterest: profile({ M: ['12'] }) }));
    closeTo(hom.lr, ((1 + theta) * (1 + 2 * theta)) / ((2 * theta + (1 - theta) * 0.3) * (3 * theta + (1 - theta) * 0.3)));
    // Without the person of interest counted under Hd, θ sees only the unknown's own first allele.
    closeTo(mixtureLr(base({ theta, personOfInterestTypedUnderHd: false })).lr, 1 / (2 * 0.1 * (1 - theta) * 0.2));
  });

  it('one contributor with drop-out d and drop-in c: only allele 10 of a 10/11 person of interest seen', () => {
    const [d, c, p] = [0.3, 0.05, 0.1];
    const r = mixtureLr(base({ replicates: [profile({ M: ['10'] })], dropout: [d], dropIn: c }));
    closeTo(r.markers[0]!.likelihoodHp, (1 - d) * d * (1 - c));
    const hd = (1 - c) * (p * p * (1 - d * d) + 2 * p * (1 - p) * (1 - d) * d) + c * p * d * d * (1 - p) ** 2;
    closeTo(r.markers[0]!.likelihoodHd, hd);
    expect(r.markers[0]).toMatchObject({ explained: ['10'], droppedOut: ['11'], unexplained: [], alleles: ['10', 'other'] });
  });

  it('two contributors, d = c = 0: the classic mixture LR 1/(12pq) for a four-allele stain', () => {
    const r = mixtureLr(base({ replicates: [profile({ M: ['10', '11', '12', '13'] })], contributors: 2, dropout: [0, 0] }));
    closeTo(r.markers[0]!.likelihoodHp, 2 * 0.3 * 0.25);
    closeTo(r.lr, 1 / (12 * 0.1 * 0.2));
  });

  it('a known contributor under both hypotheses takes their alleles out of the unknowns', () => {
    // Stain 10,11,12,13; victim 12/13 known; POI 10/11: LR = 1/(2pq) as for a single source.
    const r = mixtureLr(base({ replicates: [profile({ M: ['10', '11', '12', '13'] })], knownContributors: [profile({ M: ['12', '13'] })], contributors: 2, dropout: [0, 0] }));
    closeTo(r.lr, 1 / (2 * 0.1 * 0.2));
  });

  it('invariants: a marker with nothing seen and d → 1 gives LR 1; an unseen allele of the person of interest with d = 0 gives 0', () => {
    const nothing = mixtureLr(base({ replicates: [profile({ M: [] })], dropout: [1 - 1e-9], dropIn: 0.05 }));
    closeTo(nothing.lr, 1, 1e-6);
    const unseen = mixtureLr(base({ replicates: [profile({ M: ['10', '12'] })], contributors: 2, dropout: [0, 0] }));
    expect(unseen.lr).toBe(0);
    expect(unseen.markers[0]!.likelihoodHd).toBeGreaterThan(0);
  });

  it('replicates multiply given the genotypes, and markers multiply', () => {
    const d = 0.2;
    const one = mixtureLr(base({ replicates: [profile({ M: ['10'] })], dropout: [d], dropIn: 0.01 }));
    const two = mixtureLr(base({ replicates: [profile({ M: ['10'] }), profile({ M: ['10', '11'] })], dropout: [d], dropIn: 0.01 }));
    closeTo(two.markers[0]!.likelihoodHp, (1 - d) * d * 0.99 * (1 - d) * (1 - d) * 0.99);
    expect(two.markers[0]!.replicates).toEqual([['10'], ['10', '11']]);
    expect(two.lr).not.toBeCloseTo(one.lr, 3);
    const both = mixtureLr(base({ replicates: [profile({ M: ['10', '11'], N: ['10'] })], personOfInterest: profile({ M: ['10', '11'], N: ['10', '11'] }), population: population({ M: P, N: P }), dropout: [d] }));
    closeTo(both.lr, both.markers[0]!.lr * both.markers[1]!.lr);
  });

  it('skips Amelogenin, markers without frequencies and markers the person of interest lacks, saying why', () => {
    const r = mixtureLr(base({ replicates: [profile({ M: ['10', '11'], AMEL: ['X', 'Y'], Q: ['5'], N: ['10'] })], population: population({ M: P, N: P }) }));
    expect(r.markers.map((m) => m.marker)).toEqual(['M']);
    expect(r.skipped).toEqual([
      { marker: 'Q', reason: 'no frequencies in test' },
      { marker: 'N', reason: 'the person of interest is not typed here' },
    ]);
  });

  it('refuses a case it cannot weigh, naming the problem', () => {
    expect(() => mixtureLr(base({ contributors: 2 }))).toThrow(/one drop-out probability per contributor/);
    expect(() => mixtureLr(base({ knownContributors: [profile({ M: ['12'] })] }))).toThrow(/at least 2/);
    expect(() => mixtureLr(base({ dropout: [1] }))).toThrow(MixtureError);
    expect(() => mixtureLr(base({ theta: -0.1 }))).toThrow(/θ/);
    // Three alleles, one contributor, no drop-in: impossible under Hd.
    expect(() => mixtureLr(base({ replicates: [profile({ M: ['10', '11', '12'] })] }))).toThrow(/impossible under Hd/);
  });
});

/**
 * Brute force: every unknown's ordered genotype over every allele of the table (no merging), Balding–Nichols drawn
 * allele by allele in that order (a heterozygote both orders), and the evidence probability written out per allele.
 */
function bruteForce(alleles: string[], p: number[], replicates: string[][], typedContributors: { g: string[]; d: number }[], nonContributors: string[][], unknownD: number[], c: number, theta: number): number {
  const genotypes: [number, number][] = [];
  for (let a = 0; a < alleles.length; a++) for (let b = a; b < alleles.length; b++) genotypes.push([a, b]);
  const counts = new Array<number>(alleles.length).fill(0);
  let total = 0;
  for (const g of [...typedContributors.map((t) => t.g), ...nonContributors]) {
    for (const a of g.length === 1 ? [g[0]!, g[0]!] : g) {
      counts[alleles.indexOf(a)]!++;
      total++;
    }
  }
  let sum = 0;
  const walk = (i: number, chosen: [number, number][]) => {
    if (i === unknownD.length) {
      const n = [...counts];
      let t = total;
      let prior = 1;
      for (const [a, b] of chosen) {
        for (const x of [a, b]) {
          prior *= (n[x]! * theta + (1 - theta) * p[x]!) / (1 + (t - 1) * theta);
          n[x]!++;
          t++;
        }
        if (a !== b) prior *= 2;
      }
      let e = 1;
      for (const rep of replicates) {
        let dropIn = false;
        alleles.forEach((allele, x) => {
          let D = 1;
          let carried = false;
          for (const t2 of typedContributors) for (const y of t2.g.length === 1 ? [t2.g[0]!, t2.g[0]!] : t2.g) if (y === allele) ((D *= t2.d), (carried = true));
          chosen.forEach(([a, b], u) => {
            if (a === x) ((D *= unknownD[u]!), (carried = true));
            if (b === x) ((D *= unknownD[u]!), (carried = true));
          });
          const seen = rep.includes(allele);
          if (carried) e *= seen ? 1 - D : D;
          else if (seen) ((dropIn = true), (e *= c * p[x]!));
        });
        if (!dropIn) e *= 1 - c;
      }
      sum += prior * e;
      return;
    }
    for (const g of genotypes) walk(i + 1, [...chosen, g]);
  };
  walk(0, []);
  return sum;
}

describe('mixture likelihood against a brute-force enumeration', () => {
  const alleles = ['9', '10', '11', '12', '13', '14'];
  const freqs = [0.05, 0.15, 0.3, 0.2, 0.18, 0.12];
  const pick = (n: number) => fc.uniqueArray(fc.constantFrom(...alleles), { minLength: 0, maxLength: n });
  const genotype = fc.tuple(fc.constantFrom(...alleles), fc.constantFrom(...alleles)).map(([a, b]) => (a === b ? [a] : [a, b].sort((x, y) => Number(x) - Number(y))));
  const d = fc.constantFrom(0, 0.1, 0.35, 0.6);

  it('equals it for random stains, replicates, known contributors, distinct drop-outs, drop-in and θ', () => {
    fc.assert(
      fc.property(
        fc.array(pick(5), { minLength: 1, maxLength: 2 }),
        genotype,
        fc.array(genotype, { maxLength: 1 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(d, { minLength: 4, maxLength: 4 }),
        fc.constantFrom(0, 0.05, 0.2),
        fc.constantFrom(0, 0.01, 0.1),
        fc.boolean(),
        (replicates, poi, knowns, extraUnknowns, dropouts, c, theta, poiUnderHd) => {
          const contributors = 1 + knowns.length + extraUnknowns;
          const dropout = dropouts.slice(0, contributors);
          const pop = population({ M: Object.fromEntries(alleles.map((a, i) => [a, freqs[i]!])) });
          let result;
          try {
            result = mixtureLr({
              replicates: replicates.map((r) => profile({ M: r })),
              personOfInterest: profile({ M: poi }),
              knownContributors: knowns.map((k) => profile({ M: k })),
              contributors,
              dropout,
              dropIn: c,
              theta,
              personOfInterestTypedUnderHd: poiUnderHd,
              population: pop,
              frequencyRule: { normalize: false },
            });
          } catch (error) {
            // Under Hd the unknown in the person of interest's place takes the unknowns' drop-out (LRmix), the person of
          // interest's only when Hp has no unknown.
          // Only an Hd that cannot explain the stain may refuse, and then brute force agrees it is impossible.
            expect(error).toBeInstanceOf(MixtureError);
            const hd = bruteForce(alleles, freqs, replicates, knowns.map((g, i) => ({ g, d: dropout[1 + i]! })), poiUnderHd ? [poi] : [], [dropout[1 + knowns.length] ?? dropout[0]!, ...dropout.slice(1 + knowns.length)], c, theta);
            expect(hd).toBe(0);
            return;
          }
          const m = result.markers[0]!;
          const hp = bruteForce(alleles, freqs, replicates, [{ g: poi, d: dropout[0]! }, ...knowns.map((g, i) => ({ g, d: dropout[1 + i]! }))], [], dropout.slice(1 + knowns.length), c, theta);
          const hd = bruteForce(alleles, freqs, replicates, knowns.map((g, i) => ({ g, d: dropout[1 + i]! })), poiUnderHd ? [poi] : [], [dropout[1 + knowns.length] ?? dropout[0]!, ...dropout.slice(1 + knowns.length)], c, theta);
          expect(Math.abs(m.likelihoodHp - hp)).toBeLessThanOrEqual(1e-12 * Math.max(hp, 1e-300));
          expect(Math.abs(m.likelihoodHd - hd)).toBeLessThanOrEqual(1e-12 * hd);
        },
      ),
      { numRuns: 150 },
    );
  });
});
