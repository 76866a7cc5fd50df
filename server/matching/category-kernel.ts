/**
 * The category pass of a computational search as a WebAssembly SIMD function (GENETICS.md "How the search reaches
 * memory speed"): 16 profiles a vector, per marker two `i8x16.swizzle` lookups turn the lo and hi allele indices into
 * categories, a third turns the pair of categories into the marker's quantised bound (at most 127), two markers' bounds
 * are added as bytes and then into 16-bit sums (one load and store of the sums per two markers). A profile whose sum exceeds `need − 1` is reported. No gather exists in WebAssembly SIMD, so a table of more
 * than 16 entries is read in 16-entry chunks (an index past a chunk's end reads 0, so the chunks are OR-ed); the module
 * is assembled for the chunk counts a search needs (at most 4 each: 64 alleles, 8 categories), unrolled, with a dense
 * function for each count of pair-table chunks.
 */

import { leb128, vector } from '../genetics/statistics/wasm-listing';
import { scanFunctions } from './scan-module';
import { I32, OP } from './wasm-opcodes';

const V128 = 0x7b;
/** SIMD instructions (WebAssembly Core Specification 2.0, section 5.4.8): the 0xfd prefix and the LEB128 sub-opcode. */
const simd = (code: number) => [0xfd, ...leb128(code)];
const V = {
  load: (offset: number) => [...simd(0x00), 0, ...leb128(offset)],
  store: (offset: number) => [...simd(0x0b), 0, ...leb128(offset)],
  const: (bytes: readonly number[]) => [...simd(0x0c), ...bytes],
  swizzle: simd(0x0e),
  i16Splat: simd(0x10),
  or: simd(0x50),
  bitmask8: simd(0x64),
  narrow16: simd(0x65),
  add8: simd(0x6e),
  sub8: simd(0x71),
  gt16: simd(0x31),
  extendLow: simd(0x89),
  extendHigh: simd(0x8a),
  add16: simd(0x8e),
};

/** Most 16-entry chunks of an allele → category table, and of a category pair → bound table. */
export const MAX_CHUNKS = 4;

/** A marker's record: lo and hi column addresses (16 bytes with padding), then the tables, chunk by chunk. */
export const recordBytes = (alleleChunks: number, pairChunks: number) => 16 + 32 * alleleChunks + 16 * pairChunks;

// dense(params, pairs, from, to, needLess, out, acc, steps) → count: parameters 0–7; then i32 locals and v128 locals.
const [PARAMS, PAIRS, FROM, TO, NEED_LESS, OUT, ACC, STEPS] = [0, 1, 2, 3, 4, 5, 6, 7];
const [P, M, LO, HI, LO2, HI2, I, A, COUNT, MASK, END] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18];
const [X, CAT, Q, NEEDS] = [19, 20, 21, 22];
/** v128 locals after NEEDS: the offsets 16c (c = 1 … 3), then the two markers' tables (lo's, hi's, the pairs'). */
const OFFSETS = 23;
const ZERO = new Array<number>(16).fill(0);
/** Bits of `steps`: set the sums to 0 first; list the runs after. */
export const CLEAR = 1;
export const LIST = 2;

/** Leaves on the stack the OR of chunk c's swizzle of (index − 16c) over the tables in locals tables … tables + chunks − 1 (16c in locals offsets + c − 1). */
function chunkedLookup(from: number, tables: number, chunks: number, offsets = OFFSETS): number[] {
  const code = [OP.localGet, tables, OP.localGet, from, ...V.swizzle];
  for (let c = 1; c < chunks; c++) code.push(OP.localGet, tables + c, OP.localGet, from, OP.localGet, offsets + c - 1, ...V.sub8, ...V.swizzle, ...V.or);
  return code;
}

/** The constants 16c (c = 1 … 3) into locals offsets … offsets + 2. */
function offsetConstants(offsets: number): number[] {
  const code: number[] = [];
  for (let c = 1; c <= 3; c++) code.push(...V.const(new Array<number>(16).fill(16 * c)), OP.localSet, offsets + c - 1);
  return code;
}

// sparse(params, markers, list, count, needLess, out, acc, from) → count: parameters 0–7, then i32 and v128 locals.
const [S_PARAMS, S_MARKERS, S_LIST, S_COUNT_IN, S_NEED_LESS, S_OUT, S_ACC, S_FROM] = [0, 1, 2, 3, 4, 5, 6, 7];
const [S_E, S_END, S_P, S_M, S_LO, S_HI, S_I, S_MASK, S_COUNT, S_A] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
const [S_X, S_CAT, S_NEEDS, S_OFFSETS, S_TABLES] = [18, 19, 20, 21, 24];


/**
 * The dense pass over pairs of markers whose pair tables are read in `chunks` chunks, a function of its own for each
 * count (issue 29, mixk35): with the loops of every count in one function, as until then, V8's code for the one-chunk
 * loop ran 1.6 times as long as the same loop alone in a function (20 markers over 1M profiles: 3.35 ms against 2.0;
 * two chunks 3.9 against 2.3, three 4.7 against 2.7), the loops' instructions alike but for register names. The
 * function keeps the shape it had (the sums cleared, the pairs, the runs listed, each a loop of its own): the same pairs'
 * loop alone in a function ran as slowly again (3.3 ms), and so did it with the list's loop skipped by an `if` (3.4 ms),
 * so a call that lists nothing runs the list's loop over one run, its count unused.
 */
function denseBody(alleleChunks: number, pairChunks: number, chunks: number): number[] {
  const record = recordBytes(alleleChunks, pairChunks);
  const tableLocals = 2 * alleleChunks + pairChunks;
  const tablesOf = (marker: number) => OFFSETS + 3 + marker * tableLocals;
  // A pair of markers whose pair tables need `chunks` chunks loads and reads only those (the rest of its record is 0).
  const loadTables: number[] = [];
  for (const marker of [0, 1]) for (let t = 0; t < 2 * alleleChunks + chunks; t++) loadTables.push(OP.localGet, P, ...V.load(marker * record + 16 + 16 * t), OP.localSet, tablesOf(marker) + t);
  // Leaves one marker's bounds for profiles i … i+15 on the stack: cat = catLo[lo] (categories × their count) + catHi[hi], then the pair's bound.
  const bound = (marker: number, lo: number, hi: number) => [
    OP.localGet, lo, OP.localGet, I, OP.i32Add, ...V.load(0), OP.localSet, X,
    ...chunkedLookup(X, tablesOf(marker), alleleChunks), OP.localSet, CAT,
    OP.localGet, hi, OP.localGet, I, OP.i32Add, ...V.load(0), OP.localSet, X,
    ...chunkedLookup(X, tablesOf(marker) + alleleChunks, alleleChunks), OP.localGet, CAT, ...V.add8, OP.localSet, CAT,
    ...chunkedLookup(CAT, tablesOf(marker) + 2 * alleleChunks, chunks),
  ];
  // prettier-ignore
  return [
    ...vector([[11, I32], [7 + 2 * tableLocals, V128]]),
    OP.localGet, NEED_LESS, ...V.i16Splat, OP.localSet, NEEDS,
    ...offsetConstants(OFFSETS),
    // the list's end: to, or one run only (its count not asked for) when the runs are not listed
    OP.localGet, TO, OP.localGet, FROM, OP.i32Const, 16, OP.i32Add, OP.localGet, STEPS, OP.i32Const, LIST, OP.i32And, OP.select, OP.localSet, END,
    OP.localGet, STEPS, OP.i32Const, CLEAR, OP.i32And,
    OP.if, OP.emptyBlock,
    OP.localGet, FROM, OP.localSet, I, OP.localGet, ACC, OP.localSet, A,
    OP.loop, OP.emptyBlock,
    OP.localGet, A, ...V.const(ZERO), ...V.store(0),
    OP.localGet, A, ...V.const(ZERO), ...V.store(16),
    OP.localGet, A, OP.i32Const, 32, OP.i32Add, OP.localSet, A,
    OP.localGet, I, OP.i32Const, 16, OP.i32Add, OP.localTee, I, OP.localGet, TO, OP.i32LtU, OP.brIf, 0,
    OP.end,
    OP.end,
    OP.localGet, PARAMS, OP.localSet, P,
    OP.localGet, PAIRS, OP.localTee, M,
    OP.if, OP.emptyBlock,
    OP.loop, OP.emptyBlock,
    ...loadTables,
    OP.localGet, P, OP.i32Load, 2, 0, OP.localSet, LO,
    OP.localGet, P, OP.i32Load, 2, 4, OP.localSet, HI,
    OP.localGet, P, OP.i32Load, 2, ...leb128(record), OP.localSet, LO2,
    OP.localGet, P, OP.i32Load, 2, ...leb128(record + 4), OP.localSet, HI2,
    OP.localGet, FROM, OP.localSet, I, OP.localGet, ACC, OP.localSet, A,
    OP.loop, OP.emptyBlock,
    // two markers' bounds (each at most 127) added as bytes, then to the 16-bit sums
    ...bound(0, LO, HI), OP.localSet, Q,
    ...bound(1, LO2, HI2), OP.localGet, Q, ...V.add8, OP.localSet, X,
    OP.localGet, A, OP.localGet, A, ...V.load(0), OP.localGet, X, ...V.extendLow, ...V.add16, ...V.store(0),
    OP.localGet, A, OP.localGet, A, ...V.load(16), OP.localGet, X, ...V.extendHigh, ...V.add16, ...V.store(16),
    OP.localGet, A, OP.i32Const, 32, OP.i32Add, OP.localSet, A,
    OP.localGet, I, OP.i32Const, 16, OP.i32Add, OP.localTee, I, OP.localGet, TO, OP.i32LtU, OP.brIf, 0,
    OP.end,
    OP.localGet, P, OP.i32Const, ...signedLeb(2 * record), OP.i32Add, OP.localSet, P,
    OP.localGet, M, OP.i32Const, 1, OP.i32Sub, OP.localTee, M, OP.brIf, 0,
    OP.end,
    OP.end,
    // bit j of mask: profile i + j's sum exceeds need − 1
    OP.localGet, FROM, OP.localSet, I, OP.localGet, ACC, OP.localSet, A,
    OP.loop, OP.emptyBlock,
    OP.localGet, A, ...V.load(0), OP.localGet, NEEDS, ...V.gt16, OP.localGet, A, ...V.load(16), OP.localGet, NEEDS, ...V.gt16, ...V.narrow16, ...V.bitmask8, OP.localTee, MASK,
    OP.if, OP.emptyBlock,
    OP.localGet, OUT, OP.localGet, COUNT, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localGet, I, OP.i32Store, 2, 0,
    OP.localGet, OUT, OP.localGet, COUNT, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localGet, MASK, OP.i32Store, 2, 4,
    OP.localGet, COUNT, OP.i32Const, 1, OP.i32Add, OP.localSet, COUNT,
    OP.end,
    OP.localGet, A, OP.i32Const, 32, OP.i32Add, OP.localSet, A,
    OP.localGet, I, OP.i32Const, 16, OP.i32Add, OP.localTee, I, OP.localGet, END, OP.i32LtU, OP.brIf, 0,
    OP.end,
    OP.localGet, COUNT,
    OP.end,
  ];
}

/**
 * The sparse pass's body (issue 29: most profiles of a mixture or a family search are out of reach after a few
 * markers): the bounds of the `markers` records at `params` added, marker by marker, to the 16-bit sums of each listed
 * run of 16 (first slot i, mask), kept at acc + 2·(i − from) (where the dense pass over the stretch from `from` left
 * them); then each run listed again at `out` (which may be `list`) with the mask of its profiles still over `needLess`,
 * when any is. Marker by marker, each marker's tables are loaded once and its two columns read in the list's order
 * (issue 29, mixk35: run by run, as until then, the tables were reloaded for every run and marker and the stage's
 * columns read all at once; marker by marker the category pass took 0.95 of the time for 3-person stains and for
 * full-sibling searches, the same stages). (Until mixscan34 a stage summed every marker before it afresh.)
 */
function sparseBody(alleleChunks: number, pairChunks: number): number[] {
  const record = recordBytes(alleleChunks, pairChunks);
  const tableLocals = 2 * alleleChunks + pairChunks;
  const loadTables: number[] = [];
  for (let t = 0; t < tableLocals; t++) loadTables.push(OP.localGet, S_P, ...V.load(16 + 16 * t), OP.localSet, S_TABLES + t);
  const lookup = (from: number, tables: number, chunks: number) => chunkedLookup(from, tables, chunks, S_OFFSETS);
  // prettier-ignore
  return [
    ...vector([[10, I32], [6 + tableLocals, V128]]),
    OP.localGet, S_NEED_LESS, ...V.i16Splat, OP.localSet, S_NEEDS,
    ...offsetConstants(S_OFFSETS),
    OP.localGet, S_LIST, OP.localGet, S_COUNT_IN, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localSet, S_END,
    OP.block, OP.emptyBlock,
    OP.localGet, S_COUNT_IN, OP.i32Eqz, OP.brIf, 0,
    OP.localGet, S_PARAMS, OP.localSet, S_P, OP.localGet, S_MARKERS, OP.localSet, S_M,
    OP.loop, OP.emptyBlock,
    ...loadTables,
    OP.localGet, S_P, OP.i32Load, 2, 0, OP.localSet, S_LO,
    OP.localGet, S_P, OP.i32Load, 2, 4, OP.localSet, S_HI,
    OP.localGet, S_LIST, OP.localSet, S_E,
    OP.loop, OP.emptyBlock,
    OP.localGet, S_E, OP.i32Load, 2, 0, OP.localSet, S_I,
    OP.localGet, S_LO, OP.localGet, S_I, OP.i32Add, ...V.load(0), OP.localSet, S_X,
    ...lookup(S_X, S_TABLES, alleleChunks), OP.localSet, S_CAT,
    OP.localGet, S_HI, OP.localGet, S_I, OP.i32Add, ...V.load(0), OP.localSet, S_X,
    ...lookup(S_X, S_TABLES + alleleChunks, alleleChunks), OP.localGet, S_CAT, ...V.add8, OP.localSet, S_CAT,
    ...lookup(S_CAT, S_TABLES + 2 * alleleChunks, pairChunks), OP.localSet, S_X,
    OP.localGet, S_I, OP.localGet, S_FROM, OP.i32Sub, OP.i32Const, 1, OP.i32Shl, OP.localGet, S_ACC, OP.i32Add, OP.localTee, S_A,
    OP.localGet, S_A, ...V.load(0), OP.localGet, S_X, ...V.extendLow, ...V.add16, ...V.store(0),
    OP.localGet, S_A, OP.localGet, S_A, ...V.load(16), OP.localGet, S_X, ...V.extendHigh, ...V.add16, ...V.store(16),
    OP.localGet, S_E, OP.i32Const, 8, OP.i32Add, OP.localTee, S_E, OP.localGet, S_END, OP.i32LtU, OP.brIf, 0,
    OP.end,
    OP.localGet, S_P, OP.i32Const, ...signedLeb(record), OP.i32Add, OP.localSet, S_P,
    OP.localGet, S_M, OP.i32Const, 1, OP.i32Sub, OP.localTee, S_M, OP.brIf, 0,
    OP.end,
    // the runs listed again with the mask of their profiles still over needLess
    OP.localGet, S_LIST, OP.localSet, S_E,
    OP.loop, OP.emptyBlock,
    OP.localGet, S_E, OP.i32Load, 2, 0, OP.localSet, S_I,
    OP.localGet, S_I, OP.localGet, S_FROM, OP.i32Sub, OP.i32Const, 1, OP.i32Shl, OP.localGet, S_ACC, OP.i32Add, OP.localSet, S_A,
    OP.localGet, S_A, ...V.load(0), OP.localGet, S_NEEDS, ...V.gt16, OP.localGet, S_A, ...V.load(16), OP.localGet, S_NEEDS, ...V.gt16, ...V.narrow16, ...V.bitmask8,
    OP.localGet, S_E, OP.i32Load, 2, 4, OP.i32And, OP.localTee, S_MASK,
    OP.if, OP.emptyBlock,
    OP.localGet, S_OUT, OP.localGet, S_COUNT, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localGet, S_I, OP.i32Store, 2, 0,
    OP.localGet, S_OUT, OP.localGet, S_COUNT, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localGet, S_MASK, OP.i32Store, 2, 4,
    OP.localGet, S_COUNT, OP.i32Const, 1, OP.i32Add, OP.localSet, S_COUNT,
    OP.end,
    OP.localGet, S_E, OP.i32Const, 8, OP.i32Add, OP.localTee, S_E, OP.localGet, S_END, OP.i32LtU, OP.brIf, 0,
    OP.end,
    OP.end,
    OP.localGet, S_COUNT,
    OP.end,
  ];
}

/** Signed LEB128 (an i32.const immediate). */
function signedLeb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

type Dense = (params: number, pairs: number, from: number, to: number, needLess: number, out: number, acc: number, steps: number) => number;
type Sparse = (params: number, markers: number, list: number, count: number, needLess: number, out: number, acc: number, from: number) => number;
/** The two passes of one module: the dense one over every slot, the sparse one over a list of runs. */
export interface CategoryKernel {
  /** dense[c − 1]: pairs of markers whose pair tables are read in c chunks. */
  dense: Dense[];
  sparse: Sparse;
}

/**
 * The pass over a column memory for the given chunk counts, made once per thread. `dense[c − 1](params, pairs, from,
 * to, needLess, out, acc, steps)` reads slots from … to−1 (a multiple of 16 profiles, at least 16), their 16-bit sums
 * at acc (2 bytes a slot): with CLEAR in `steps` it sets the sums to 0 first; it adds the bounds of `pairs` pairs of
 * markers (pad with a record of zero tables) whose pair tables are read in c chunks, their records at `params`; with
 * LIST it then writes for each run of 16 with a profile over `needLess` its first slot and its 16-bit mask (two i32) at
 * `out` and returns how many runs. `sparse(params, markers, list, count, needLess, out, acc, from)` (markers ≥ 1) adds
 * the bounds of the `markers` records at `params` to the sums of the `count` runs listed at `list` alone (run i's at
 * acc + 2·(i − from)) and lists again, at `out` (`list` itself may be given), those with a profile of their mask over
 * `needLess`.
 */
export function categoryScan(memory: WebAssembly.Memory, alleleChunks: number, pairChunks: number): CategoryKernel {
  const denseNames = Array.from({ length: pairChunks }, (_, c) => `dense${c + 1}`);
  const exports = scanFunctions(memory, `category/${alleleChunks}/${pairChunks}`, [
    ...denseNames.map((name, c) => ({ name, params: 8, body: () => denseBody(alleleChunks, pairChunks, c + 1) })),
    { name: 'sparse', params: 8, body: () => sparseBody(alleleChunks, pairChunks) },
  ]);
  return { dense: denseNames.map((name) => exports[name] as Dense), sparse: exports.sparse as Sparse };
}
