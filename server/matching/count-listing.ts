/**
 * The listing of the identity / exclusion count kernel (scans.ts countScan) in WebAssembly, assembled by
 * lookup-kernel.ts: per block, the first marker's u32 count looked up for every profile and each further marker's for
 * the profiles still under the limit only, the survivors compacted in place without a branch (a selection vector).
 */
import { leb128, sleb128 } from '../genetics/statistics/wasm-listing';
import { ALIGN_1, ALIGN_4, I32, OP, SIMD, V128 } from './wasm-opcodes';

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

/** Each marker from the one after K, over the N profiles listed at `selected` (with their sums at `acc`), keeping those under the limit. */
// prettier-ignore
const LISTED_MARKERS = [
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
  ...LISTED_MARKERS,
  OP.localGet, N,
  OP.end,
];

// countFiltered: countBlock's parameters and locals, then i32 locals 17–20 and v128 locals 21–26. The filter lies after
// the plans (at plans + 16·markers): its marker count and `need`, two words of padding, then a record per filter marker
// of FILTER_RECORD bytes: its lo and hi addresses, two words of padding, then the allele indices of its terms, each in
// every byte of a v128 — three lo values, two hi values, two lo and two hi values of the pairs (count-filter.ts).
export const FILTER_RECORD = 16 + 16 * 9;
const [REC, F, FILTERS, MASK] = [17, 18, 19, 20];
const [LOV, HIV, PASS, PASSES, NEED, EITHER] = [21, 22, 23, 24, 25, 26];
const load128 = (align: number) => [...SIMD.load, align, 0];
/** The byte vector `vector` equal, lane by lane, to the term at REC + 16 + 16·term. */
const equals = (vector: number, term: number) => [OP.localGet, vector, OP.localGet, REC, ...SIMD.load, 4, ...leb128(16 + 16 * term), ...SIMD.i8x16Eq];
const zero128 = [OP.i32Const, 0, ...SIMD.i8x16Splat];
/** PASS: lo is one of terms 0–2, or hi one of terms 3–4, or lo one of terms 5–6 and hi one of terms 7–8. */
// prettier-ignore
const markerPasses = [
  ...equals(LOV, 0), ...equals(LOV, 1), ...SIMD.v128Or, ...equals(LOV, 2), ...SIMD.v128Or,
  ...equals(HIV, 3), ...SIMD.v128Or, ...equals(HIV, 4), ...SIMD.v128Or,
  ...equals(LOV, 5), ...equals(LOV, 6), ...SIMD.v128Or, OP.localSet, EITHER,
  ...equals(HIV, 7), ...equals(HIV, 8), ...SIMD.v128Or, OP.localGet, EITHER, ...SIMD.v128And,
  ...SIMD.v128Or, OP.localSet, PASS,
];

/**
 * countBlock with a SIMD filter first (issue 29): 16 profiles at a time, each filter marker's lo and hi bytes compared
 * with the few allele indices that cover every genotype within the marker's allowance; the
 * profiles passing at least `need` filter markers are listed (those at the block's end too, fewer than 16), then every
 * marker, the filter's included, counted over them as countBlock counts. The filter only drops profiles that fail more
 * markers than allowed, so the count is countBlock's.
 */
// prettier-ignore
export const COUNT_FILTERED = [
  2, 14, I32, 6, V128,
  // REC = FILTERS = plans + 16·markers + 16 (the first record); F = filter markers; NEED = need in every byte
  OP.localGet, PLANS, OP.localGet, MARKERS, OP.i32Const, 4, OP.i32Shl, OP.i32Add, OP.localTee, REC,
  OP.i32Load, ...ALIGN_4, OP.localSet, F,
  OP.localGet, REC, OP.i32Load, 2, 4, ...SIMD.i8x16Splat, OP.localSet, NEED,
  OP.localGet, REC, OP.i32Const, 16, OP.i32Add, OP.localSet, FILTERS,
  OP.localGet, START, OP.localSet, I,
  OP.block, OP.emptyBlock,
  OP.loop, OP.emptyBlock,
  // while end − i ≥ 16
  OP.localGet, END, OP.localGet, I, OP.i32Sub, OP.i32Const, 16, OP.i32LtU, OP.brIf, 1,
  ...zero128, OP.localSet, PASSES,
  OP.localGet, FILTERS, OP.localSet, REC,
  OP.loop, OP.emptyBlock,
  OP.localGet, REC, OP.i32Load, ...ALIGN_4, OP.localGet, I, OP.i32Add, ...load128(0), OP.localSet, LOV,
  OP.localGet, REC, OP.i32Load, 2, 4, OP.localGet, I, OP.i32Add, ...load128(0), OP.localSet, HIV,
  ...markerPasses,
  // A passing lane is all ones (−1): subtracting counts it.
  OP.localGet, PASSES, OP.localGet, PASS, ...SIMD.i8x16Sub, OP.localSet, PASSES,
  OP.localGet, REC, OP.i32Const, ...sleb128(FILTER_RECORD), OP.i32Add, OP.localTee, REC,
  OP.localGet, FILTERS, OP.i32Sub, OP.localGet, F, OP.i32Const, ...sleb128(FILTER_RECORD), OP.i32Mul, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.localGet, PASSES, OP.localGet, NEED, ...SIMD.i8x16GeU, ...SIMD.i8x16Bitmask, OP.localSet, MASK,
  // Each lane left, in order: selected[n] = i + lane; acc[n] = 0.
  OP.block, OP.emptyBlock,
  OP.loop, OP.emptyBlock,
  OP.localGet, MASK, OP.i32Eqz, OP.brIf, 1,
  ...at(SELECTED, N), OP.localGet, I, OP.localGet, MASK, OP.i32Ctz, OP.i32Add, OP.i32Store, ...ALIGN_4,
  ...at(ACC, N), OP.i32Const, 0, OP.i32Store, ...ALIGN_4,
  OP.localGet, N, OP.i32Const, 1, OP.i32Add, OP.localSet, N,
  OP.localGet, MASK, OP.localGet, MASK, OP.i32Const, 1, OP.i32Sub, OP.i32And, OP.localSet, MASK,
  OP.br, 0,
  OP.end,
  OP.end,
  OP.localGet, I, OP.i32Const, 16, OP.i32Add, OP.localSet, I,
  OP.br, 0,
  OP.end,
  OP.end,
  // The last profiles (fewer than 16) listed unfiltered.
  OP.block, OP.emptyBlock,
  OP.loop, OP.emptyBlock,
  OP.localGet, I, OP.localGet, END, OP.i32GeU, OP.brIf, 1,
  ...at(SELECTED, N), OP.localGet, I, OP.i32Store, ...ALIGN_4,
  ...at(ACC, N), OP.i32Const, 0, OP.i32Store, ...ALIGN_4,
  OP.localGet, N, OP.i32Const, 1, OP.i32Add, OP.localSet, N,
  OP.localGet, I, OP.i32Const, 1, OP.i32Add, OP.localSet, I,
  OP.br, 0,
  OP.end,
  OP.end,
  // Every marker from the first (K = −1 before the loop's step) over the listed profiles.
  OP.i32Const, 0x7f, OP.localSet, K,
  ...LISTED_MARKERS,
  OP.localGet, N,
  OP.end,
];
