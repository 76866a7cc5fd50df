import type { ColumnPlan } from './lookup-table';
import { cheapestStages, largest, type StageCosts } from './stage-plan';

/** What the stages read of a category filter (category-pass.ts): the need and each marker's tables. */
type CategoryFilter = { need: number; markers: readonly { catLo: Uint8Array; catHi: Uint8Array; pair: Uint8Array }[] };

/** Profiles sampled (a run from the middle of the index) to order the markers and choose the stages. */
const SAMPLE = 1024;
// Costs against a dense run's marker (2 bytes of each of 16 profiles read in order, 3 to 5 lookups). A listed run is read
// out of order: its 16 bytes of a column cost a cache line of their own, fetched without the prefetcher's help, so a
// stage pays for a run's marker several times what the dense pass does (issue 29, mixscan34, 1,000,000 profiles, the
// pass's CPU against the one before: 3-person stains 0.86 at SPARSE_COST 2 / STAGE_COST 1 and at 8 / 2, full-sibling
// searches 0.86 at 2 / 1, 0.80 at 8 / 2; at mixk35, its dense markers cheaper, 3-person stains 0.97 of 8 / 2's time at
// 16 / 2, at 16 / 1 and at 24 / 2, full-sibling searches 1.00).
/** Cost of a listed run's marker in a sparse stage (its tables reloaded, its column bytes read out of order). */
const SPARSE_COST = 16;
/** Cost per listed run of a sparse stage, besides its markers (the list and the run's sums read and written). */
const STAGE_COST = 2;
const COSTS: StageCosts = { sparse: SPARSE_COST, stage: STAGE_COST, denseStep: 2 };

/**
 * How the category pass runs (issue 29): the markers in `order` (those that take most from the best a profile can
 * reach first), the first `dense` of them (even, or every marker) over every run of 16 profiles, keeping the runs with
 * a profile that can still reach the need with the most the other markers give; then each stage k of `stages` adds the
 * markers after the previous stage's, up to the first k, to the sums of the runs still listed alone, keeping those that
 * can still reach it, the last stage every marker. A run is dropped only when none of its profiles can reach the need, so the profiles listed at the end are
 * exactly those whose bounds over every marker reach it (the dense pass's answer).
 */
export interface CategoryStages {
  order: number[];
  dense: number;
  stages: number[];
  /** most[k]: the most the markers after the first k of the order can add. */
  most: number[];
}

// Working room reused by every call: a typed array's own memory costs about a microsecond to allocate, and a search
// would otherwise make six per marker. lookups: catLo at 0, catHi at 256, pair at 512 (0 past their ends, as the
// swizzles read); columns: the sample's lo then hi.
const lookups = new Uint8Array(1024);
const columns = new Uint8Array(2 * SAMPLE);
let sampled = new Uint8Array(0);

/** Each marker's bound for each sampled profile, as the pass computes it: marker m's at m·sample (in shared working room, read before the next call). */
function sampledBounds(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: CategoryFilter): { sample: number; bounds: Uint8Array; totals: number[] } {
  const sample = Math.min(size, SAMPLE) & ~15;
  // A run of consecutive profiles from the middle: spread-out slots would each miss the cache.
  const from = ((size - sample) >>> 1) & ~15;
  if (sampled.length < plans.length * sample) sampled = new Uint8Array(plans.length * sample);
  const totals: number[] = [];
  for (const [m, plan] of plans.entries()) {
    const { catLo, catHi, pair } = filter.markers[m]!;
    lookups.fill(0);
    lookups.set(catLo, 0);
    lookups.set(catHi, 256);
    lookups.set(pair, 512);
    // Copied out first: element reads of a view over the columns' shared, growable memory are slow in JavaScript.
    columns.set(plan.lo.subarray(from, from + sample), 0);
    columns.set(plan.hi.subarray(from, from + sample), SAMPLE);
    totals.push(markerBounds(lookups, columns, sampled, m * sample, sample));
  }
  return { sample, bounds: sampled, totals };
}

// The sample's loops are functions of their own, called once per marker (issue 29): inside the per-search functions, V8
// compiled them on the loop's own entry (on-stack replacement) before the code after it had run, and that code then left
// the optimized code on every search (traced: 37 such exits in 100 kinship searches), recompiled on V8's helper threads
// (about 2 ms of CPU a kinship search, beside its 4 ms): two searches on two threads then shared the cores with it.

/** One marker's bound for each sampled profile (from the lookups `table` and the sample's `read` columns), written at `at`; their sum. */
function markerBounds(table: Uint8Array, read: Uint8Array, bounds: Uint8Array, at: number, sample: number): number {
  let total = 0;
  for (let i = 0; i < sample; i++) {
    const bound = table[512 + table[read[i]!]! + table[256 + read[SAMPLE + i]!]!]!;
    bounds[at + i] = bound;
    total += bound;
  }
  return total;
}

/** Adds one marker's bounds (at `at`) to each sampled profile's sum; the runs of 16 with a profile whose sum reaches `least`. */
function runsReaching(sums: Int32Array, bounds: Uint8Array, at: number, runs: number, least: number): number {
  let live = 0;
  for (let r = 0; r < runs; r++) {
    let reaches = 0;
    for (let i = 16 * r; i < 16 * r + 16; i++) {
      const sum = sums[i]! + bounds[at + i]!;
      sums[i] = sum;
      reaches |= sum >= least ? 1 : 0;
    }
    live += reaches;
  }
  return live;
}

/** The stages of the category pass over `size` slots, chosen on a sample to cost least; every marker dense when listing would not pay. */
export function categoryStages(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: CategoryFilter): CategoryStages {
  const markers = plans.length;
  const { sample, bounds, totals } = sampledBounds(size, plans, filter);
  // Arrays pushed from empty, not mapped (issue 29): a mapped array's elements kind depended on whether V8 ran the map
  // inlined or not, and each kind it had not yet seen here left the optimized code ('wrong map').
  const tops: number[] = [];
  const deficit: number[] = [];
  const order: number[] = [];
  for (let m = 0; m < markers; m++) {
    tops.push(largest(filter.markers[m]!.pair));
    deficit.push(tops[m]! * sample - totals[m]!);
    order.push(m);
  }
  order.sort((a, b) => deficit[b]! - deficit[a]! || a - b);
  const most = new Array<number>(markers + 1).fill(0);
  for (let k = markers - 1; k >= 0; k--) most[k] = most[k + 1]! + tops[order[k]!]!;
  const allDense = { order, dense: markers, stages: [], most };
  const runs = sample >>> 4;
  if (runs === 0 || markers < 4) return allDense;
  // alive[k]: the share of sampled runs with a profile that can still reach the need after the first k markers.
  const alive = new Float64Array(markers + 1);
  const sums = new Int32Array(sample);
  alive[0] = 1;
  // A profile can still reach the need after the first k markers when its sum so far is at least need − most[k].
  for (let k = 1; k <= markers; k++) alive[k] = runsReaching(sums, bounds, order[k - 1]! * sample, runs, filter.need - most[k]!) / runs;
  const { dense, stages } = cheapestStages(markers, alive, COSTS);
  if (dense === markers) return allDense;
  return { order, dense, stages, most };
}
