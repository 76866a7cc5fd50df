import { beforeAll, describe, expect, it } from 'vitest';
import { compareAlleles } from '../../../../core/alleles';
import { evaluateComputational } from '../../../../server/genetics/evaluate-analysis';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype, PopulationFrequencies } from '../../../../server/genetics/types';
import { unrelatedDistribution, stringencyMatchProbability } from '../../../../server/matching/chance-distribution';
import { compareGenotypes, compareProfiles } from '../../../../server/matching/genotype-comparison';
import { IndexSet } from '../../../../server/matching/index-set';
import { scanAnalysis } from '../../../../server/matching/analysis-scan';
import { markerEvaluator } from '../../../../server/matching/marker-evaluator';
import { isIgnoredMarker } from '../../../../server/matching/profile-index';
import type { MatchAnalysis, MatchPopulation, Stringency } from '../../../../server/matching/types';
import { fbi2015, population as makePopulation } from '../genetics/statistics/engine-fixtures';
import { seededRandom } from '../../../../core/seeded-random';

// GENETICS.md "Expected chance hits": P(LR ≥ t | unrelated) from the matcher's own per-marker evaluator,
// and the probability that a random profile satisfies a CODIS stringency search. Checked against
// brute-force enumeration (evaluateComputational, compareProfiles) on small tables and by simulating
// 1,000,000 unrelated Hardy–Weinberg profiles on the FBI 2015 Caucasian frequencies (Moretti et al. 2016).

const seeded = (name: string, threshold?: number): MatchAnalysis => {
  const a = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((s) => s.name === name)!;
  return {
    id: name,
    kind: a.kind,
    profileKind: a.profileKind,
    roles: a.roles,
    threshold: threshold ?? a.threshold,
    formulae: a.formulae,
    constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])),
  };
};
const asMatchPopulation = (frequencies: PopulationFrequencies): MatchPopulation => ({ id: frequencies.name, kind: 'Autosomal', frequencies, haplotypes: [] });
const profileOf = (markers: Record<string, string[]>): ReadonlyMap<string, Genotype> => new Map(Object.entries(markers));

/** Every Hardy–Weinberg genotype of a list of [allele, frequency] (frequencies already normalised), canonical order. */
function genotypes(alleles: readonly (readonly [string, number])[]): { genotype: string[]; probability: number }[] {
  const out: { genotype: string[]; probability: number }[] = [];
  for (let i = 0; i < alleles.length; i++)
    for (let j = i; j < alleles.length; j++) {
      const [a, p] = alleles[i]!;
      const [b, q] = alleles[j]!;
      out.push(i === j ? { genotype: [a], probability: p * p } : { genotype: [a, b].sort(compareAlleles), probability: 2 * p * q });
    }
  return out;
}

/** Every combination of one genotype per marker, with its probability (markers independent). */
function combinations(perMarker: Record<string, { genotype: string[]; probability: number }[]>) {
  let out: { profile: Map<string, string[]>; probability: number }[] = [{ profile: new Map(), probability: 1 }];
  for (const [marker, list] of Object.entries(perMarker))
    out = out.flatMap((c) => list.map((g) => ({ profile: new Map([...c.profile, [marker, g.genotype]]), probability: c.probability * g.probability })));
  return out;
}

// A small population: D3S1358 sums to 1; vWA sums to 0.8 (the unlisted alleles hold 0.2) and the query's 19 is
// absent (minimum 5/(2N) = 0.05 with N = 50). The brute force writes the unlisted alleles as one allele 30.
const SMALL = makePopulation({ D3S1358: { '15': 0.5, '16': 0.3, '17': 0.2 }, vWA: { '16': 0.5, '17': 0.3 } }, 50);
const SMALL_MODEL: Record<string, [string, number][]> = {
  D3S1358: [['15', 0.5], ['16', 0.3], ['17', 0.2]],
  vWA: [['16', 0.5 / 1.05], ['17', 0.3 / 1.05], ['19', 0.05 / 1.05], ['30', 0.2 / 1.05]],
};
const SMALL_GENOTYPES = Object.fromEntries(Object.entries(SMALL_MODEL).map(([m, alleles]) => [m, genotypes(alleles)]));

/** Exact P(log10 LR ≥ t) over every candidate of the small model, the LR from evaluateComputational (not the matcher's evaluator). */
function exactTail(analysis: MatchAnalysis, query: ReadonlyMap<string, Genotype>, queryRole: 0 | 1) {
  const outcomes = combinations(SMALL_GENOTYPES).map(({ profile, probability }) => {
    const pair = queryRole === 0 ? [query, profile] : [profile, query];
    return { s: evaluateComputational(analysis, pair, SMALL, ['D3S1358', 'vWA']).log10 ?? 0, probability };
  });
  return { outcomes, tail: (t: number) => outcomes.filter((o) => o.s >= t).reduce((sum, o) => sum + o.probability, 0) };
}

function expectBracketed(analysis: MatchAnalysis, query: ReadonlyMap<string, Genotype>, queryRole: 0 | 1) {
  const exact = exactTail(analysis, query, queryRole);
  const sums = [...new Set(exact.outcomes.map((o) => o.s).filter(Number.isFinite))].sort((a, b) => a - b);
  const thresholds = [...sums.slice(1).map((s, i) => (s + sums[i]!) / 2), sums[0]! - 1, sums.at(-1)! + 1];
  for (const step of [0.01, 0.001]) {
    const d = unrelatedDistribution(analysis, query, queryRole, asMatchPopulation(SMALL), { step });
    expect(d.tail(-Infinity).upper).toBeCloseTo(1, 12);
    expect(d.zeroProbability).toBeCloseTo(exact.outcomes.filter((o) => o.s === -Infinity).reduce((s, o) => s + o.probability, 0), 12);
    for (const t of thresholds) {
      expect(d.tail(t).lower, `step ${step}, t ${t}`).toBeLessThanOrEqual(exact.tail(t) + 1e-12);
      expect(d.tail(t).upper, `step ${step}, t ${t}`).toBeGreaterThanOrEqual(exact.tail(t) - 1e-12);
    }
  }
  return exact;
}

describe('unrelatedDistribution against brute-force enumeration with evaluateComputational', () => {
  const query = profileOf({ D3S1358: ['15', '16'], vWA: ['17', '19'] });

  it.each(['Full siblings', 'Parent–child', 'Identity', 'First cousins'])('%s: the bracket holds the exact P(LR ≥ t) (unlisted alleles and a query allele absent from the population)', (name) => {
    expectBracketed(seeded(name), query, 0);
  });

  it('places the query in its role: an asymmetric table gives different distributions for role 0 and role 1, each exact', () => {
    const base = seeded('Full siblings');
    const asymmetric = { ...base, formulae: base.formulae.map((f) => (f.pattern === 'PQ-PP' ? { ...f, expression: '7' } : f)) };
    const homozygous = profileOf({ D3S1358: ['15'], vWA: ['19'] });
    const role0 = expectBracketed(asymmetric, homozygous, 0);
    const role1 = expectBracketed(asymmetric, homozygous, 1);
    const population = asMatchPopulation(SMALL);
    const [d0, d1] = [unrelatedDistribution(asymmetric, homozygous, 0, population), unrelatedDistribution(asymmetric, homozygous, 1, population)];
    const grid = Array.from({ length: 100 }, (_, i) => -2 + i * 0.05 + 0.001);
    expect(grid.some((t) => Math.abs(role1.tail(t) - role0.tail(t)) > 0.01)).toBe(true);
    expect(grid.some((t) => Math.abs(d1.tail(t).upper - d0.tail(t).upper) > 0.01)).toBe(true);
  });

  it('skips Amelogenin and markers without frequencies; a mixture or a lab marking at a marker is not evaluated (factor 1)', () => {
    const analysis = seeded('Full siblings');
    const population = asMatchPopulation(SMALL);
    const plain = unrelatedDistribution(analysis, profileOf({ D3S1358: ['15', '16'] }), 0, population);
    const extra = unrelatedDistribution(analysis, profileOf({ AMEL: ['X', 'Y'], D3S1358: ['15', '16'], TPOX: ['8'], vWA: ['16', '17', '19'] }), 0, population);
    const marking = unrelatedDistribution(analysis, profileOf({ D3S1358: ['15', '16'], vWA: ['OL', '17'] }), 0, population);
    for (const t of [-1, -0.3, 0, 0.4, 0.9, 2])
      for (const other of [extra, marking]) {
        expect(other.tail(t).lower).toBeCloseTo(plain.tail(t).lower, 14);
        expect(other.tail(t).upper).toBeCloseTo(plain.tail(t).upper, 14);
      }
  });

  it('refuses analyses the distribution does not cover, naming them', () => {
    const population = asMatchPopulation(SMALL);
    const query = profileOf({ D3S1358: ['15'] });
    expect(() => unrelatedDistribution(seeded('Parent–child exclusion'), query, 0, population)).toThrow(/autosomal two-role computational.*Exclusion/);
    expect(() => unrelatedDistribution(seeded('Paternity trio'), query, 0, population)).toThrow(/3 roles/);
    expect(() => unrelatedDistribution({ ...seeded('Identity'), profileKind: 'YStr' }, query, 0, population)).toThrow(/YStr/);
  });
});

describe('stringencyMatchProbability', () => {
  const population = asMatchPopulation(SMALL);
  const [p15, p16, p17] = [0.5, 0.3, 0.2];

  it('per marker: high 2pq, moderate p² + q² + 2pq, low 1 − (1 − p − q)², a mixture under moderate (p + q + r)²', () => {
    const query = profileOf({ D3S1358: ['15', '16'] });
    expect(stringencyMatchProbability('high', query, population, { minMarkers: 1, maxMismatches: 0 }).perMarker[0]).toBeCloseTo(2 * p15 * p16, 12);
    expect(stringencyMatchProbability('moderate', query, population, { minMarkers: 1, maxMismatches: 0 }).perMarker[0]).toBeCloseTo((p15 + p16) ** 2, 12);
    expect(stringencyMatchProbability('low', query, population, { minMarkers: 1, maxMismatches: 0 }).perMarker[0]).toBeCloseTo(1 - (1 - p15 - p16) ** 2, 12);
    const mixture = profileOf({ D3S1358: ['15', '16', '17'] });
    expect(stringencyMatchProbability('moderate', mixture, population, { minMarkers: 1, maxMismatches: 0 }).perMarker[0]).toBeCloseTo((p15 + p16 + p17) ** 2, 12);
    expect(stringencyMatchProbability('high', mixture, population, { minMarkers: 1, maxMismatches: 0 }).perMarker[0]).toBe(0);
  });

  it.each<[Stringency, number, number]>([
    ['high', 2, 0],
    ['high', 2, 1],
    ['moderate', 1, 0],
    ['moderate', 2, 1],
    ['low', 2, 0],
    ['low', 1, 1],
  ])('%s, min %i markers, %i mismatches: equals enumeration of every candidate with compareProfiles', (stringency, minMarkers, maxMismatches) => {
    const query = profileOf({ AMEL: ['X'], D3S1358: ['15', '16'], vWA: ['17', '19'], TPOX: ['8'], FGA: ['OL'] });
    let exact = 0;
    for (const { profile, probability } of combinations(SMALL_GENOTYPES)) {
      const { comparedMarkers, mismatches } = compareProfiles(stringency, query, profile, isIgnoredMarker);
      if (comparedMarkers >= minMarkers && mismatches <= maxMismatches) exact += probability;
    }
    const result = stringencyMatchProbability(stringency, query, population, { minMarkers, maxMismatches });
    expect(result.perMarker).toHaveLength(2);
    expect(result.probability).toBeCloseTo(exact, 12);
  });

  it('is 0 when the query has fewer comparable markers than the minimum', () => {
    const query = profileOf({ D3S1358: ['15', '16'], vWA: ['OL'] });
    expect(stringencyMatchProbability('low', query, population, { minMarkers: 2, maxMismatches: 5 })).toEqual({ probability: 0, perMarker: [expect.any(Number)] });
  });
});


describe('validation by simulation: 1,000,000 unrelated Hardy–Weinberg profiles, FBI 2015 Caucasian (Moretti et al. 2016)', () => {
  // The shared file, read in place (../shared/data/frequencies/fbi2015.csv with fbi2015-n.csv).
  const caucasian = fbi2015('Caucasian');
  const population = asMatchPopulation(caucasian);
  const analysis = seeded('Full siblings', 1000);
  // A fixed query on the 20 CODIS core loci (two homozygotes, a few rarer alleles), plus Amelogenin (not compared).
  const query = profileOf({
    AMEL: ['X', 'Y'],
    CSF1PO: ['10', '12'],
    D3S1358: ['15', '17'],
    D5S818: ['11', '13'],
    D7S820: ['8', '10'],
    D8S1179: ['13', '14'],
    D13S317: ['11'],
    D16S539: ['9', '12'],
    D18S51: ['14', '17'],
    D21S11: ['29', '31.2'],
    FGA: ['21', '24'],
    TH01: ['6', '9.3'],
    TPOX: ['8'],
    vWA: ['16', '18'],
    D1S1656: ['15', '17.3'],
    D2S441: ['11', '14'],
    D2S1338: ['17', '23'],
    D10S1248: ['13', '15'],
    D12S391: ['18', '20'],
    D19S433: ['13', '14'],
    D22S1045: ['15', '16'],
  });
  const N = 1_000_000;
  // Tolerance: the simulated frequency f of LR ≥ t must lie in [lower − 4·se, upper + 4·se], se = √(u(1 − u)/N) with
  // u the upper bound (a binomial standard error at the largest admissible value): a false alarm has probability < 1e-4 per check.
  const SE_MULTIPLE = 4;
  const se = (p: number) => Math.sqrt((p * (1 - p)) / N);

  /** Per query marker: the allele sampler (cumulative frequencies, normalised) and per genotype (i, j) the log10 LR and stringency failures. */
  const markers = [...query]
    .filter(([m]) => !isIgnoredMarker(m))
    .map(([marker, genotype]) => {
      const table = [...caucasian.markers.get(marker)!.frequencies];
      const n = table.length;
      const total = table.reduce((s, [, f]) => s + f, 0);
      const cumulative = new Float64Array(n);
      table.reduce((s, [, f], i) => (cumulative[i] = s + f / total), 0);
      const evaluate = markerEvaluator(analysis, marker, caucasian);
      const log10 = new Float64Array(n * n);
      const lowFails = new Uint8Array(n * n);
      const moderateFails = new Uint8Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) {
          const candidate = i === j ? [table[i]![0]] : [table[i]![0], table[j]![0]].sort(compareAlleles);
          const value = evaluate([genotype, candidate]).value;
          log10[i * n + j] = value === null ? 0 : Math.log10(value);
          lowFails[i * n + j] = compareGenotypes('low', genotype, candidate) === 'mismatch' ? 1 : 0;
          moderateFails[i * n + j] = compareGenotypes('moderate', genotype, candidate) === 'mismatch' ? 1 : 0;
        }
      return { marker, n, cumulative, log10, lowFails, moderateFails, alleles: table.map(([a]) => a) };
    });

  /** An allele index drawn from a cumulative table (binary search). */
  const draw = (cumulative: Float64Array, u: number) => {
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  const distribution = unrelatedDistribution(analysis, query, 0, population);
  const fine = unrelatedDistribution(analysis, query, 0, population, { step: 0.001 });
  // Thresholds with an expected count in the hundreds to thousands: upper tails of at most 3e-3, 1e-3, 3e-4.
  const thresholds = [3e-3, 1e-3, 3e-4].map((p) => distribution.thresholdFor(p));
  const low = { maxMismatches: 1, ...stringencyMatchProbability('low', query, population, { minMarkers: 10, maxMismatches: 1 }) };
  const moderate = { maxMismatches: 10, ...stringencyMatchProbability('moderate', query, population, { minMarkers: 10, maxMismatches: 10 }) };

  const over = thresholds.map(() => 0);
  let lowHits = 0;
  let moderateHits = 0;
  /** The first 20,000 simulated profiles, for the scan check. */
  const sample: Map<string, string[]>[] = [];
  beforeAll(() => {
    const random = seededRandom(20_250_612);
    for (let k = 0; k < N; k++) {
      let s = 0;
      let lowFails = 0;
      let moderateFails = 0;
      const keep = k < 20_000 ? new Map<string, string[]>() : null;
      for (const m of markers) {
        const i = draw(m.cumulative, random());
        const j = draw(m.cumulative, random());
        const code = i * m.n + j;
        s += m.log10[code]!;
        lowFails += m.lowFails[code]!;
        moderateFails += m.moderateFails[code]!;
        keep?.set(m.marker, i === j ? [m.alleles[i]!] : [m.alleles[i]!, m.alleles[j]!].sort(compareAlleles));
      }
      for (let t = 0; t < thresholds.length; t++) if (s >= thresholds[t]!) over[t]!++;
      if (lowFails <= low.maxMismatches) lowHits++;
      if (moderateFails <= moderate.maxMismatches) moderateHits++;
      if (keep) sample.push(keep);
    }
  });

  it(`the simulated frequency of LR ≥ t lies in the bracket widened by ${SE_MULTIPLE} binomial standard errors (steps 0.01 and 0.001)`, () => {
    const report = thresholds.map((t, i) => ({ t, simulated: over[i]! / N, bracket: distribution.tail(t), fine: fine.tail(t) }));
    console.info('full siblings, 1e6 unrelated profiles:', JSON.stringify(report));
    for (const { t, simulated: f, bracket, fine: narrow } of report) {
      expect(f * N, `expected count at t = ${t}`).toBeGreaterThan(100);
      for (const b of [bracket, narrow]) {
        expect(f, `t = ${t}`).toBeGreaterThanOrEqual(b.lower - SE_MULTIPLE * se(b.upper));
        expect(f, `t = ${t}`).toBeLessThanOrEqual(b.upper + SE_MULTIPLE * se(b.upper));
      }
      // The finer grid's bracket sits inside the default one (up to the last digit).
      expect(narrow.lower).toBeGreaterThanOrEqual(bracket.lower - 1e-15);
      expect(narrow.upper).toBeLessThanOrEqual(bracket.upper + 1e-15);
    }
  });

  it(`the simulated frequency of a stringency match is within ${SE_MULTIPLE} binomial standard errors (low ≤ 1 mismatch, moderate ≤ 10)`, () => {
    console.info('stringency, 1e6 unrelated profiles:', JSON.stringify({ low: [low.probability, lowHits / N], moderate: [moderate.probability, moderateHits / N] }));
    for (const [{ probability }, hits] of [[low, lowHits], [moderate, moderateHits]] as const) {
      expect(probability).toBeGreaterThan(1e-3);
      expect(Math.abs(hits / N - probability)).toBeLessThanOrEqual(SE_MULTIPLE * se(probability));
    }
    expect(low.perMarker).toHaveLength(20);
  });

  it('the scan over an index of 20,000 of the simulated profiles finds exactly the profiles whose simulated LR reaches the threshold', () => {
    const set = new IndexSet();
    sample.forEach((genotypes, k) => set.upsert({ id: `U${k}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes }));
    const t = thresholds[0]!;
    const found = scanAnalysis(set.index('kit', 'Autosomal'), { analysis: { ...analysis, threshold: 10 ** t }, query, queryRole: 0, population, minMarkers: 0 });
    const expected = sample.filter((profile) => {
      let s = 0;
      for (const m of markers) {
        const g = profile.get(m.marker)!;
        const i = m.alleles.indexOf(g[0]!);
        const j = m.alleles.indexOf(g.at(-1)!);
        s += m.log10[i * m.n + j]!;
      }
      return s >= t;
    }).length;
    expect(expected).toBeGreaterThan(20);
    expect(found).toHaveLength(expected);
  });
});
