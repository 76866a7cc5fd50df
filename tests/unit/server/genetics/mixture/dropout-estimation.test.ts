import { describe, expect, it } from 'vitest';
import { estimateDropout, maximumLikelihoodDropout, monteCarloDropout } from '../../../../../server/genetics/mixture/dropout-estimation';
import type { MixtureCase } from '../../../../../server/genetics/mixture/mixture-lr';
import type { Genotype } from '../../../../../server/genetics/types';
import { fbi2015Population, profileGenerator } from '../../../../../bench/synthetic-profiles';

const P = { '10': 0.1, '11': 0.2, '12': 0.3, '13': 0.25, '14': 0.15 };
const pop = { name: 'test', minimumAlleleFrequency: 0.001, markers: new Map(['M', 'N'].map((m) => [m, { frequencies: new Map(Object.entries(P)), sampleSize: null }])) };
const profile = (g: Record<string, Genotype>) => new Map(Object.entries(g));
const base = (over: Partial<MixtureCase>): MixtureCase => ({
  replicates: [profile({ M: ['10'] })],
  personOfInterest: profile({ M: ['10', '11'] }),
  knownContributors: [],
  contributors: 1,
  dropout: [0],
  dropIn: 0.05,
  theta: 0,
  personOfInterestTypedUnderHd: true,
  population: pop,
  frequencyRule: { normalize: false },
  ...over,
});

describe('drop-out estimation', () => {
  it('maximum likelihood under Hp by hand: (1 − d)d peaks at ½; with a second, complete marker d(1 − d)³ peaks at ¼', () => {
    expect(maximumLikelihoodDropout(base({}), 'Hp').d).toBeCloseTo(0.5, 6);
    const two = base({ replicates: [profile({ M: ['10'], N: ['12', '13'] })], personOfInterest: profile({ M: ['10', '11'], N: ['12', '13'] }) });
    const { d, log10Likelihood } = maximumLikelihoodDropout(two, 'Hp');
    expect(d).toBeCloseTo(0.25, 6);
    expect(log10Likelihood).toBeCloseTo(Math.log10(0.25 * 0.75 ** 3 * 0.95 ** 2), 10);
    // Nothing dropped: the likelihood (1 − d)² is highest at the lowest drop-out.
    expect(maximumLikelihoodDropout(base({ replicates: [profile({ M: ['10', '11'] })] }), 'Hp').d).toBeLessThan(1e-5);
  });

  it('Monte Carlo: the same case gives the same estimate; more alleles missing gives a higher drop-out', () => {
    const population = fbi2015Population();
    const person = profileGenerator(population, 3)();
    const markers = [...person.keys()];
    const complete = base({ replicates: [person], personOfInterest: person, population, dropIn: 0 });
    // Every other marker loses its last allele.
    const partial = base({ replicates: [new Map(markers.map((m, i) => [m, i % 2 === 0 && person.get(m)!.length === 2 ? [person.get(m)![0]!] : person.get(m)!]))], personOfInterest: person, population, dropIn: 0 });
    const low = monteCarloDropout(complete, 'Hd');
    expect(monteCarloDropout(complete, 'Hd')).toEqual(low);
    const high = monteCarloDropout(partial, 'Hd');
    expect(low.accepted).toBeGreaterThan(100);
    expect(high.accepted).toBeGreaterThan(100);
    expect(high.conservative!).toBeGreaterThan(low.conservative!);
    expect(low.observedAlleles).toBe(markers.reduce((s, m) => s + person.get(m)!.length, 0));
    const both = estimateDropout(partial, 'Hp');
    expect(both.hypothesis).toBe('Hp');
    expect(both.maximumLikelihood).toBeGreaterThan(0.05);
    expect(both.conservative!).toBeGreaterThan(both.maximumLikelihood);
  });
});
