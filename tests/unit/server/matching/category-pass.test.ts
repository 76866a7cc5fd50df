/**
 * The SIMD category pass (server/matching/category-pass.ts, category-kernel.ts) filters a computational search with
 * per-marker bounds looked up by allele category and confirms exactly: whatever the tables, the fused pass must return
 * what the exact verdict of every profile returns, in the same order with the same figures, no hit lost.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { planAnalysis, scanAnalysis } from '../../../../server/matching/analysis-scan';
import { CATEGORY_STRETCH, categoryFilter, categoryPass } from '../../../../server/matching/category-pass';
import { fusedScan, type FusablePlan } from '../../../../server/matching/fused-scan';
import { genotypeLrPlan, type GenotypeLr } from '../../../../server/matching/genotype-lr-plan';
import { IndexSet } from '../../../../server/matching/index-set';
import { seededRandom } from '../../../../core/seeded-random';
import { randomIndex } from './random-index';
import type { ColumnPlan } from '../../../../server/matching/lookup-table';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const population = fbi2015Population('Caucasian');
const matchPopulation: MatchPopulation = { id: 'fbi', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const fullSiblings = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses)
  .filter((a) => a.name === 'Full siblings')
  .map((a): MatchAnalysis => ({ id: a.name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) }))[0]!;

const MARKERS = ['M1', 'M2', 'M3', 'M4', 'M5', 'M6', 'M7'];

/** An index of `size` random profiles over 7 markers with up to `alleles` alleles each (some untyped), not a multiple of 16. */
const randomIndexOf = (seed: number, size: number, alleles: number) => randomIndex(seed, size, { markers: MARKERS, alleles, untyped: 0.08 });

/** Per marker an LR that depends on which of a few "special" alleles the genotype holds (some outside the index), 0 at times. */
function categoricalWeigh(seed: number): Map<string, GenotypeLr> {
  const next = seededRandom(seed);
  return new Map(
    MARKERS.map((marker) => {
      const specials = new Map(Array.from({ length: 1 + Math.floor(next() * 6) }, () => [String(5 + Math.floor(next() * 40)), next() < 0.1 ? 0 : 0.05 + 20 * next()] as const));
      const other = next() < 0.2 ? 0 : 0.01 + next();
      const lr: GenotypeLr = (genotype) => genotype.reduce((product, allele) => product * (specials.get(allele) ?? other), genotype.length === 1 ? 1.5 : 1);
      return [marker, lr];
    }),
  );
}

/** The plan's category filter (null: the lanes run it). */
const filterOf = (plan: FusablePlan) => (plan.kind === 'computational' ? categoryFilter(plan.plans, plan.cut) : null);

/** What every profile's exact verdict gives, in the fused pass's order: the side list, then the slots in order. */
function exactly(plan: FusablePlan) {
  const found = plan.sideMatches();
  for (let slot = 0; slot < plan.index.size; slot++) {
    const match = plan.matchAt(slot);
    if (match) found.push(match);
  }
  return found;
}

describe('the category pass', () => {
  it('finds exactly the profiles each exact verdict keeps, for random category tables, thresholds around the hits and up to 64 alleles', () => {
    let categorical = 0;
    let hits = 0;
    for (const [seed, alleles] of [
      [1, 10],
      [2, 30],
      [3, 60],
    ] as const) {
      const index = randomIndexOf(seed, 1000 + 7 * seed, alleles);
      for (let t = 0; t < 6; t++) {
        const weigh = categoricalWeigh(100 * seed + t);
        const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
        // Thresholds at the very sums of a few profiles (a tie must be kept), and beyond everybody's.
        const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).filter(Number.isFinite).sort((a, b) => b - a);
        for (const cut of [sums[0]!, sums[3]!, sums[40]!, sums[Math.floor(sums.length / 2)]!, sums[0]! + 1]) {
          const plan = genotypeLrPlan(index, weigh, { cut, minMarkers: 3 });
          if (typeof filterOf(plan) === 'object' && filterOf(plan) !== null) categorical++;
          const expected = exactly(plan);
          hits += expected.length;
          expect(fusedScan([plan])[0]).toEqual(expected);
        }
      }
    }
    // The pass itself was held to the verdicts, not only the lanes it falls back to.
    expect(categorical).toBeGreaterThan(60);
    expect(hits).toBeGreaterThan(200);
  });

  it('reads alleles past the first 16 of a dictionary as the category they share, the hits carrying them included', () => {
    // Dictionaries of about 60 alleles in order of first appearance; the query's alleles among the first; hits need the rest.
    const index = randomIndexOf(11, 2000 + 9, 60);
    const weigh = new Map<string, GenotypeLr>(MARKERS.map((m) => [m, (g) => g.reduce((p, a) => p * (a === '5' || a === '6' ? 0.2 : 3), 1)]));
    const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
    const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).sort((a, b) => b - a);
    for (const rank of [0, 10, 300]) {
      const plan = genotypeLrPlan(index, weigh, { cut: sums[rank]!, minMarkers: 0 });
      // Some dictionary is longer than the chunks the pass reads: its alleles past them are read as 0.
      const filter = filterOf(plan) as { alleleChunks: number };
      expect(16 * filter.alleleChunks).toBeLessThan(Math.max(...plan.plans.map((p) => p.alleles!)));
      const expected = exactly(plan);
      expect(expected.length).toBeGreaterThan(rank);
      expect(fusedScan([plan])[0]).toEqual(expected);
    }
  });

  it('groups alleles that differ a little when there are too many categories, and still finds exactly the verdicts\' hits', () => {
    const index = randomIndexOf(7, 501, 30);
    // Every allele its own value: dozens of categories, grouped with a tolerance (each pair bounded by its largest).
    const weigh = new Map<string, GenotypeLr>(MARKERS.map((m) => [m, (g) => g.reduce((p, a) => p * (0.2 + Number(a) / 20), 1)]));
    const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
    const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).sort((a, b) => b - a);
    for (const rank of [0, 20, 200]) {
      const plan = genotypeLrPlan(index, weigh, { cut: sums[rank]!, minMarkers: 0 });
      expect(filterOf(plan)).toHaveProperty('need');
      expect(fusedScan([plan])[0]).toEqual(exactly(plan));
    }
  });

  it("fits a stain's six alleles and the others (seven categories, the untyped among them) in three chunks of pairs, still exact", () => {
    // Six alleles of distinct LRs and every other allele alike: seven categories, whose 49 pairs took four chunks when
    // the untyped had a category of its own. The others' pair is the least: it is the cell past the three chunks.
    const index = randomIndexOf(12, 3000 + 5, 14);
    const lrs = new Map(['5', '6', '7', '8', '9', '10'].map((a, i) => [a, 0.6 + 0.7 * i] as const));
    const copies = (g: Genotype) => (g.length === 1 ? [g[0]!, g[0]!] : g);
    const weigh = new Map<string, GenotypeLr>(MARKERS.map((m) => [m, (g) => copies(g).reduce((p, a) => p * (lrs.get(a) ?? 0.02), 1)]));
    const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
    const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).sort((a, b) => b - a);
    for (const rank of [0, 30, 600, 2000]) {
      const plan = genotypeLrPlan(index, weigh, { cut: sums[rank]!, minMarkers: 0 });
      expect(filterOf(plan)).toHaveProperty('pairChunks', 3);
      const expected = exactly(plan);
      expect(expected.length).toBeGreaterThan(rank);
      expect(fusedScan([plan])[0]).toEqual(expected);
    }
  });

  it("reads an index of several of the pass's stretches, the last one partial, as the exact verdicts do", () => {
    // Two whole stretches (of a quarter of the pass's own) and a third cut short, not a multiple of 16: hits in each, at
    // and near their edges. The pass over its own stretches (one here) finds what the exact verdicts find, and the pass
    // over the short stretches hands over the same slots.
    const stretch = CATEGORY_STRETCH / 4;
    const index = randomIndexOf(21, 2 * stretch + 16 * 37 + 5, 14);
    const lrs = new Map(['5', '6', '7', '8', '9', '10'].map((a, i) => [a, 0.6 + 0.7 * i] as const));
    const copies = (g: Genotype) => (g.length === 1 ? [g[0]!, g[0]!] : g);
    const weigh = new Map<string, GenotypeLr>(MARKERS.map((m) => [m, (g) => copies(g).reduce((p, a) => p * (lrs.get(a) ?? 0.02), 1)]));
    const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
    const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).sort((a, b) => b - a);
    for (const rank of [300, 3000, 12_000]) {
      const plan = genotypeLrPlan(index, weigh, { cut: sums[rank]!, minMarkers: 0 });
      const filter = filterOf(plan);
      if (typeof filter !== 'object' || filter === null || plan.kind !== 'computational') throw new Error('expected a category filter');
      const expected = exactly(plan);
      const blocks = new Set(expected.map((m) => Math.floor(index.slotOf(m.profileId) / stretch)));
      expect(blocks.size).toBe(3);
      expect(fusedScan([plan])[0]).toEqual(expected);
      const handed = (by?: number) => {
        const slots: number[] = [];
        categoryPass(index.size, plan.plans as ColumnPlan<Float64Array>[], filter, (slot) => slots.push(slot), undefined, by);
        return slots;
      };
      expect(handed(stretch)).toEqual(handed());
    }
  });

  it('leaves a dictionary of more than 64 alleles to the lanes, still exact', () => {
    const index = randomIndexOf(8, 3001, 120);
    const weigh = categoricalWeigh(5);
    const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
    const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).filter(Number.isFinite).sort((a, b) => b - a);
    const plan = genotypeLrPlan(index, weigh, { cut: sums[30]!, minMarkers: 0 });
    expect(filterOf(plan)).toBeNull();
    expect(fusedScan([plan])[0]).toEqual(exactly(plan));
  });

  it('runs a full-sibling search on the pass and finds what the exact scan finds, the siblings included, with query alleles outside the index', () => {
    const generate = profileGenerator(population, 5);
    const set = new IndexSet();
    const query = generate();
    // An allele no profile of the index holds.
    query.set('D21S11', ['99', query.get('D21S11')![0]!]);
    for (let i = 0; i < 2003; i++) set.upsert({ id: `U${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: i % 97 === 0 ? siblingOf(query, population, i) : generate() });
    const index = set.index('kit', 'Autosomal');
    for (const threshold of [1, 100, 10_000]) {
      const request = { analysis: { ...fullSiblings, threshold }, query, queryRole: 0 as const, population: matchPopulation, minMarkers: 6 };
      const plan = planAnalysis(index, request)!;
      expect(filterOf(plan)).toHaveProperty('need');
      const found = fusedScan([plan])[0]!;
      expect(found).toEqual(scanAnalysis(index, request));
      if (threshold === 100) expect(found.filter((m) => Number(m.profileId.slice(1)) % 97 === 0).length).toBeGreaterThan(10);
    }
  });
});
