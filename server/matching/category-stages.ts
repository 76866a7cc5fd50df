import type { ColumnPlan } from './lookup-table';

/** What the stages read of a category filter (category-pass.ts): the need and each marker's tables. */
type CategoryFilter = { need: number; markers: readonly { catLo: Uint8Array; catHi: Uint8Array; pair: Uint8Array }[] };

/** Profiles sampled (a run from the middle of the index) to order the markers and choose the stages. */
const SAMPLE = 1024;
/** Cost of a listed run's marker in the sparse pass against a dense run's (its tables reloaded, the list read and written). */
const SPARSE_COST = 2;
/** Cost per listed run of a sparse stage, besides its markers. */
const STAGE_COST = 1;

/**
 * How the category pass runs (issue 29): the markers in `order` (those that take most from the best a profile can
 * reach first), the first `dense` of them (even, or every marker) over every run of 16 profiles, keeping the runs with
 * a profile that can still reach the need with the most the other markers give; then each stage k of `stages` sums the
 * first k markers again for the runs still listed alone, keeping those that can still reach it, the last stage every
 * marker. A run is dropped only when none of its profiles can reach the need, so the profiles listed at the end are
 * exactly those whose bounds over every marker reach it (the dense pass's answer).
 */
export interface CategoryStages {
  order: number[];
  dense: number;
  stages: number[];
  /** most[k]: the most the markers after the first k of the order can add. */
  most: number[];
}

/** Each marker's bound for each sampled profile, as the pass computes it (an index past a table reads 0, as a swizzle does). */
function sampledBounds(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: CategoryFilter): { from: number; bounds: Uint8Array[] } {
  const sample = Math.min(size, SAMPLE) & ~15;
  // A run of consecutive profiles from the middle: spread-out slots would each miss the cache.
  const from = ((size - sample) >>> 1) & ~15;
  const bounds = plans.map((plan, m) => {
    // The tables padded to every byte value, as the swizzles read them (0 past their end): no test per lookup.
    const catLo = new Uint8Array(256);
    const catHi = new Uint8Array(256);
    const pair = new Uint8Array(512);
    catLo.set(filter.markers[m]!.catLo);
    catHi.set(filter.markers[m]!.catHi);
    pair.set(filter.markers[m]!.pair);
    // Copied out first: element reads of a view over the columns' shared, growable memory are slow in JavaScript.
    const lo = plan.lo.slice(from, from + sample);
    const hi = plan.hi.slice(from, from + sample);
    const out = new Uint8Array(sample);
    for (let i = 0; i < sample; i++) out[i] = pair[catLo[lo[i]!]! + catHi[hi[i]!]!]!;
    return out;
  });
  return { from, bounds };
}

/** The stages of the category pass over `size` slots, chosen on a sample to cost least; every marker dense when listing would not pay. */
export function categoryStages(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: CategoryFilter): CategoryStages {
  const markers = plans.length;
  const tops = filter.markers.map(({ pair }) => Math.max(0, ...pair));
  const { bounds } = sampledBounds(size, plans, filter);
  const sample = bounds[0]?.length ?? 0;
  const deficit = bounds.map((b, m) => {
    let sum = 0;
    for (let i = 0; i < sample; i++) sum += b[i]!;
    return tops[m]! * sample - sum;
  });
  const order = plans.map((_, m) => m).sort((a, b) => deficit[b]! - deficit[a]! || a - b);
  const most = new Array<number>(markers + 1).fill(0);
  for (let k = markers - 1; k >= 0; k--) most[k] = most[k + 1]! + tops[order[k]!]!;
  const allDense = { order, dense: markers, stages: [], most };
  const runs = sample >>> 4;
  if (runs === 0 || markers < 4) return allDense;
  // alive[k]: the share of sampled runs with a profile that can still reach the need after the first k markers.
  const alive = new Float64Array(markers + 1);
  const sums = new Int32Array(sample);
  alive[0] = 1;
  for (let k = 1; k <= markers; k++) {
    const b = bounds[order[k - 1]!]!;
    let live = 0;
    // A profile can still reach the need when its sum so far is at least this.
    const least = filter.need - most[k]!;
    for (let r = 0; r < runs; r++) {
      let reaches = 0;
      for (let i = 16 * r; i < 16 * r + 16; i++) {
        const sum = sums[i]! + b[i]!;
        sums[i] = sum;
        reaches |= sum >= least ? 1 : 0;
      }
      live += reaches;
    }
    alive[k] = live / runs;
  }
  // best[k]: the least cost of the stages after a stage (or the dense prefix) that ended at k, to the end.
  const best = new Float64Array(markers + 1);
  const next = new Int32Array(markers + 1);
  for (let k = markers - 1; k >= 1; k--) {
    best[k] = Infinity;
    for (let j = k + 1; j <= markers; j++) {
      const cost = alive[k]! * (SPARSE_COST * j + STAGE_COST) + best[j]!;
      if (cost < best[k]!) [best[k], next[k]] = [cost, j];
    }
  }
  let dense = markers;
  let least = markers;
  for (let d = 2; d < markers; d += 2) {
    if (d + best[d]! < least) [least, dense] = [d + best[d]!, d];
  }
  if (dense === markers) return allDense;
  const stages: number[] = [];
  for (let k = dense; k < markers; k = next[k]!) stages.push(next[k]!);
  return { order, dense, stages, most };
}
