/**
 * A mixture hit's LR from the search's per-marker tables (server/matching/table-mixture-lr.ts) equals the calculator's
 * (mixtureLr) candidate by candidate, in rankMixture and searchMixture as in the function itself: replicates, known
 * contributors (typed at some markers only), θ, drop-in, normalization, candidates untyped at some markers, alleles the
 * population lacks, and the side list's three-allele genotypes (weighed by the calculator).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MixtureSetting } from '../../../../core/schemas/mixtures';
import { mixtureLr, MixtureError, type MixtureCase } from '../../../../server/genetics/mixture/mixture-lr';
import type { Genotype, PopulationFrequencies } from '../../../../server/genetics/types';
import { genotypeLrPlan, type ComparedColumn, type GenotypeLr } from '../../../../server/matching/genotype-lr-plan';
import { IndexSet } from '../../../../server/matching/index-set';
import { rankMixture } from '../../../../server/matching/mixture-ranking';
import { markerTables, searchMixture } from '../../../../server/matching/mixture-search';
import { searchedIndexes, type MatchRule } from '../../../../server/matching/rule-match';
import { tableMixtureLr } from '../../../../server/matching/table-mixture-lr';

const MARKERS = ['A', 'B', 'C', 'D', 'E'];
const table = { '8': 0.02, '9': 0.08, '10': 0.15, '11': 0.25, '12': 0.2, '13': 0.18, '14': 0.12 };
const population: PopulationFrequencies = { name: 'p', minimumAlleleFrequency: 0.001, markers: new Map(MARKERS.map((m) => [m, { frequencies: new Map(Object.entries(table)), sampleSize: 500 }])) };
const alleles = [...Object.keys(table), '15', '7.3'];
const genotype = fc.tuple(fc.constantFrom(...alleles), fc.constantFrom(...alleles)).map(([a, b]): Genotype => (a === b ? [a] : [a, b]));
/** A person typed at some markers (absent or empty elsewhere). */
const person = fc.array(fc.option(genotype, { freq: 4 }), { minLength: MARKERS.length, maxLength: MARKERS.length }).map((gs) => new Map(gs.flatMap((g, i) => (g === null ? (i % 2 ? [[MARKERS[i]!, [] as Genotype] as const] : []) : [[MARKERS[i]!, g] as const]))));
const replicate = fc.array(fc.uniqueArray(fc.constantFrom(...alleles), { minLength: 0, maxLength: 5 }), { minLength: MARKERS.length, maxLength: MARKERS.length }).map((rs) => new Map(rs.map((r, i) => [MARKERS[i]!, r as Genotype])));
const setting = fc.record({
  contributors: fc.integer({ min: 2, max: 3 }),
  dropout: fc.constantFrom(0.05, 0.2).map((d) => ({ mode: 'fixed' as const, values: [d] })),
  dropIn: fc.constantFrom(0, 0.05),
  theta: fc.constantFrom(0, 0.01),
  personOfInterestTypedUnderHd: fc.boolean(),
  normalizeFrequencies: fc.boolean(),
}) as fc.Arbitrary<MixtureSetting>;

/** The calculator's LR and marker count, 0 over no marker where it refuses the case (as the search reports it). */
function calculator(s: MixtureSetting, replicates: ReadonlyMap<string, Genotype>[], knownContributors: ReadonlyMap<string, Genotype>[], candidate: ReadonlyMap<string, Genotype>) {
  const c: MixtureCase = { replicates, personOfInterest: candidate, knownContributors, contributors: s.contributors, dropout: new Array<number>(s.contributors).fill(s.dropout.mode === 'fixed' ? s.dropout.values[0]! : 0), dropIn: s.dropIn, theta: s.theta, personOfInterestTypedUnderHd: s.personOfInterestTypedUnderHd, population, frequencyRule: { normalize: s.normalizeFrequencies } };
  try {
    const r = mixtureLr(c);
    return { lr: r.lr, markerCount: r.markers.length };
  } catch (error) {
    if (!(error instanceof MixtureError)) throw error;
    return { lr: 0, markerCount: 0 };
  }
}
const close = (actual: number, expected: number) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.max(expected, 1e-300));

describe('a mixture hit weighed from the search tables', () => {
  it('gives the calculator\'s LR and marker count, or null where only the calculator can say', () => {
    fc.assert(
      fc.property(setting, fc.array(replicate, { minLength: 1, maxLength: 2 }), fc.array(person, { maxLength: 1 }), fc.array(person, { minLength: 4, maxLength: 4 }), (s, replicates, knowns, candidates) => {
        fc.pre(knowns.length + 1 <= s.contributors);
        const d = s.dropout.mode === 'fixed' ? s.dropout.values[0]! : 0;
        const tables = markerTables({ setting: s, dropout: new Array<number>(s.contributors).fill(d), dropoutHd: new Array<number>(s.contributors).fill(d) }, { replicates, knownContributors: knowns }, population);
        for (const candidate of candidates) {
          const expected = calculator(s, replicates, knowns, candidate);
          const actual = tableMixtureLr(tables, candidate);
          if (actual === null) {
            expect(expected.lr).toBe(0);
            continue;
          }
          expect(actual.markerCount).toBe(expected.markerCount);
          close(actual.lr, expected.lr);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("plans a column from the stain's tables by allele class, to the bit what weighing each genotype of the column gives", () => {
    fc.assert(
      fc.property(setting, fc.array(replicate, { minLength: 1, maxLength: 2 }), fc.array(person, { minLength: 30, maxLength: 30 }), (s, replicates, people) => {
        const d = s.dropout.mode === 'fixed' ? s.dropout.values[0]! : 0;
        const tables = markerTables({ setting: s, dropout: new Array<number>(s.contributors).fill(d), dropoutHd: new Array<number>(s.contributors).fill(d) }, replicates[0]!, population);
        // Under normalized frequencies an unlisted allele has its own classes: the plan weighs such columns genotype by genotype.
        for (const lr of tables.values()) expect(lr.classes !== undefined).toBe(!s.normalizeFrequencies);
        const set = new IndexSet();
        people.forEach((genotypes, i) => set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'Convicted Offender', genotypes }));
        const index = set.indexes('Autosomal')[0]!;
        const byGenotype = new Map([...tables].map(([marker, lr]) => [marker, (g: Genotype) => lr(g)]));
        const plansOf = (weigh: ReadonlyMap<string, GenotypeLr>): ComparedColumn[] => genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 }).plans;
        const [classed, plain] = [plansOf(tables), plansOf(byGenotype)];
        expect(classed.length).toBe(plain.length);
        classed.forEach((p, m) => {
          // The tables' own bytes (a plan's tables may be views of one buffer): the same bits, −0 and NaN told apart.
          const bits = (t: Float64Array) => new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
          expect(bits(p.table)).toEqual(bits(plain[m]!.table));
          expect(p.compared).toEqual(plain[m]!.compared);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('leaves a three-allele genotype to the calculator', () => {
    const tables = markerTables({ setting: { contributors: 2, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false }, dropout: [0.1, 0.1], dropoutHd: [0.1, 0.1] }, new Map([['A', ['8', '9', '10']]]), population);
    expect(tableMixtureLr(tables, new Map([['A', ['8', '9', '10']]]))).toBeNull();
  });

  it('reports the calculator\'s figures for every candidate of rankMixture and every hit of searchMixture', () => {
    fc.assert(
      fc.property(setting, fc.array(replicate, { minLength: 1, maxLength: 2 }), fc.array(person, { maxLength: 1 }), fc.array(person, { minLength: 6, maxLength: 6 }), (s, replicates, knowns, candidates) => {
        fc.pre(knowns.length + 1 <= s.contributors);
        const set = new IndexSet();
        const upsert = (id: string, genotypes: ReadonlyMap<string, Genotype>, sampleType = 'Convicted Offender') => set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType, genotypes });
        candidates.forEach((c, i) => upsert(`c${i}`, c));
        // A side-list reference: three alleles at a marker.
        const side = new Map(candidates[0]!);
        side.set('A', ['8', '9', '10']);
        upsert('side', side);
        const all = new Map<string, ReadonlyMap<string, Genotype>>([...candidates.map((c, i) => [`c${i}`, c] as const), ['side', side] as const]);
        const frequencies = { id: 'p', frequencies: population };
        const search = () => rankMixture({ evidence: { replicates, knownContributors: knowns }, setting: s, populations: [frequencies], scoped: searchedIndexes(set, 'Autosomal', 'org', ['Convicted Offender']), excludeIds: new Set(), minMarkers: 0, limit: 100 });
        // A stain with no allele typed anywhere is refused with the reason, not weighed (it has no marker to weigh).
        if (replicates.every((r) => [...r.values()].every((alleles) => alleles.length === 0))) {
          expect(search).toThrow(/No chosen population can weigh this evidence: p \(not evaluated: it holds frequencies for none of the profile's 0 markers\)/);
          return;
        }
        const ranked = search();
        expect(ranked.candidates.length).toBe(all.size);
        for (const c of ranked.candidates) {
          const expected = calculator(s, replicates, knowns, all.get(c.profileId)!);
          expect(c.populations[0]!.markerCount).toBe(expected.markerCount);
          close(c.populations[0]!.combinedIndex!, expected.lr);
        }
        const rule: MatchRule = {
          id: 'r', name: 'r', stringency: null, minMarkers: 0, maxMismatches: 0, threshold: { kind: 'likelihood-ratio', value: 1e-300 }, searchedSampleTypes: ['Convicted Offender'],
          analysis: { id: 'mix', kind: 'Mixture', profileKind: 'Autosomal', roles: ['Evidence', 'Person of interest'], threshold: 1, formulae: [], constants: {}, mixture: s },
          populations: [{ id: 'p', name: 'p', synthetic: false, kind: 'Autosomal', frequencies: population, haplotypes: [] }],
        };
        const stain = { id: 'stain', kind: 'Autosomal' as const, chemistryId: 'kit', organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: replicates[0]! };
        for (const m of searchMixture(rule, stain, set).matches) {
          const expected = calculator(s, [replicates[0]!], [], all.get(m.candidateId)!);
          expect(m.populations[0]!.markerCount).toBe(expected.markerCount);
          close(m.populations[0]!.combinedIndex!, expected.lr);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('the ranked mixture search', () => {
  it('lists the `limit` references with the highest smallest LR over the populations, as each reference weighed alone ranks them, across many blocks of the index', () => {
    const second: PopulationFrequencies = { ...population, name: 'q', markers: new Map(MARKERS.map((m, i) => [m, { frequencies: new Map(Object.entries(table).map(([a, f], j) => [a, (j + i) % 3 === 0 ? f * 2 : f])), sampleSize: 300 }])) };
    const setting: MixtureSetting = { contributors: 2, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
    const evidence = { replicates: [new Map(MARKERS.map((m, i) => [m, ['9', '10', '11', '12', '13'].slice(i % 2, i % 2 + 4) as Genotype]))], knownContributors: [] };
    const set = new IndexSet();
    const references = new Map<string, ReadonlyMap<string, Genotype>>();
    // 10,000 references (three blocks of the scan), some untyped at a marker, some of another sample type, one excluded.
    const sample = fc.sample(person, { numRuns: 10_000, seed: 7 });
    sample.forEach((genotypes, i) => {
      const sampleType = i % 17 === 0 ? 'Forensic, Unknown' : 'Convicted Offender';
      set.upsert({ id: `r${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType, genotypes });
      if (sampleType === 'Convicted Offender' && i !== 5) references.set(`r${i}`, genotypes);
    });
    const populations = [{ id: 'p', frequencies: population }, { id: 'q', frequencies: second }];
    const ranked = rankMixture({ evidence, setting, populations, scoped: searchedIndexes(set, 'Autosomal', 'org', ['Convicted Offender']), excludeIds: new Set(['r5']), minMarkers: 3, limit: 40 });
    // Each reference alone: its log10 LR summed from the tables in each population, the smallest ranks it.
    const tables = populations.map((p) => markerTables({ setting, dropout: [0.1, 0.1] }, evidence, p.frequencies));
    const scores = [...references].flatMap(([id, genotypes]) => {
      const lanes = tables.map((t) => [...t].reduce((s, [marker, lr]) => {
        const value = genotypes.get(marker)?.length ? lr(genotypes.get(marker)!) : undefined;
        return value === undefined ? s : { log10: s.log10 + (value > 0 ? Math.log10(value) : -Infinity), markers: s.markers + 1 };
      }, { log10: 0, markers: 0 }));
      return lanes.every((l) => l.markers >= 3) ? [{ id, score: Math.min(...lanes.map((l) => l.log10)) }] : [];
    });
    scores.sort((a, b) => b.score - a.score);
    expect(ranked.searched).toBe(references.size);
    expect(ranked.truncated).toBe(true);
    expect(ranked.candidates.map((c) => c.profileId)).toEqual(scores.slice(0, 40).map((s) => s.id));
  });
});
