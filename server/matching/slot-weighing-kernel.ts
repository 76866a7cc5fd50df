/**
 * The exact weighing of the quantitative search's candidates as a WebAssembly function (issue 31 "Speed"): for each
 * profile a run record of the placements pass lets through, the sum of its markers' log10 factors, in marker order, and
 * how many markers compare. JavaScript reads a view over a shared WebAssembly memory about six times slower than a
 * plain array (the buffer may grow), and both the run records and the candidates' column bytes are such views; here
 * they are plain loads. The sum is scoreAt's (genotype-lr-plan.ts): 0, then each marker's f64 added in turn (IEEE 754
 * addition, the same in both), so every number is the same bit for bit. The candidates are weighed marker by marker,
 * all of them at once: a marker's table (8 to 32 KB) and its columns' bytes of the stretch stay in the cache while it
 * is read; candidate by candidate, every lookup went to a different marker's table and columns (about 450 ns a
 * candidate at 1,000,000 references).
 */

import { vector } from '../genetics/statistics/wasm-listing';
import { RUN_BYTES } from './placement-kernel';
import { scanFunction } from './scan-module';
import { ALIGN_1, ALIGN_4, ALIGN_8, F64, I32, OP } from './wasm-opcodes';

/**
 * A marker's record: lo's and hi's column addresses, the address of its allele → class bytes, the classes' count K, the
 * f64 table's address (K × K, class x's row holding class y at x·K + y) and the compared bytes' (the same cells); i32
 * each, padded to 32. A plan by genotype code is one of K = 2^shift classes, allele x of class x: its cells are its codes.
 */
export const WEIGHING_RECORD_BYTES = 32;

// weigh(runs, runCount, maskAt, records, markers, slots, log10, markerCount) → count: parameters 0–7, then i32 locals
// (R, START, MASK, SLOT, P, M, I, LO_AT, HI_AT, STRIDE, TABLE, COMPARED, CODE, COUNT, CLASSES).
const [RUNS, RUN_COUNT, MASK_AT, RECORDS, MARKERS, SLOTS, LOG10, MARKER_COUNT] = [0, 1, 2, 3, 4, 5, 6, 7];
const [R, START, MASK, SLOT, P, M, I, LO_AT, HI_AT, STRIDE, TABLE, COMPARED, CODE, COUNT, CLASSES] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22];
const F64_ZERO = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];

/** Leaves on the stack `base` + I · 2^log2: candidate I's entry of an output array. */
const at = (base: number, log2: number) => [OP.localGet, base, OP.localGet, I, OP.i32Const, log2, OP.i32Shl, OP.i32Add];
/** A loop over the candidates found, I from 0 to COUNT − 1 (none when COUNT is 0). */
const eachCandidate = (code: number[]) => [
  OP.i32Const, 0, OP.localSet, I,
  OP.block, OP.emptyBlock,
  OP.localGet, COUNT, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  ...code,
  OP.localGet, I, OP.i32Const, 1, OP.i32Add, OP.localTee, I, OP.localGet, COUNT, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
];

// prettier-ignore
const BODY = [
  ...vector([[15, I32]]),
  // The masked slots listed in order: slots[count++] = start + ctz(mask), mask &= mask − 1.
  OP.block, OP.emptyBlock,
  OP.localGet, RUN_COUNT, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  OP.localGet, RUNS, OP.localGet, R, OP.i32Const, Math.log2(RUN_BYTES), OP.i32Shl, OP.i32Add, OP.localTee, P, OP.i32Load, ...ALIGN_4, OP.localSet, START,
  OP.localGet, P, OP.localGet, MASK_AT, OP.i32Add, OP.i32Load16U, 1, 0, OP.localSet, MASK,
  OP.block, OP.emptyBlock,
  OP.localGet, MASK, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  OP.localGet, SLOTS, OP.localGet, COUNT, OP.i32Const, 2, OP.i32Shl, OP.i32Add,
  OP.localGet, START, OP.localGet, MASK, OP.i32Ctz, OP.i32Add, OP.i32Store, ...ALIGN_4,
  OP.localGet, COUNT, OP.i32Const, 1, OP.i32Add, OP.localSet, COUNT,
  OP.localGet, MASK, OP.localGet, MASK, OP.i32Const, 1, OP.i32Sub, OP.i32And, OP.localTee, MASK, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.localGet, R, OP.i32Const, 1, OP.i32Add, OP.localTee, R, OP.localGet, RUN_COUNT, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  // Every sum from 0 and every count from 0.
  ...eachCandidate([
    ...at(LOG10, 3), ...F64_ZERO, OP.f64Store, ...ALIGN_8,
    ...at(MARKER_COUNT, 2), OP.i32Const, 0, OP.i32Store, ...ALIGN_4,
  ]),
  // Marker by marker, each candidate's sum += table[class(lo[slot]) · K + class(hi[slot])] and count += compared[that cell].
  OP.localGet, RECORDS, OP.localSet, P,
  OP.localGet, MARKERS, OP.localSet, M,
  OP.block, OP.emptyBlock,
  OP.localGet, M, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  OP.localGet, P, OP.i32Load, 2, 0, OP.localSet, LO_AT,
  OP.localGet, P, OP.i32Load, 2, 4, OP.localSet, HI_AT,
  OP.localGet, P, OP.i32Load, 2, 8, OP.localSet, CLASSES,
  OP.localGet, P, OP.i32Load, 2, 12, OP.localSet, STRIDE,
  OP.localGet, P, OP.i32Load, 2, 16, OP.localSet, TABLE,
  OP.localGet, P, OP.i32Load, 2, 20, OP.localSet, COMPARED,
  ...eachCandidate([
    ...at(SLOTS, 2), OP.i32Load, ...ALIGN_4, OP.localSet, SLOT,
    OP.localGet, CLASSES, OP.localGet, LO_AT, OP.localGet, SLOT, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.localGet, STRIDE, OP.i32Mul,
    OP.localGet, CLASSES, OP.localGet, HI_AT, OP.localGet, SLOT, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.i32Add, OP.localSet, CODE,
    ...at(LOG10, 3), ...at(LOG10, 3), OP.f64Load, ...ALIGN_8,
    OP.localGet, TABLE, OP.localGet, CODE, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.f64Load, ...ALIGN_8, OP.f64Add, OP.f64Store, ...ALIGN_8,
    ...at(MARKER_COUNT, 2), ...at(MARKER_COUNT, 2), OP.i32Load, ...ALIGN_4,
    OP.localGet, COMPARED, OP.localGet, CODE, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.i32Add, OP.i32Store, ...ALIGN_4,
  ]),
  OP.localGet, P, OP.i32Const, WEIGHING_RECORD_BYTES, OP.i32Add, OP.localSet, P,
  OP.localGet, M, OP.i32Const, 1, OP.i32Sub, OP.localTee, M, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.localGet, COUNT,
  OP.end,
];

/** weigh(runs, runCount, maskAt, records, markers, slots, log10, markerCount) → count (see {@link slotWeighing}). */
export type SlotWeighing = (runs: number, runCount: number, maskAt: number, records: number, markers: number, slots: number, log10: number, markerCount: number) => number;

/**
 * The weighing over a column memory, made once per thread: for each of the `runCount` run records at `runs` (RUN_BYTES
 * each: the run's first slot, and at `maskAt` in the record a 16-bit mask of its profiles to weigh), each masked slot in
 * order at slots + 4i, the f64 sum of its markers' table values (by their alleles' classes) at log10 + 8i and its compared markers at
 * markerCount + 4i, the markers' records (WEIGHING_RECORD_BYTES each) at `records`; returns how many slots.
 */
export function slotWeighing(memory: WebAssembly.Memory): SlotWeighing {
  return scanFunction<SlotWeighing>(memory, 'slot-weighing', 8, () => BODY);
}
