/**
 * The category pass's kernel (server/matching/category-kernel.ts): one dense function per count of pair-table chunks,
 * the first clearing the sums, the last listing the runs. Whatever tables a search gives, the pass must hand over
 * exactly the slots whose bounds, looked up and summed here in plain JavaScript, reach the need.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../core/seeded-random';
import { MAX_CHUNKS } from '../../../../server/matching/category-kernel';
import { categoryPass, type CategoryFilter } from '../../../../server/matching/category-pass';
import { categoryStages, type CategoryStages } from '../../../../server/matching/category-stages';
import { genotypeLrPlan } from '../../../../server/matching/genotype-lr-plan';
import type { ColumnPlan } from '../../../../server/matching/lookup-table';
import { largest } from '../../../../server/matching/stage-plan';
import { randomIndex } from './random-index';

// An odd count: the dense pass pairs the last marker with a record of zero tables.
const MARKERS = Array.from({ length: 9 }, (_, m) => `M${m}`);

/** Random tables for every marker, marker m's pair table filling 1 + m mod 4 chunks (its last chunk's last cell above 0). */
function forcedFilter(seed: number, plans: readonly ColumnPlan<Float64Array>[]): Omit<CategoryFilter, 'need'> {
  const next = seededRandom(seed);
  const alleleChunks = 2;
  const pairChunks = MAX_CHUNKS;
  const markers = plans.map((_, m) => {
    const chunks = 1 + (m % pairChunks);
    // lo's and hi's categories add to at most 126: the kernel adds them as bytes.
    const catLo = Uint8Array.from({ length: 16 * alleleChunks }, () => Math.floor(next() * 64));
    const catHi = Uint8Array.from({ length: 16 * alleleChunks }, () => Math.floor(next() * 63));
    const pair = Uint8Array.from({ length: 16 * pairChunks }, (_, cell) => (cell < 16 * chunks ? Math.floor(next() * 128) : 0));
    pair[16 * chunks - 1] = 1 + Math.floor(next() * 127);
    return { catLo, catHi, pair };
  });
  return { alleleChunks, pairChunks, markers };
}

/** Every slot's sum of bounds as the kernel reads them: alleles past the tables in category 0, cells past them 0. */
function referenceSums(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: Omit<CategoryFilter, 'need'>): number[] {
  const sums = new Array<number>(size).fill(0);
  for (const [m, plan] of plans.entries()) {
    const { catLo, catHi, pair } = filter.markers[m]!;
    for (let slot = 0; slot < size; slot++) {
      const cell = (catLo[plan.lo[slot]!] ?? 0) + (catHi[plan.hi[slot]!] ?? 0);
      sums[slot] = sums[slot]! + (pair[cell] ?? 0);
    }
  }
  return sums;
}

describe('the category kernel', () => {
  it('hands over exactly the slots whose bounds reach the need, for pairs of markers read in 1 to 4 chunks, dense or in stages, over several stretches', () => {
    let compared = 0;
    for (const seed of [1, 2, 3]) {
      const index = randomIndex(seed, 4000 + 16 * seed + seed, { markers: MARKERS, alleles: 40, untyped: 0.05 });
      const plans = genotypeLrPlan(index, new Map(MARKERS.map((m) => [m, () => 1])), { cut: 0, minMarkers: 0 }).plans as ColumnPlan<Float64Array>[];
      const forced = forcedFilter(10 * seed, plans);
      const sums = referenceSums(index.size, plans, forced);
      const whole = index.size - (index.size % 16);
      const sorted = sums.slice(0, whole).sort((a, b) => b - a);
      for (const rank of [5, 100, 1000, whole - 1]) {
        const filter: CategoryFilter = { ...forced, need: sorted[rank]! };
        // Every slot reaching the need, and every slot of the last, incomplete run (the pass reads whole vectors).
        const expected = sums.flatMap((sum, slot) => (sum >= filter.need || slot >= whole ? [slot] : []));
        const chosen = categoryStages(index.size, plans, filter);
        const order = MARKERS.map((_, m) => m).reverse();
        const most = new Array<number>(MARKERS.length + 1).fill(0);
        for (let k = MARKERS.length - 1; k >= 0; k--) most[k] = most[k + 1]! + largest(filter.markers[order[k]!]!.pair);
        const plansOfStages: CategoryStages[] = [chosen, { order, dense: MARKERS.length, stages: [], most }, { order, dense: 4, stages: [6, 9], most }, { order, dense: 2, stages: [3, 4, 5, 6, 7, 8, 9], most }];
        for (const stages of plansOfStages) {
          for (const stretch of [1024, undefined]) {
            const handed: number[] = [];
            categoryPass(index.size, plans, filter, (slot) => handed.push(slot), stages, stretch);
            expect(handed).toEqual(expected);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(3 * 4 * 4 * 2);
  });
});
