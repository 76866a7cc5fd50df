import type { ColumnPlan } from './lookup-table';
import { FAIL } from './count-codes';
import { countFilter, FILTER_SLOTS, type CountFilter } from './count-filter';
import { FILTER_RECORD } from './count-listing';
import { LookupKernel } from './lookup-kernel';
import { memoryOf } from './shared-memory';

/** Profiles per block: the block's accumulators and selection vector stay in the L1 cache. */
const BLOCK = 4096;

export { COMPARED, FAIL } from './count-codes';

/**
 * Counts compared and failed markers (identity stringency, exclusions) over slots 0 … size−1, block by
 * block: the first marker is looked up for every profile, each further marker only for the profiles
 * still within `maxFails`, so a search with few mismatches allowed reads little beyond one column.
 * Columns in an index's column memory are scanned by the WebAssembly kernel where they lie (issue 29),
 * others by {@link countScanLoop}; both report the same profiles with the same counts, in slot order.
 */
export function countScan(size: number, plans: readonly ColumnPlan<Uint32Array>[], maxFails: number, minCompared: number, onHit: (slot: number, compared: number, fails: number) => void): void {
  // No profile fails more markers than are compared: a larger allowance (an exclusion threshold of 1e300) is that
  // many, and the kernel's 32-bit limit stays exact (ToInt32 of an overflowed limit would let nobody through).
  const allowed = Math.min(maxFails, plans.length);
  const memory = plans.length > 0 ? memoryOf(plans[0]!.lo) : undefined;
  if (memory && plans.every((p) => memoryOf(p.lo) === memory && memoryOf(p.hi) === memory)) countKernelScan(LookupKernel.over(memory), size, plans, allowed, minCompared, onHit);
  else countScanLoop(size, plans, allowed, minCompared, onHit);
}

/** Profiles sampled (a run from the middle) to put the marker that keeps fewest profiles first. */
const SAMPLE = 1024;
/** The sample's columns, lo then hi per marker, reused by every count plan of this thread (read before the next plan). */
let sampleRoom = new Uint8Array(0);

/**
 * The kernel's order of the markers, the one keeping fewest of a sample first (a sum does not depend on the order, and
 * a profile over the limit stays over it, so the survivors and their counts are the loop's), and its SIMD filter.
 */
export function countPlan(size: number, plans: readonly ColumnPlan<Uint32Array>[], maxFails: number): { order: number[]; filter: CountFilter | null } {
  const from = Math.max(0, (size - SAMPLE) >> 1);
  const to = Math.min(size, from + SAMPLE);
  // The sample's bytes copied out first, into room reused by every plan: element reads of a view over the columns' shared
  // WebAssembly memory are slow in JavaScript, and so is allocating a typed array per marker (issue 29: this plan took
  // 0.8 ms of a 1.4 ms search at 1M, in every slice of a split one).
  const n = to - from;
  if (sampleRoom.length < 2 * n * plans.length) sampleRoom = new Uint8Array(2 * n * plans.length);
  const room = sampleRoom;
  const sampled = plans.map((p, m) => {
    room.set(p.lo.subarray(from, to), 2 * m * n);
    room.set(p.hi.subarray(from, to), (2 * m + 1) * n);
    return { ...p, lo: room.subarray(2 * m * n, (2 * m + 1) * n), hi: room.subarray((2 * m + 1) * n, (2 * m + 2) * n) };
  });
  const kept = sampled.map(({ lo, hi, shift, table }) => {
    let kept = 0;
    for (let i = 0; i < n; i++) if (table[(lo[i]! << shift) | hi[i]!]! < FAIL) kept++;
    return kept;
  });
  const order = plans.map((_, m) => m).sort((a, b) => kept[a]! - kept[b]! || a - b);
  return { order, filter: countFilter(sampled, order, maxFails, { from: 0, to: n }) };
}

/**
 * The kernel's count: the tables and each marker's (table, lo, hi, shift) copied into this thread's working room in
 * {@link countPlan}'s order, then one kernel call per block — with the SIMD filter first when the sample says it pays.
 */
function countKernelScan(k: LookupKernel, size: number, plans: readonly ColumnPlan<Uint32Array>[], maxFails: number, minCompared: number, onHit: (slot: number, compared: number, fails: number) => void): void {
  const limit = (maxFails + 1) * FAIL;
  const { order, filter } = countPlan(size, plans, maxFails);
  const filterBytes = filter ? 16 + FILTER_RECORD * filter.markers.length : 0;
  const tableBytes = plans.reduce((sum, p) => sum + p.table.byteLength, 0);
  const base = k.scratch(16 * plans.length + filterBytes + tableBytes + 8 * BLOCK);
  let tableAt = base + 16 * plans.length + filterBytes;
  order.forEach((m, position) => {
    const { lo, hi, shift, table } = plans[m]!;
    k.words.set(table, tableAt / 4);
    k.words.set([tableAt, lo.byteOffset, hi.byteOffset, shift], base / 4 + 4 * position);
    tableAt += table.byteLength;
  });
  if (filter) writeFilter(k, base + 16 * plans.length, filter, plans);
  const selectedAt = tableAt;
  const accAt = selectedAt + 4 * BLOCK;
  for (let start = 0; start < size; start += BLOCK) {
    const end = Math.min(size, start + BLOCK);
    const n = filter ? k.countFiltered(base, plans.length, start, end, limit, selectedAt, accAt) : k.countBlock(base, plans.length, start, end, limit, selectedAt, accAt);
    for (let j = 0; j < n; j++) {
      const sum = k.words[accAt / 4 + j]!;
      const compared = sum % FAIL;
      if (compared >= minCompared) onHit(k.words[selectedAt / 4 + j]!, compared, Math.floor(sum / FAIL));
    }
  }
}

/** The filter as COUNT_FILTERED reads it at `at`: a header, then per marker its lo and hi and its terms, each index in every byte of 16. */
function writeFilter(k: LookupKernel, at: number, filter: CountFilter, plans: readonly ColumnPlan<Uint32Array>[]): void {
  k.words.set([filter.markers.length, filter.need, 0, 0], at / 4);
  filter.markers.forEach((f, position) => {
    const record = at + 16 + FILTER_RECORD * position;
    k.words.set([plans[f.plan]!.lo.byteOffset, plans[f.plan]!.hi.byteOffset, 0, 0], record / 4);
    // Unused slots hold an index no profile has; the pair slots too when there are no pairs (lo never matches then).
    const slots = (values: readonly number[], count: number) => Array.from({ length: count }, (_, s) => values[s] ?? f.none);
    const terms = [...slots(f.los, FILTER_SLOTS.los), ...slots(f.his, FILTER_SLOTS.his), ...slots(f.pairLos, FILTER_SLOTS.pairLos), ...slots(f.pairHis, FILTER_SLOTS.pairHis)];
    terms.forEach((value, t) => k.bytes.fill(value, record + 16 + 16 * t, record + 32 + 16 * t));
  });
}

/** countScan as a JavaScript loop, for columns outside a column memory (and to hold the kernel to). */
export function countScanLoop(size: number, plans: readonly ColumnPlan<Uint32Array>[], maxFails: number, minCompared: number, onHit: (slot: number, compared: number, fails: number) => void): void {
  const selected = new Int32Array(BLOCK);
  const acc = new Uint32Array(BLOCK);
  const limit = (maxFails + 1) * FAIL;
  for (let start = 0; start < size; start += BLOCK) {
    const end = Math.min(size, start + BLOCK);
    let n = 0;
    if (plans.length === 0) {
      for (let i = start; i < end; i++) (selected[n] = i), (acc[n++] = 0);
    } else {
      const { lo, hi, shift, table } = plans[0]!;
      for (let i = start; i < end; i++) {
        const v = table[(lo[i]! << shift) | hi[i]!]!;
        if (v < limit) (selected[n] = i), (acc[n++] = v);
      }
    }
    for (let k = 1; k < plans.length && n > 0; k++) {
      const { lo, hi, shift, table } = plans[k]!;
      let kept = 0;
      for (let j = 0; j < n; j++) {
        const i = selected[j]!;
        const v = acc[j]! + table[(lo[i]! << shift) | hi[i]!]!;
        if (v < limit) (selected[kept] = i), (acc[kept++] = v);
      }
      n = kept;
    }
    for (let j = 0; j < n; j++) {
      const compared = acc[j]! % FAIL;
      if (compared >= minCompared) onHit(selected[j]!, compared, Math.floor(acc[j]! / FAIL));
    }
  }
}

/** The largest value of a table (NaN entries ignored), the most one marker can add. */
function tableMax(table: Float64Array): number {
  let max = -Infinity;
  for (let i = 0; i < table.length; i++) if (table[i]! > max) max = table[i]!;
  return max;
}

/**
 * Sums log10 factors over slots 0 … size−1 (LR ranking), block by block with a selection vector:
 * a profile is dropped once its sum plus the most the remaining markers could add falls under `cut`
 * (an identity mismatch, log 0 = −∞, drops it at once), then the profiles at or over `cut` are reported.
 */
export function sumScan(size: number, plans: readonly ColumnPlan<Float64Array>[], cut: number, onHit: (slot: number, sum: number) => void): void {
  // best[k]: the most markers k … end can add.
  const best = new Float64Array(plans.length + 1);
  for (let k = plans.length - 1; k >= 0; k--) best[k] = best[k + 1]! + tableMax(plans[k]!.table);
  // Markers before `dense` can drop nobody (the lowest possible sum still reaches the floor, as in kinship, where κ0 > 0): they are added without a selection vector.
  let dense = 0;
  for (let worst = 0; dense < plans.length; dense++) {
    worst += -tableMax(plans[dense]!.table.map((x) => -x));
    if (!(worst >= cut - best[dense + 1]!)) break;
  }
  const selected = new Int32Array(BLOCK);
  const acc = new Float64Array(BLOCK);
  for (let start = 0; start < size; start += BLOCK) {
    const end = Math.min(size, start + BLOCK);
    acc.fill(0);
    for (let k = 0; k < dense; k++) {
      const { lo, hi, shift, table } = plans[k]!;
      for (let i = start; i < end; i++) acc[i - start] = acc[i - start]! + table[(lo[i]! << shift) | hi[i]!]!;
    }
    let n = 0;
    for (let i = start; i < end; i++) (selected[n] = i), (acc[n] = acc[i - start]!), n++;
    for (let k = dense; k < plans.length && n > 0; k++) {
      const { lo, hi, shift, table } = plans[k]!;
      const floor = cut - best[k + 1]!;
      let kept = 0;
      for (let j = 0; j < n; j++) {
        const i = selected[j]!;
        const v = acc[j]! + table[(lo[i]! << shift) | hi[i]!]!;
        if (v >= floor) (selected[kept] = i), (acc[kept++] = v);
      }
      n = kept;
    }
    for (let j = 0; j < n; j++) if (acc[j]! >= cut) onHit(selected[j]!, acc[j]!);
  }
}
