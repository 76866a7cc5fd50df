import type { ColumnPlan } from './lookup-table';
import { ORDERED_CELLS, SUMMED_CELLS } from './placement-kernel';
import { cheapestStages, largest, type StageCosts } from './stage-plan';

/** What the stages read of a pass's byte filter (placement-pass.ts): per marker its kind, allele → category table and each placement's pair bounds. */
export interface StagedFilter {
  markers: readonly { summed: boolean; category: Uint8Array; pairs: readonly Uint8Array[] }[];
}

/**
 * How a placements pass runs (issue 31 "Speed"), as the category pass's stages (category-stages.ts): the markers in
 * `order` (those that take most from the best a profile can reach first, summed over the placements), the first
 * `dense` of them over every run of 16 profiles, keeping the runs in which some profile, in some placement q, can still
 * reach need_q with the most the other markers give it; then each stage k of `stages` adds the markers up to the k-th
 * for the runs still listed alone, keeping those that can still reach, the last stage every marker. A profile is
 * dropped from a placement only when it cannot reach that placement's need, so the masks left at the end are exactly
 * those of the all-dense pass (every profile whose bounds over every marker reach the need).
 */
export interface PlacementStages {
  order: number[];
  dense: number;
  stages: number[];
  /** most[q][k]: the most the markers after the first k of the order can add to placement q's sum. */
  most: number[][];
}

/** Profiles sampled (a run from the middle of the index) to choose the stages (by the kernel), and of them to order the markers (in JavaScript, about 6 ns a profile and marker). */
const SAMPLE = 1024;
const ORDER_SAMPLE = 256;
/**
 * Cost of a marker for a listed run against a dense run's, and per listed run of a stage besides its markers (the
 * verdict, the list written again). A listed run reads 16 bytes of each column, which the dense pass streams: on the
 * ESX17 bench stain at 1,000,000 references (the sample's runs alive: 23% after 13 markers, 14% after 14, 3% after 15),
 * against the old all-dense pass (0.96 of it here) a last stage from 14 markers took 0.94 of its time, from 13 0.95,
 * from 12 (two stages) 0.98, from 9 1.05 (41 interleaved rounds on a loaded machine): a listed run's marker costs 3 to
 * 5 dense ones.
 */
const SPARSE_COST = 4;
const STAGE_COST = 2;
const COSTS: StageCosts = { sparse: SPARSE_COST, stage: STAGE_COST, denseStep: 1 };

// Working room reused by every call (a typed array's own memory costs about a microsecond to allocate): the sample's
// lo then hi column bytes, and how many sampled profiles fall in each pair cell.
const columns = new Uint8Array(2 * SAMPLE);
const cellCounts = new Int32Array(16);

/** The sampled slots: whole runs of 16 from the middle of the index (spread-out slots would each miss the cache). */
export function sampleOf(size: number, most = SAMPLE): { from: number; sample: number } {
  const sample = Math.min(size, most) & ~15;
  return { from: ((size - sample) >>> 1) & ~15, sample };
}

// The sample's loop is a function of its own, called once per marker (as category-stages.ts's, issue 29): V8 compiles
// it once, not on a loop's entry inside a per-search function.

/** How many sampled profiles' alleles fall in each pair cell of a marker, as the kernel finds it (an allele past the table reads category 0), into cellCounts. */
function countCells(category: Uint8Array, table: Uint8Array, sample: number): void {
  const n = category.length;
  cellCounts.fill(0);
  for (let i = 0; i < sample; i++) {
    const lo = columns[i]!;
    const hi = columns[SAMPLE + i]!;
    const cell = table[((lo < n ? category[lo]! : 0) << 4) | (hi < n ? category[hi]! : 0)]!;
    cellCounts[cell] = cellCounts[cell]! + 1;
  }
}

/**
 * The markers in the stages' order, those whose sampled profiles fall furthest under their largest bounds (summed over
 * the placements) first, and most[q][k] for that order.
 */
export function markerOrder(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: StagedFilter, placements: number): { order: number[]; most: number[][] } {
  const { from, sample } = sampleOf(size, ORDER_SAMPLE);
  // Arrays pushed from empty (as category-stages.ts's): their elements' kind the same at every call.
  const tops: number[][] = [];
  const deficit: number[] = [];
  const order: number[] = [];
  for (let m = 0; m < plans.length; m++) {
    const plan = plans[m]!;
    const { summed, category, pairs } = filter.markers[m]!;
    // Copied out first: element reads of a view over the columns' shared, growable memory are slow in JavaScript.
    columns.set(plan.lo.subarray(from, from + sample), 0);
    columns.set(plan.hi.subarray(from, from + sample), SAMPLE);
    countCells(category, summed ? SUMMED_CELLS : ORDERED_CELLS, sample);
    const top: number[] = [];
    let shortfall = 0;
    for (let q = 0; q < placements; q++) {
      const pair = pairs[q]!;
      top.push(largest(pair));
      shortfall += top[q]! * sample;
      for (let c = 0; c < 16; c++) shortfall -= cellCounts[c]! * pair[c]!;
    }
    tops.push(top);
    deficit.push(shortfall);
    order.push(m);
  }
  order.sort((a, b) => deficit[b]! - deficit[a]! || a - b);
  return { order, most: mostAfter(order, tops, placements) };
}

/** most[q][k]: the most the markers after the first k of `order` can add to placement q's sum (tops[m][q]: marker m's largest bound in q). */
export function mostAfter(order: readonly number[], tops: readonly (readonly number[])[], placements: number): number[][] {
  const most: number[][] = [];
  for (let q = 0; q < placements; q++) {
    const row = new Array<number>(order.length + 1).fill(0);
    for (let k = order.length - 1; k >= 0; k--) row[k] = row[k + 1]! + tops[order[k]!]![q]!;
    most.push(row);
  }
  return most;
}

/**
 * The stages that cost least, given alive[k] (k = 1 … markers): the share of sampled runs of 16 in which some profile,
 * in some placement q, can still reach need_q after the first k markers of the order (found by the pass's own kernel on
 * the sample); every marker dense when listing would not pay.
 */
export function chosenStages(order: number[], most: number[][], alive: Float64Array): PlacementStages {
  const { dense, stages } = cheapestStages(order.length, alive, COSTS);
  return { order, dense, stages, most };
}
