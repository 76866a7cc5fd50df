/**
 * The exact weighing of the quantitative search's candidates as a WebAssembly function (issue 31 "Speed"): per listed
 * slot the sum of its markers' log10 factors, in marker order, and how many markers compare. JavaScript reads a view
 * over a shared WebAssembly memory about six times slower than a plain array (the buffer may grow), and the candidates'
 * column bytes are such views; here the reads are plain loads. The sum is scoreAt's (genotype-lr-plan.ts): 0, then each
 * marker's f64 added in turn (IEEE 754 addition, the same in both), so every number is the same bit for bit.
 */

import { vector } from '../genetics/statistics/wasm-listing';
import { scanFunction } from './scan-module';
import { ALIGN_1, ALIGN_4, ALIGN_8, F64, I32, OP } from './wasm-opcodes';

/** A marker's record: lo's and hi's column addresses, the code shift, the f64 table's address, the compared bytes' address (i32 each, padded to 32). */
export const WEIGHING_RECORD_BYTES = 32;

// weigh(records, markers, slots, count, log10, markerCount) → 0: parameters 0–5, then i32 locals (I, SLOT, P, M, CODE,
// COUNTED) and the f64 sum.
const [RECORDS, MARKERS, SLOTS, COUNT, LOG10, MARKER_COUNT] = [0, 1, 2, 3, 4, 5];
const [I, SLOT, P, M, CODE, COUNTED, SUM] = [6, 7, 8, 9, 10, 11, 12];
const F64_ZERO = [0x44, 0, 0, 0, 0, 0, 0, 0, 0];

/** Leaves on the stack the byte at (the i32 at P + `field`) + SLOT: a column's allele index for the slot. */
const columnByte = (field: number) => [OP.localGet, P, OP.i32Load, 2, field, OP.localGet, SLOT, OP.i32Add, OP.i32Load8U, ...ALIGN_1];

// prettier-ignore
const BODY = [
  ...vector([[6, I32], [1, F64]]),
  OP.block, OP.emptyBlock,
  OP.localGet, COUNT, OP.i32Eqz, OP.brIf, 0,
  OP.localGet, MARKERS, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // slot = slots[i]; sum = 0; counted = 0
  OP.localGet, SLOTS, OP.localGet, I, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, ...ALIGN_4, OP.localSet, SLOT,
  ...F64_ZERO, OP.localSet, SUM,
  OP.i32Const, 0, OP.localSet, COUNTED,
  OP.localGet, RECORDS, OP.localSet, P,
  OP.localGet, MARKERS, OP.localSet, M,
  OP.loop, OP.emptyBlock,
  // code = (lo[slot] << shift) | hi[slot]
  ...columnByte(0), OP.localGet, P, OP.i32Load, 2, 8, OP.i32Shl, ...columnByte(4), OP.i32Or, OP.localSet, CODE,
  // sum += table[code]; counted += compared[code]
  OP.localGet, SUM, OP.localGet, P, OP.i32Load, 2, 12, OP.localGet, CODE, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.f64Load, ...ALIGN_8, OP.f64Add, OP.localSet, SUM,
  OP.localGet, COUNTED, OP.localGet, P, OP.i32Load, 2, 16, OP.localGet, CODE, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.i32Add, OP.localSet, COUNTED,
  OP.localGet, P, OP.i32Const, WEIGHING_RECORD_BYTES, OP.i32Add, OP.localSet, P,
  OP.localGet, M, OP.i32Const, 1, OP.i32Sub, OP.localTee, M, OP.brIf, 0,
  OP.end,
  // log10[i] = sum; markerCount[i] = counted
  OP.localGet, LOG10, OP.localGet, I, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localGet, SUM, OP.f64Store, ...ALIGN_8,
  OP.localGet, MARKER_COUNT, OP.localGet, I, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.localGet, COUNTED, OP.i32Store, ...ALIGN_4,
  OP.localGet, I, OP.i32Const, 1, OP.i32Add, OP.localTee, I, OP.localGet, COUNT, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.i32Const, 0,
  OP.end,
];

/** weigh(records, markers, slots, count, log10, markerCount) (see {@link slotWeighing}). */
export type SlotWeighing = (records: number, markers: number, slots: number, count: number, log10: number, markerCount: number) => number;

/**
 * The weighing over a column memory, made once per thread: for each of the `count` slots (i32) at `slots`, the f64 sum
 * of its markers' table values at log10 + 8i and its compared markers at markerCount + 4i, the markers' records
 * (WEIGHING_RECORD_BYTES each) at `records`.
 */
export function slotWeighing(memory: WebAssembly.Memory): SlotWeighing {
  return scanFunction<SlotWeighing>(memory, 'slot-weighing', 6, () => BODY);
}
