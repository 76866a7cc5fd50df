/**
 * The category pass's stages (server/matching/category-stages.ts): after a dense prefix of markers, only the runs of 16
 * profiles that can still reach the need are summed further (issue 29: a mixture or family search drops most profiles
 * after a few markers). However the stages are chosen, the pass must hand over exactly the slots the all-dense pass
 * hands over (every profile whose bounds reach the need), so no hit is lost or added.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/seeded-random';
import { categoryFilter, categoryPass, type CategoryFilter } from '../../../../server/matching/category-pass';
import { categoryStages, type CategoryStages } from '../../../../server/matching/category-stages';
import { fusedScan } from '../../../../server/matching/fused-scan';
import { genotypeLrPlan, type GenotypeLr } from '../../../../server/matching/genotype-lr-plan';
import type { ColumnPlan } from '../../../../server/matching/lookup-table';
import { randomIndex } from './random-index';

const MARKERS = Array.from({ length: 16 }, (_, m) => `M${m}`);

/** As in a mixture: a few alleles of each marker weigh up, any other weighs far down. */
function stainLike(seed: number): Map<string, GenotypeLr> {
  const next = seededRandom(seed);
  return new Map(
    MARKERS.map((marker) => {
      const held = new Map(Array.from({ length: 1 + Math.floor(next() * 3) }, () => [String(15 + Math.floor(next() * 10)), 2 + 3 * next()] as const));
      const lr: GenotypeLr = ([a, b]) => (held.get(a!) ?? 0.003) * (held.get(b ?? a!) ?? 0.003);
      return [marker, lr];
    }),
  );
}

/** Slots per stretch of the pass in these tests: shorter than the pass's own, so a small index has several. */
const STRETCH = 65_536;

function handed(size: number, plans: Parameters<typeof categoryPass>[1], filter: CategoryFilter, stages?: CategoryStages): number[] {
  const slots: number[] = [];
  categoryPass(size, plans, filter, (slot) => slots.push(slot), stages, STRETCH);
  return slots;
}

describe('the category pass in stages', () => {
  it('hands over the same slots as the all-dense pass for every dense prefix and every set of later stages', () => {
    let slots = 0;
    for (const seed of [1, 2, 3]) {
      const index = randomIndex(seed, 3000 + 5 * seed, { markers: MARKERS, alleles: 20, untyped: 0.05 });
      const weigh = stainLike(10 * seed);
      const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
      const sums = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10).filter(Number.isFinite).sort((a, b) => b - a);
      for (const cut of [sums[0]!, sums[5]!, sums[60]!, sums[Math.floor(sums.length / 3)]!]) {
        const plan = genotypeLrPlan(index, weigh, { cut, minMarkers: 0 });
        // genotypeLrPlan's plans are computational: log10 tables.
        const plans = plan.plans as ColumnPlan<Float64Array>[];
        const filter = categoryFilter(plans, cut);
        if (typeof filter !== 'object' || filter === null) continue;
        const chosen = categoryStages(index.size, plans, filter);
        const dense = handed(index.size, plans, filter, { ...chosen, dense: MARKERS.length, stages: [] });
        // Every exact hit is among them (the pass over-estimates).
        const hits = fusedScan([{ ...plan, sideMatches: () => [] }])[0]!.map((m) => Number(m.profileId.slice(1)));
        expect(hits.every((slot) => dense.includes(index.slotOf(`P${slot}`)))).toBe(true);
        slots += dense.length;
        expect(handed(index.size, plans, filter)).toEqual(dense);
        for (let d = 2; d < MARKERS.length; d += 2) {
          const later = Array.from({ length: MARKERS.length - d }, (_, i) => d + 1 + i);
          for (const stages of [[MARKERS.length], later, later.filter((k) => k % 2 === 1 || k === MARKERS.length)]) {
            expect(handed(index.size, plans, filter, { ...chosen, dense: d, stages })).toEqual(dense);
          }
        }
      }
    }
    // The passes handed over slots to compare, from a few (the selective cuts, where the stages drop most runs) to many.
    expect(slots).toBeGreaterThan(1000);
  });

  it("adds each stage's markers to the sums the dense prefix left, stretch by stretch: every profile whose exact sum reaches the cut is handed over", () => {
    // Two whole stretches of the pass and a third cut short: a stage reading another run's sums,
    // or summing a marker twice or not at all, drops or adds profiles in some stretch.
    const index = randomIndex(7, 2 * STRETCH + 16 * 9 + 7, { markers: MARKERS, alleles: 20, untyped: 0.05 });
    const weigh = stainLike(70);
    const probe = genotypeLrPlan(index, weigh, { cut: 0, minMarkers: 0 });
    const exact = Array.from({ length: index.size }, (_, slot) => probe.scoreAt(slot).log10);
    const sums = exact.filter(Number.isFinite).sort((a, b) => b - a);
    for (const cut of [sums[300]!, sums[5000]!]) {
      const plans = genotypeLrPlan(index, weigh, { cut, minMarkers: 0 }).plans as ColumnPlan<Float64Array>[];
      const filter = categoryFilter(plans, cut);
      if (typeof filter !== 'object' || filter === null) throw new Error('expected a category filter');
      const chosen = categoryStages(index.size, plans, filter);
      const reaching = exact.flatMap((sum, slot) => (sum >= cut ? [slot] : []));
      const dense = handed(index.size, plans, filter, { ...chosen, dense: MARKERS.length, stages: [] });
      expect(new Set(reaching.map((slot) => Math.floor(slot / STRETCH))).size).toBeGreaterThan(1);
      for (const [d, stages] of [[2, [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]], [4, [7, 16]], [8, [9, 11, 16]], [10, [16]]] as const) {
        const staged = handed(index.size, plans, filter, { ...chosen, dense: d, stages: [...stages] });
        const kept = new Set(staged);
        expect(reaching.filter((slot) => !kept.has(slot))).toEqual([]);
        expect(staged).toEqual(dense);
      }
    }
  });
});
