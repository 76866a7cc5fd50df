/**
 * The listing of the identity / exclusion count kernel (scans.ts countScan) in WebAssembly, assembled by
 * lookup-kernel.ts: per block, the first marker's u32 count looked up for every profile and each further marker's for
 * the profiles still under the limit only, the survivors compacted in place without a branch (a selection vector).
 */
import { ALIGN_1, ALIGN_4, I32, OP } from './wasm-opcodes';

// countBlock(plans, markers, start, end, limit, selected, acc) → n: parameters 0–6, i32 locals 7–16.
const [PLANS, MARKERS, START, END, LIMIT, SELECTED, ACC] = [0, 1, 2, 3, 4, 5, 6];
const [N, I, K, J, KEPT, TABLE, LO, HI, SHIFT, V] = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16];

/** table, lo, hi and shift of marker K: four i32 at plans + 16·K. */
// prettier-ignore
const loadPlan = [TABLE, LO, HI, SHIFT].flatMap((local, field) => [
  OP.localGet, PLANS, OP.localGet, K, OP.i32Const, 4, OP.i32Shl, OP.i32Add, OP.i32Load, 2, 4 * field, OP.localSet, local,
]);
/** table[(lo[i] << shift) | hi[i]] (u32 entries) on the stack. */
// prettier-ignore
const lookup = [
  OP.localGet, TABLE,
  OP.localGet, LO, OP.localGet, I, OP.i32Add, OP.i32Load8U, ...ALIGN_1, OP.localGet, SHIFT, OP.i32Shl,
  OP.localGet, HI, OP.localGet, I, OP.i32Add, OP.i32Load8U, ...ALIGN_1,
  OP.i32Or, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, ...ALIGN_4,
];
/** Address of the i32 at `base` + 4·local, on the stack. */
const at = (base: number, local: number) => [OP.localGet, base, OP.localGet, local, OP.i32Const, 2, OP.i32Shl, OP.i32Add];
/** selected[into] = I; acc[into] = V; into += V < limit (unsigned): the profile stays listed only under the limit. */
// prettier-ignore
const keepIfUnder = (into: number) => [
  ...at(SELECTED, into), OP.localGet, I, OP.i32Store, ...ALIGN_4,
  ...at(ACC, into), OP.localGet, V, OP.i32Store, ...ALIGN_4,
  OP.localGet, into, OP.localGet, V, OP.localGet, LIMIT, OP.i32LtU, OP.i32Add, OP.localSet, into,
];

// prettier-ignore
export const COUNT_BLOCK = [
  1, 10, I32,
  ...loadPlan,
  OP.localGet, START, OP.localSet, I,
  // The first marker, every profile of the block.
  OP.block, OP.emptyBlock,
  OP.localGet, I, OP.localGet, END, OP.i32GeU, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  ...lookup, OP.localSet, V,
  ...keepIfUnder(N),
  OP.localGet, I, OP.i32Const, 1, OP.i32Add, OP.localTee, I, OP.localGet, END, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  // Each further marker, the listed profiles only.
  OP.block, OP.emptyBlock,
  OP.loop, OP.emptyBlock,
  OP.localGet, K, OP.i32Const, 1, OP.i32Add, OP.localTee, K, OP.localGet, MARKERS, OP.i32GeU, OP.brIf, 1,
  OP.localGet, N, OP.i32Eqz, OP.brIf, 1,
  ...loadPlan,
  OP.i32Const, 0, OP.localSet, KEPT,
  OP.i32Const, 0, OP.localSet, J,
  OP.loop, OP.emptyBlock,
  ...at(SELECTED, J), OP.i32Load, ...ALIGN_4, OP.localSet, I,
  ...at(ACC, J), OP.i32Load, ...ALIGN_4, ...lookup, OP.i32Add, OP.localSet, V,
  ...keepIfUnder(KEPT),
  OP.localGet, J, OP.i32Const, 1, OP.i32Add, OP.localTee, J, OP.localGet, N, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.localGet, KEPT, OP.localSet, N,
  OP.br, 0,
  OP.end,
  OP.end,
  OP.localGet, N,
  OP.end,
];
