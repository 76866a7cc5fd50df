/**
 * The placements pass of the quantitative database search as a WebAssembly SIMD function (issue 31 "Speed"): a
 * continuous search weighs each reference once per placement (each unknown of Hd it may replace), and the category
 * pass (category-kernel.ts) would read the columns once per placement, with 16-bit sums stored per block. Here one
 * read of a marker's columns serves every placement: 16 profiles a vector, two `i8x16.swizzle` lookups turn the allele
 * indices into categories shared by the pass's placements, their unordered pair (of at most 5 categories: 15 pairs)
 * becomes one index for every placement (a marker of at most four categories: one addition, SUMMED), and per placement a third swizzle gives the pair's bound (one byte), added
 * with unsigned saturation into that placement's sum — a saturated sum (255) still reaches any need ≤ 255, and sums of
 * bytes ≥ 0 saturate alike in any order, so saturation never drops a profile. A vector with a profile whose sum reaches
 * its need in some placement is reported with each placement's mask.
 */

import { leb128, sleb128, vector } from '../genetics/statistics/wasm-listing';
import { relaxedSwizzle } from './relaxed-simd';
import { scanFunctions } from './scan-module';
import { I32, OP, V128 } from './wasm-opcodes';

/** SIMD instructions (WebAssembly Core Specification 2.0, section 5.4.8): the 0xfd prefix and the LEB128 sub-opcode. */
const simd = (code: number) => [0xfd, ...leb128(code)];
const V = {
  load: (offset: number) => [...simd(0x00), 0, ...leb128(offset)],
  store: (offset: number) => [...simd(0x0b), 0, ...leb128(offset)],
  const: (bytes: readonly number[]) => [...simd(0x0c), ...bytes],
  swizzle: simd(0x0e),
  /** Lane i: table[index i] for indices < 16 as swizzle; others implementation-defined, so only for indices < 16. */
  relaxedSwizzle: simd(0x100),
  geU: simd(0x2c),
  or: simd(0x50),
  bitmask8: simd(0x64),
  add8: simd(0x6e),
  addSatU: simd(0x70),
  sub8: simd(0x71),
  maxU: simd(0x79),
  avgrU: simd(0x7b),
};

/** Most placements one pass weighs: each holds its pair table in a register. */
export const MAX_PLACEMENTS = 4;
/** Most 16-entry chunks of an allele → category table (64 alleles). */
export const MAX_ALLELE_CHUNKS = 4;
/** Categories of a marker, shared by a pass's placements: their 15 unordered pairs fill one swizzle. */
export const CATEGORIES = 5;
/**
 * A marker of five categories reads its alleles' categories as these numbers x, y: the pair's cell is
 * avgr(x + y, max(x, y)) = ⌊(x + y + max(x, y) + 1) / 2⌋, distinct for each unordered pair and at most 15 (found by
 * search over five numbers under 16 and two-step formulas): three arithmetic instructions, where a lesser, a greater,
 * a row start looked up by a swizzle and an addition took four.
 */
export const ORDERED = [0, 1, 3, 6, 10];
/** The pair table's cell of categories a and b of a marker of five categories, in either order. */
export const pairCell = (a: number, b: number) => {
  const [x, y] = [ORDERED[a]!, ORDERED[b]!];
  return (x + y + Math.max(x, y) + 1) >> 1;
};
/**
 * A marker of at most four categories reads its alleles' categories as these numbers, whose sums of two differ for each
 * unordered pair (a Sidon set, the largest sum 14): the pair's cell is one addition (five categories have no such numbers
 * under 16).
 */
export const SUMMED = [0, 1, 3, 7];
/** The pair table's cell of categories a and b of a marker read by sums. */
export const summedCell = (a: number, b: number) => SUMMED[a]! + SUMMED[b]!;

/** The pair cell of two alleles' numbers x, y < 16 at 16x + y, as the kernel finds it from the numbers it reads. */
const cellsOf = (numbers: readonly number[], cell: (a: number, b: number) => number) => {
  const cells = new Uint8Array(256);
  numbers.forEach((x, a) => numbers.forEach((y, b) => (cells[16 * x + y] = cell(a, b))));
  return cells;
};
/** Cells by numbers for ordered markers (ORDERED's numbers, pairCell) and summed ones (SUMMED's, summedCell): one lookup, no call per pair. */
export const ORDERED_CELLS = cellsOf(ORDERED, pairCell);
export const SUMMED_CELLS = cellsOf(SUMMED, summedCell);

/**
 * A marker's record: lo's and hi's column addresses (16 bytes with padding), the allele → category table (16 bytes a
 * chunk), then each placement's pair bounds (16 bytes, cell {@link pairCell}).
 */
export const markerRecordBytes = (alleleChunks: number, placements: number) => 16 + 16 * alleleChunks + 16 * placements;

/**
 * Most slots one call reads: the placements' byte sums of a call's slots are kept in memory (PASS_SLOTS bytes each),
 * the columns read a few markers at a time over them. Each step starts six streams afresh, so longer calls pay for
 * fewer starts: on the ESX17 bench stain at 1,000,000 references 32,768 took 0.95 of 16,384's CPU time (51 interleaved
 * rounds), 65,536 0.96 (41); 4,096 took 1.31, though its sums fit the first-level cache.
 */
export const PASS_SLOTS = 32_768;
/** Bytes of a call's sums: PASS_SLOTS per placement. */
export const sumsBytes = (placements: number) => PASS_SLOTS * placements;

// scan(params, summed, from, to, needs, out, sums, ordered) → count: parameters 0–7, then i32 locals (P, M, I, J, MASK,
// COUNT, ONE, then each marker of a step's lo and hi column addresses) and v128 locals (LO, HI, then each marker of a
// step's pair cell, then its allele → category chunks and each placement's pair bounds).
const [PARAMS, SUMMED_MARKERS, FROM, TO, NEEDS, OUT, SUMS, ORDERED_MARKERS] = [0, 1, 2, 3, 4, 5, 6, 7];
/**
 * Markers a step: each placement's sum is loaded and stored once per step. On the ESX17 bench stain at 1,000,000
 * references, against one a step, two took 0.93 of the time, three 0.87, four 0.97 (their tables no longer fit the
 * 16 vector registers).
 */
const STEP = 3;
const [P, M, I, J, MASK, COUNT, ONE, E, END, COLUMNS] = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
/** Set while the dense pass has added no marker yet: its first step stores the sums without reading them (no zeroing pass). */
const FIRST = COLUMNS + 2 * STEP;
const I32_LOCALS = 10 + 2 * STEP;
const [LO, HI, CATS] = [FIRST + 1, FIRST + 2, FIRST + 3];
const splat = (byte: number) => V.const(new Array<number>(16).fill(byte));
/** A run's record: its first slot (i32), then each placement's 16-bit mask. */
export const RUN_BYTES = 16;

/** Leaves on the stack the OR over chunks c of swizzle(chunk c's table, index − 16c); an index past every chunk reads 0. */
function chunkedLookup(index: number, chunks: number, tables: number): number[] {
  const code = [OP.localGet, tables, OP.localGet, index, ...V.swizzle];
  for (let c = 1; c < chunks; c++) code.push(OP.localGet, tables + c, OP.localGet, index, ...splat(16 * c), ...V.sub8, ...V.swizzle, ...V.or);
  return code;
}

/**
 * The pass's function body for the given allele chunk count and number of placements: STEP markers at a time over the
 * call's slots, their tables held in registers and each placement's sums in memory. Read profile by profile, all
 * markers at once (the sums in registers), the 32 columns of 16 markers were 32 streams read in step, 16 bytes of each
 * per profile vector, and the pass ran at the cache's latency, about twice as slow at 1,000,000 references on the ESX17
 * stain; a few markers at a time it reads a few streams at a time.
 */
function body(alleleChunks: number, placements: number, listed: boolean, relaxed: boolean): number[] {
  const record = markerRecordBytes(alleleChunks, placements);
  // The pair bounds' lookups: their indices, cells 0 … 15, are always < 16, so the relaxed swizzle gives the same bytes.
  // The allele lookups keep the swizzle: an allele past a table reads 0.
  const inRange = relaxed ? V.relaxedSwizzle : V.swizzle;
  // Each marker of a step: its columns' addresses, its pair cell, its tables (from TABLES on, one set after another).
  const TABLES = CATS + STEP;
  const set = Array.from({ length: STEP }, (_, s) => ({ loAt: COLUMNS + 2 * s, hiAt: COLUMNS + 2 * s + 1, cat: CATS + s, tables: TABLES + s * (alleleChunks + placements) }));
  const pairTable = (s: number, q: number) => set[s]!.tables + alleleChunks + q;
  const tables = (s: number, offset: number) => {
    const code: number[] = [
      OP.localGet, P, OP.i32Load, 2, ...leb128(offset), OP.localSet, set[s]!.loAt,
      OP.localGet, P, OP.i32Load, 2, ...leb128(offset + 4), OP.localSet, set[s]!.hiAt,
    ];
    for (let c = 0; c < alleleChunks; c++) code.push(OP.localGet, P, ...V.load(offset + 16 + 16 * c), OP.localSet, set[s]!.tables + c);
    for (let q = 0; q < placements; q++) code.push(OP.localGet, P, ...V.load(offset + 16 + 16 * alleleChunks + 16 * q), OP.localSet, pairTable(s, q));
    return code;
  };
  // A marker's alleles' categories and their pair's cell, found once for every placement: the sum of their numbers
  // (SUMMED), or avgr of their sum and the greater (ORDERED).
  const summedCell = (s: number) => [
    OP.localGet, set[s]!.loAt, OP.localGet, I, OP.i32Add, ...V.load(0), OP.localSet, LO,
    ...chunkedLookup(LO, alleleChunks, set[s]!.tables),
    OP.localGet, set[s]!.hiAt, OP.localGet, I, OP.i32Add, ...V.load(0), OP.localSet, HI,
    ...chunkedLookup(HI, alleleChunks, set[s]!.tables),
    ...V.add8, OP.localSet, set[s]!.cat,
  ];
  const orderedCell = (s: number) => [
    OP.localGet, set[s]!.loAt, OP.localGet, I, OP.i32Add, ...V.load(0), OP.localSet, LO,
    ...chunkedLookup(LO, alleleChunks, set[s]!.tables), OP.localSet, LO,
    OP.localGet, set[s]!.hiAt, OP.localGet, I, OP.i32Add, ...V.load(0), OP.localSet, HI,
    ...chunkedLookup(HI, alleleChunks, set[s]!.tables), OP.localSet, HI,
    OP.localGet, LO, OP.localGet, HI, ...V.add8, OP.localGet, LO, OP.localGet, HI, ...V.maxU, ...V.avgrU, OP.localSet, set[s]!.cat,
  ];
  /**
   * Per vector, `markers` (1 … STEP) markers' bounds added into each placement's sums: one load and store of a sum per
   * step; the `first` step's bounds are the sums (0 + b = b, saturating or not), stored without a read.
   */
  const perVector = (markers: number, summed: boolean, first: boolean) => {
    const code = Array.from({ length: markers }, (_, s) => (summed ? summedCell(s) : orderedCell(s))).flat();
    for (let q = 0; q < placements; q++) {
      code.push(OP.localGet, J);
      if (!first) code.push(OP.localGet, J, ...V.load(PASS_SLOTS * q));
      for (let s = 0; s < markers; s++) code.push(OP.localGet, pairTable(s, q), OP.localGet, set[s]!.cat, ...inRange, ...(first && s === 0 ? [] : V.addSatU));
      code.push(...V.store(PASS_SLOTS * q));
    }
    return code;
  };
  /** A step over the call's vectors; in the dense pass, the first step (FIRST set) its own loop that reads no sums. */
  const step = (markers: number, summed: boolean) =>
    listed
      ? eachVector(perVector(markers, summed, false))
      : [
          OP.localGet, FIRST, OP.if, OP.emptyBlock,
          ...eachVector(perVector(markers, summed, true)),
          OP.else,
          ...eachVector(perVector(markers, summed, false)),
          OP.end,
          OP.i32Const, 0, OP.localSet, FIRST,
        ];
  /** The markers of one kind, their count in parameter `count`, from record P on (P left after them). */
  const markers = (count: number, summed: boolean) => [
    OP.localGet, count, OP.localSet, M,
    // STEP markers a step while as many are left.
    OP.block, OP.emptyBlock,
    OP.localGet, M, OP.i32Const, STEP, OP.i32LtU, OP.brIf, 0,
    OP.loop, OP.emptyBlock,
    ...Array.from({ length: STEP }, (_, s) => tables(s, s * record)).flat(),
    ...step(STEP, summed),
    OP.localGet, P, OP.i32Const, ...sleb128(STEP * record), OP.i32Add, OP.localSet, P,
    OP.localGet, M, OP.i32Const, STEP, OP.i32Sub, OP.localSet, M, OP.i32Const, STEP - 1, OP.localGet, M, OP.i32LtU, OP.brIf, 0,
    OP.end,
    OP.end,
    // The last markers, fewer than STEP: one of the loops below runs.
    ...Array.from({ length: STEP - 1 }, (_, r) => [
      OP.block, OP.emptyBlock,
      OP.localGet, M, OP.i32Const, r + 1, OP.i32Ne, OP.brIf, 0,
      ...Array.from({ length: r + 1 }, (_, s) => tables(s, s * record)).flat(),
      ...step(r + 1, summed),
      OP.localGet, P, OP.i32Const, ...sleb128((r + 1) * record), OP.i32Add, OP.localSet, P,
      OP.end,
    ]).flat(),
  ];
  const zero: number[] = [];
  const verdict: number[] = [];
  for (let q = 0; q < placements; q++) {
    zero.push(OP.localGet, J, ...splat(0), ...V.store(PASS_SLOTS * q));
    // bit j: profile i + j's sum reaches placement q's need (the needs: a 16-byte splat each)
    verdict.push(
      OP.localGet, OUT, OP.localGet, COUNT, OP.i32Const, 4, OP.i32Shl, OP.i32Add,
      OP.localGet, J, ...V.load(PASS_SLOTS * q), OP.localGet, NEEDS, ...V.load(16 * q), ...V.geU, ...V.bitmask8,
      // A listed run keeps only the profiles its record still holds (those dropped cannot reach the need).
      ...(listed ? [OP.localGet, E, OP.i32Load16U, 1, 4 + 2 * q, OP.i32And] : []), OP.localTee, ONE,
      OP.i32Store16, 1, 4 + 2 * q,
      OP.localGet, MASK, OP.localGet, ONE, OP.i32Or, OP.localSet, MASK,
    );
  }
  /**
   * A loop over the call's vectors: I from FROM, J from SUMS, 16 at a time; listed, over the TO run records at OUT
   * (E each record, I its first slot, J its sums).
   */
  const eachVector = (code: number[]) => listed ? [
    OP.localGet, OUT, OP.localSet, E,
    OP.loop, OP.emptyBlock,
    OP.localGet, E, OP.i32Load, 2, 0, OP.localTee, I, OP.localGet, FROM, OP.i32Sub, OP.localGet, SUMS, OP.i32Add, OP.localSet, J,
    ...code,
    OP.localGet, E, OP.i32Const, RUN_BYTES, OP.i32Add, OP.localTee, E, OP.localGet, END, OP.i32LtU, OP.brIf, 0,
    OP.end,
  ] : [
    OP.localGet, FROM, OP.localSet, I,
    OP.localGet, SUMS, OP.localSet, J,
    OP.loop, OP.emptyBlock,
    ...code,
    OP.localGet, J, OP.i32Const, 16, OP.i32Add, OP.localSet, J,
    OP.localGet, I, OP.i32Const, 16, OP.i32Add, OP.localTee, I, OP.localGet, TO, OP.i32LtU, OP.brIf, 0,
    OP.end,
  ];
  // prettier-ignore
  return [
    ...vector([[I32_LOCALS, I32], [2 + STEP * (1 + alleleChunks + placements), V128]]),
    OP.block, OP.emptyBlock,
    // Listed: the records' end (TO of them); the sums go on from the dense prefix's. Dense: the sums start at 0 (the
    // first step's bounds; zeroed only when there is no marker at all).
    ...(listed ? [
      OP.localGet, TO, OP.i32Eqz, OP.brIf, 0,
      OP.localGet, OUT, OP.localGet, TO, OP.i32Const, Math.log2(RUN_BYTES), OP.i32Shl, OP.i32Add, OP.localSet, END,
    ] : [
      OP.localGet, FROM, OP.localGet, TO, OP.i32GeU, OP.brIf, 0,
      OP.i32Const, 1, OP.localSet, FIRST,
    ]),
    OP.localGet, PARAMS, OP.localSet, P,
    // The summed markers' records first, then the ordered ones'.
    ...markers(SUMMED_MARKERS, true),
    ...markers(ORDERED_MARKERS, false),
    ...(listed ? [] : [OP.localGet, FIRST, OP.if, OP.emptyBlock, ...eachVector(zero), OP.end]),
    // Each run's record written at `count` always, kept (count + 1) when a mask is set: no branch.
    ...eachVector([
      OP.i32Const, 0, OP.localSet, MASK,
      OP.localGet, OUT, OP.localGet, COUNT, OP.i32Const, 4, OP.i32Shl, OP.i32Add, OP.localGet, I, OP.i32Store, 2, 0,
      ...verdict,
      OP.localGet, COUNT, OP.localGet, MASK, OP.i32Const, 0, OP.i32Ne, OP.i32Add, OP.localSet, COUNT,
    ]),
    OP.end,
    OP.localGet, COUNT,
    OP.end,
  ];
}

/** scan(params, summed, from, to, needs, out, sums, ordered) → runs (see {@link placementScan}). */
export type PlacementScan = (params: number, summed: number, from: number, to: number, needs: number, out: number, sums: number, ordered: number) => number;
/** listed(params, summed, from, runs, needs, list, sums, ordered) → runs (see {@link placementScan}). */
export type PlacementListed = PlacementScan;

/**
 * The pass over a column memory for an allele chunk count and a number of placements (≤ MAX_PLACEMENTS), made once per
 * thread: `scan(params, summed, from, to, needs, out, sums, ordered)` reads slots from … to−1 (a multiple of 16
 * profiles, at most PASS_SLOTS) with the marker records at `params` (`summed` markers whose categories are SUMMED's
 * numbers and pair cells summedCell, then `ordered` ones with ORDERED's numbers and pair cells pairCell), the
 * placements' needs at `needs` (16 equal bytes each), their sums in the room at `sums` (sumsBytes), and writes for each
 * run of 16 with a profile reaching a need its record at `out` (RUN_BYTES: its first slot, then per placement the
 * 16-bit mask of the profiles reaching that placement's need; room for one record more than the runs); returns how
 * many runs. `listed(params, summed, from, runs, needs, list, sums, ordered)` (issue 31: the later stages) does the
 * same for the `runs` records at `list` alone (of the call's slots from `from` on): their sums, left by the scan and
 * earlier calls, go on with the records' markers; each placement's mask keeps only the profiles it holds that reach
 * the need, and the records with any left are written again from `list` on. With `relaxed` (where this thread compiles
 * it: relaxed-simd.ts) the pair bounds are looked up by the relaxed swizzle: the same runs, fewer instructions.
 */
export function placementScan(memory: WebAssembly.Memory, alleleChunks: number, placements: number, relaxed = relaxedSwizzle()): { scan: PlacementScan; listed: PlacementListed } {
  const { scan, listed } = scanFunctions(memory, `placement/${alleleChunks}/${placements}/${relaxed ? 'relaxed' : 'plain'}`, [
    { name: 'scan', params: 8, body: () => body(alleleChunks, placements, false, relaxed) },
    { name: 'listed', params: 8, body: () => body(alleleChunks, placements, true, relaxed) },
  ]);
  return { scan: scan as PlacementScan, listed: listed as PlacementListed };
}
