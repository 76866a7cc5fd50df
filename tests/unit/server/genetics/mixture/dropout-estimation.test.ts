import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../../core/seeded-random';
import { alleleFrequency } from '../../../../../server/genetics/statistics/allele-frequency';
import { estimateDropout, maximumLikelihoodDropout, monteCarloDropout } from '../../../../../server/genetics/mixture/dropout-estimation';
import { monteCarloDropouts } from '../../../../../server/genetics/mixture/monte-carlo-dropout';
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
    expect(both.maximumLikelihood!).toBeGreaterThan(0.05);
    expect(both.conservative!).toBeGreaterThan(both.maximumLikelihood!);
  });
});

/**
 * The Monte-Carlo estimate as GENETICS.md describes it, written plainly (alleles as text, a Set per replicate): the
 * engine's faster loop must draw the same numbers in the same order and keep the same values.
 */
function plainMonteCarlo(c: MixtureCase, hypothesis: 'Hp' | 'Hd', seed = 20_240_601) {
  const random = seededRandom(seed);
  const markers = [...new Set(c.replicates.flatMap((r) => [...r.keys()]))].filter((m) => c.population.markers.has(m));
  const observed = markers.reduce((s, m) => s + c.replicates.reduce((t, r) => t + new Set(r.get(m) ?? []).size, 0), 0);
  const setup = markers.map((m) => {
    const poi = c.personOfInterest.get(m);
    const known = c.knownContributors.flatMap((k) => (k.get(m)?.length ? [k.get(m)!] : []));
    const typed = (hypothesis === 'Hp' && poi?.length ? [poi, ...known] : known).map((g) => (g.length === 1 ? [g[0]!, g[0]!] : [...g]));
    const table = [...c.population.markers.get(m)!.frequencies.keys()];
    const weights = table.map((a) => alleleFrequency(c.population, m, a));
    const total = weights.reduce((s, w) => s + w, 0);
    let acc = 0;
    const cumulative = weights.map((w) => (acc += w) / total);
    return { typed, unknowns: c.contributors - typed.length, table, cumulative, replicates: c.replicates.filter((r) => r.has(m)).length };
  });
  const draw = (table: string[], cumulative: number[]) => {
    const u = random();
    let i = 0;
    while (i < cumulative.length - 1 && cumulative[i]! < u) i++;
    return table[i]!;
  };
  const kept: number[] = [];
  let tried = 0;
  while (kept.length < 1000 && tried < 200_000) {
    tried++;
    const d = random();
    let count = 0;
    for (const { typed, unknowns, table, cumulative, replicates } of setup) {
      const copies = typed.flat();
      for (let u = 0; u < unknowns; u++) copies.push(draw(table, cumulative), draw(table, cumulative));
      for (let r = 0; r < replicates; r++) {
        const seen = new Set<string>();
        for (const a of copies) if (random() >= d) seen.add(a);
        if (random() < c.dropIn) seen.add(draw(table, cumulative));
        count += seen.size;
      }
    }
    if (count === observed) kept.push(d);
  }
  kept.sort((a, b) => a - b);
  return { conservative: kept.length === 0 ? null : kept[Math.min(kept.length - 1, Math.ceil(0.95 * kept.length) - 1)]!, accepted: kept.length, tried };
}

describe('the Monte-Carlo drop-out, against the plain loop', () => {
  const fbi = fbi2015Population('Caucasian');
  const people = Array.from({ length: 4 }, (_, i) => profileGenerator(fbi, 900 + i)());
  const stainOf = (persons: ReadonlyMap<string, Genotype>[], skip: number) => {
    let k = 0;
    return new Map([...persons[0]!.keys()].map((m) => [m, [...new Set(persons.flatMap((p) => [...(p.get(m) ?? [])]))].filter(() => k++ % skip !== 1)]));
  };
  const cases: [string, Partial<MixtureCase>, 'Hp' | 'Hd'][] = [
    ['one contributor, Hd', { contributors: 1, replicates: [stainOf(people.slice(0, 1), 7)] }, 'Hd'],
    ['two contributors, two replicates, Hd', { contributors: 2, replicates: [stainOf(people.slice(0, 2), 5), stainOf(people.slice(0, 2), 9)] }, 'Hd'],
    // No drop-in: a try that cannot match steps over the rest of its numbers in one stride.
    ['three contributors, two replicates, no drop-in, Hd', { contributors: 3, dropIn: 0, replicates: [stainOf(people.slice(0, 3), 13), stainOf(people.slice(0, 3), 6)] }, 'Hd'],
    ['three contributors, a known one with an allele outside the table, Hp', {
      contributors: 3,
      replicates: [stainOf(people.slice(0, 3), 11)],
      personOfInterest: people[0]!,
      knownContributors: [new Map([...people[1]!].map(([m, g]) => [m, m === 'D8S1179' ? ['99.3', g[0]!] : g]))],
    }, 'Hp'],
  ];
  it.each(cases)('%s', (_, over, hypothesis) => {
    const c = base({ population: fbi, personOfInterest: new Map(), theta: 0.01, ...over });
    const fast = monteCarloDropout(c, hypothesis);
    const plain = plainMonteCarlo(c, hypothesis);
    expect(plain.accepted).toBeGreaterThan(0);
    expect({ conservative: fast.conservative, accepted: fast.accepted, tried: fast.tried }).toEqual(plain);
  });
});

describe('the Monte-Carlo drop-outs of several populations, simulated together', () => {
  const populations = ['Caucasian', 'African American', 'SE Hispanic', 'Filipino'].map((name) => fbi2015Population(name));
  const people = Array.from({ length: 3 }, (_, i) => profileGenerator(populations[0]!, 700 + i)());
  let k = 0;
  const stain = new Map([...people[0]!.keys()].map((m) => [m, [...new Set(people.flatMap((p) => [...p.get(m)!]))].filter(() => k++ % 13 !== 3)]));
  // A population without one of the stain's markers draws at other places: it is simulated apart, and still the same.
  const [lacking] = [...stain.keys()];
  const partial = { ...populations[1]!, name: 'partial', markers: new Map([...populations[1]!.markers].filter(([m]) => m !== lacking)) };
  const cases = [...populations, partial].map((population) => base({ population, contributors: 3, theta: 0.01, personOfInterest: new Map(), replicates: [stain] }));

  it("gives each population a mixture search's Hd estimate of the plain loop, one at a time or together", () => {
    const together = monteCarloDropouts(cases, 'Hd');
    const plain = cases.map((c) => plainMonteCarlo(c, 'Hd'));
    expect(together.map((e) => ({ conservative: e.conservative, accepted: e.accepted, tried: e.tried }))).toEqual(plain);
    expect(cases.map((c) => monteCarloDropout(c, 'Hd'))).toEqual(together);
    // The populations' estimates differ (their alleles differ), and the one without a marker counts fewer alleles.
    expect(new Set(together.map((e) => e.tried)).size).toBe(cases.length);
    expect(together[4]!.observedAlleles).toBeLessThan(together[0]!.observedAlleles);
  });

  it('gives each population the plain loop\'s estimate with two replicates, a known contributor and the person of interest under Hp, with and without drop-in', () => {
    // Eight markers keep the plain loop short.
    const first = new Map([...stain].slice(0, 8));
    let j = 0;
    const second = new Map([...first].map(([m, g]) => [m, g.filter(() => j++ % 5 !== 2)]));
    for (const dropIn of [0.05, 0]) {
      const pair = populations.slice(0, 2).map((population) => base({ population, contributors: 3, theta: 0.01, dropIn, personOfInterest: people[0]!, knownContributors: [people[1]!], replicates: [first, second] }));
      const together = monteCarloDropouts(pair, 'Hp');
      expect(together.map((e) => ({ conservative: e.conservative, accepted: e.accepted, tried: e.tried }))).toEqual(pair.map((c) => plainMonteCarlo(c, 'Hp')));
      // Each alone takes the one-case loop: the same values.
      expect(pair.map((c) => monteCarloDropout(c, 'Hp'))).toEqual(together);
    }
  });
});

describe('the Monte-Carlo tries kept between estimates (issue 29)', () => {
  const fbi = fbi2015Population('Caucasian');
  const people = Array.from({ length: 6 }, (_, i) => profileGenerator(fbi, 500 + i)());
  // Eight markers keep the plain loop short; every stain below has the same markers, so the same layout.
  const markers = [...people[0]!.keys()].slice(0, 8);
  const stainOf = (persons: ReadonlyMap<string, Genotype>[], skip: number) => {
    let k = 0;
    return new Map(markers.map((m) => [m, [...new Set(persons.flatMap((p) => [...p.get(m)!]))].filter((_, i) => i === 0 || k++ % skip !== 1)]));
  };
  const caseOf = (stain: ReadonlyMap<string, Genotype>, population = fbi) => base({ population, contributors: 3, theta: 0.01, personOfInterest: new Map(), replicates: [stain] });
  const estimate = (c: MixtureCase) => {
    const e = monteCarloDropout(c, 'Hd');
    return { conservative: e.conservative, accepted: e.accepted, tried: e.tried };
  };

  it('gives stains of one layout, one after another, each its own plain-loop estimate', () => {
    const stains = [stainOf(people.slice(0, 3), 4), stainOf(people.slice(2, 4), 3), stainOf(people.slice(3, 6), 2), stainOf(people.slice(0, 3), 4)];
    const estimates = stains.map((s) => estimate(caseOf(s)));
    expect(estimates).toEqual(stains.map((s) => plainMonteCarlo(caseOf(s), 'Hd')));
    expect(new Set(estimates.map((e) => e.tried)).size).toBeGreaterThan(1);
  });

  it("never answers from a population's former frequencies once they changed", () => {
    const stain = stainOf(people.slice(0, 3), 3);
    const before = estimate(caseOf(stain));
    // The same population, its commonest allele at each marker made rarer (an upload of new statistics).
    const changed = { ...fbi, markers: new Map([...fbi.markers].map(([m, f]) => {
      const [top] = [...f.frequencies].sort((a, b) => b[1] - a[1]);
      return [m, { ...f, frequencies: new Map([...f.frequencies].map(([a, p]) => [a, a === top![0] ? p / 4 : p])) }];
    })) };
    const after = estimate(caseOf(stain, changed));
    expect(after).toEqual(plainMonteCarlo(caseOf(stain, changed), 'Hd'));
    expect(after).not.toEqual(before);
    // And back: the former frequencies give the former estimate.
    expect(estimate(caseOf(stain))).toEqual(before);
  });
});
