/**
 * The innermost loop of the fused approval scan as a WebAssembly function: for each profile i of a
 * block, acc[i] += table[(lo[i] << shift) | hi[i]] with 64-bit integers. In JavaScript the same loop
 * costs about three times as much (bounds checks, and no 64-bit integer add), and it runs once per
 * marker and profile for every approval. Two more functions let the pass drop profiles that can no longer
 * reach a threshold (`reach` over a block, `addKeep` over the profiles still listed), so most markers are
 * looked up for a few profiles only. The module is a few dozen instructions, assembled here from the
 * listing below so no binary is kept in the repository.
 */

import { growTo, HEADER, instantiate, leb128, name, section, vector } from '../genetics/statistics/wasm-listing';
import { claimPages, PAGE } from './shared-memory';
import { COUNT_BLOCK, COUNT_FILTERED } from './count-listing';
import { ALIGN_1, ALIGN_4, ALIGN_8, I32, I64, OP } from './wasm-opcodes';

/** The most pages a kernel's memory may have: 4 GiB, the 32-bit address space (shared-memory.ts). */
const MAX_PAGES = 65_536;


// addLookups(acc, table, lo, hi, shift, n): parameters 0–5, locals i = 6 and address = 7 (byte addresses, i64 slots 8 bytes).
const [ACC, TABLE, LO, HI, SHIFT, N, I, ADDRESS] = [0, 1, 2, 3, 4, 5, 6, 7];
/**
 * Leaves on the stack the address acc + i·8 (local `address` set to it) and acc[i] + table[(lo[i] << shift) | hi[i]],
 * ready for an i64.store: the step both lookup loops share.
 */
// prettier-ignore
const accPlusLookup = (l: { acc: number; table: number; lo: number; hi: number; shift: number; i: number; address: number }) => [
  OP.localGet, l.acc, OP.localGet, l.i, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localTee, l.address,
  OP.localGet, l.address, OP.i64Load, ...ALIGN_8,
  // table + ((lo[i] << shift) | hi[i])·8
  OP.localGet, l.table,
  OP.localGet, l.lo, OP.localGet, l.i, OP.i32Add, OP.i32Load8U, ...ALIGN_1,
  OP.localGet, l.shift, OP.i32Shl,
  OP.localGet, l.hi, OP.localGet, l.i, OP.i32Add, OP.i32Load8U, ...ALIGN_1,
  OP.i32Or, OP.i32Const, 3, OP.i32Shl, OP.i32Add,
  OP.i64Load, ...ALIGN_8,
  OP.i64Add,
];
// prettier-ignore
const ADD_LOOKUPS = [
  ...vector([[2, I32]]),
  OP.block, OP.emptyBlock,
  OP.localGet, N, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  ...accPlusLookup({ acc: ACC, table: TABLE, lo: LO, hi: HI, shift: SHIFT, i: I, address: ADDRESS }),
  OP.i64Store, ...ALIGN_8,
  // while (++i < n)
  OP.localGet, I, OP.i32Const, 1, OP.i32Add, OP.localTee, I, OP.localGet, N, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.end,
];

// reach(acc, n, addLow, addHigh, maskLow, maskHigh, out) → count: parameters 0–6, locals i = 7, count = 8 (i32), add = 9,
// mask = 10 (i64). Writes the index of every accumulator whose value plus add has a bit of the mask set to out (i32
// each), in order, and returns how many: with add 0 the profiles whose verdict bit is set, with add the most the
// remaining markers can give those that can still set it.
const [R_ACC, R_N, R_ADD_LOW, R_ADD_HIGH, R_MASK_LOW, R_MASK_HIGH, R_OUT, R_I, R_COUNT, R_ADD, R_MASK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/** local = (high << 32) | low, from two i32 locals. */
const joinI64 = (low: number, high: number, into: number) => [
  OP.localGet, high, OP.i64ExtendI32U, OP.i64Const, 32, OP.i64Shl,
  OP.localGet, low, OP.i64ExtendI32U, OP.i64Or, OP.localSet, into,
];
// prettier-ignore
const REACH = [
  ...vector([[2, I32], [2, I64]]),
  ...joinI64(R_ADD_LOW, R_ADD_HIGH, R_ADD),
  ...joinI64(R_MASK_LOW, R_MASK_HIGH, R_MASK),
  OP.block, OP.emptyBlock,
  OP.localGet, R_N, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // out[count] = i; count += ((acc[i] + add) & mask) ≠ 0 — without a branch, which would be mispredicted for a
  // third of the profiles (out has room for one past the last kept).
  OP.localGet, R_OUT, OP.localGet, R_COUNT, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.localGet, R_I, OP.i32Store, ...ALIGN_4,
  OP.localGet, R_COUNT,
  OP.localGet, R_ACC, OP.localGet, R_I, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.i64Load, ...ALIGN_8,
  OP.localGet, R_ADD, OP.i64Add,
  OP.localGet, R_MASK, OP.i64And, OP.i64Eqz, OP.i32Eqz,
  OP.i32Add, OP.localSet, R_COUNT,
  OP.localGet, R_I, OP.i32Const, 1, OP.i32Add, OP.localTee, R_I, OP.localGet, R_N, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.localGet, R_COUNT,
  OP.end,
];

// addKeep(acc, table, lo, hi, shift, list, count, addLow, addHigh, maskLow, maskHigh) → kept: parameters 0–10, locals
// j = 11, kept = 12, i = 13, address = 14 (i32), add = 15, mask = 16, value = 17 (i64). For each profile i listed
// (i32 each): acc[i] += table[(lo[i] << shift) | hi[i]], and i stays listed (compacted in place, in order) when
// acc[i] + add has a bit of the mask set. Returns how many stay.
const [K_ACC, K_TABLE, K_LO, K_HI, K_SHIFT, K_LIST, K_COUNT, K_ADD_LOW, K_ADD_HIGH, K_MASK_LOW, K_MASK_HIGH] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const [K_J, K_KEPT, K_I, K_ADDRESS, K_ADD, K_MASK, K_VALUE] = [11, 12, 13, 14, 15, 16, 17];
// prettier-ignore
const ADD_KEEP = [
  ...vector([[4, I32], [3, I64]]),
  ...joinI64(K_ADD_LOW, K_ADD_HIGH, K_ADD),
  ...joinI64(K_MASK_LOW, K_MASK_HIGH, K_MASK),
  OP.block, OP.emptyBlock,
  OP.localGet, K_COUNT, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // i = list[j]; address = acc + i·8
  OP.localGet, K_LIST, OP.localGet, K_J, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, ...ALIGN_4, OP.localSet, K_I,
  // value = acc[i] + table[(lo[i] << shift) | hi[i]]; acc[i] = value
  ...accPlusLookup({ acc: K_ACC, table: K_TABLE, lo: K_LO, hi: K_HI, shift: K_SHIFT, i: K_I, address: K_ADDRESS }),
  OP.localTee, K_VALUE,
  OP.i64Store, ...ALIGN_8,
  // list[kept] = i; kept += ((value + add) & mask) ≠ 0, without a branch (kept ≤ j, so the list is never overrun)
  OP.localGet, K_LIST, OP.localGet, K_KEPT, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.localGet, K_I, OP.i32Store, ...ALIGN_4,
  OP.localGet, K_KEPT,
  OP.localGet, K_VALUE, OP.localGet, K_ADD, OP.i64Add, OP.localGet, K_MASK, OP.i64And, OP.i64Eqz, OP.i32Eqz,
  OP.i32Add, OP.localSet, K_KEPT,
  // while (++j < count)
  OP.localGet, K_J, OP.i32Const, 1, OP.i32Add, OP.localTee, K_J, OP.localGet, K_COUNT, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.localGet, K_KEPT,
  OP.end,
];

const MODULE = new Uint8Array([
  ...HEADER,
  // type 0: (i32 × 6) → (); type 1: (i32 × 7) → i32; type 2: (i32 × 11) → i32
  ...section(1, vector([
    [0x60, ...vector(Array.from({ length: 6 }, () => [I32])), 0],
    [0x60, ...vector(Array.from({ length: 7 }, () => [I32])), ...vector([[I32]])],
    [0x60, ...vector(Array.from({ length: 11 }, () => [I32])), ...vector([[I32]])],
  ])),
  // import env.memory: shared, 0 … 65,536 pages (an index's column memory, or the kernel's own)
  ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x03, ...leb128(0), ...leb128(MAX_PAGES)]])),
  ...section(3, vector([leb128(0), leb128(1), leb128(2), leb128(1), leb128(1)])),
  ...section(7, vector([[...name('addLookups'), 0x00, ...leb128(0)], [...name('reach'), 0x00, ...leb128(1)], [...name('addKeep'), 0x00, ...leb128(2)], [...name('countBlock'), 0x00, ...leb128(3)], [...name('countFiltered'), 0x00, ...leb128(4)]])),
  ...section(10, vector([
    [...leb128(ADD_LOOKUPS.length), ...ADD_LOOKUPS],
    [...leb128(REACH.length), ...REACH],
    [...leb128(ADD_KEEP.length), ...ADD_KEEP],
    [...leb128(COUNT_BLOCK.length), ...COUNT_BLOCK],
    [...leb128(COUNT_FILTERED.length), ...COUNT_FILTERED],
  ])),
]);

/** The kernel's instance over each column memory, in this thread (an instance reads one memory). */
const kernels = new WeakMap<WebAssembly.Memory, LookupKernel>();

/**
 * The kernel over a shared WebAssembly memory: an index's column memory, whose columns it reads in place, or its own
 * (`reserve` grows it). A scan's tables and accumulators go in this thread's working room in the memory (`scratch`).
 */
export class LookupKernel {
  private readonly add: (acc: number, table: number, lo: number, hi: number, shift: number, n: number) => void;
  private readonly reachOf: (acc: number, n: number, addLow: number, addHigh: number, maskLow: number, maskHigh: number, out: number) => number;
  private readonly keep: (acc: number, table: number, lo: number, hi: number, shift: number, list: number, count: number, addLow: number, addHigh: number, maskLow: number, maskHigh: number) => number;
  private readonly count: (plans: number, markers: number, start: number, end: number, limit: number, selected: number, acc: number) => number;
  private readonly filtered: LookupKernel['count'];
  bytes: Uint8Array;
  words: Uint32Array;
  /** The memory as f64s (8-aligned addresses / 8): a view per table written cost about a microsecond each. */
  doubles: Float64Array;
  /** This thread's working room in the memory: its address and size (none yet). */
  private room = { at: 0, bytes: 0 };

  constructor(private readonly memory = new WebAssembly.Memory({ initial: 1, maximum: MAX_PAGES, shared: true })) {
    const exports = instantiate(MODULE, this.memory);
    this.add = exports.addLookups as LookupKernel['add'];
    this.reachOf = exports.reach as LookupKernel['reachOf'];
    this.keep = exports.addKeep as LookupKernel['keep'];
    this.count = exports.countBlock as LookupKernel['count'];
    this.filtered = exports.countFiltered as LookupKernel['count'];
    this.bytes = new Uint8Array(this.memory.buffer);
    this.words = new Uint32Array(this.memory.buffer);
    this.doubles = new Float64Array(this.memory.buffer);
  }

  /** The kernel over a column memory in this thread, made once. */
  static over(memory: WebAssembly.Memory): LookupKernel {
    let kernel = kernels.get(memory);
    if (!kernel) kernels.set(memory, (kernel = new LookupKernel(memory)));
    return kernel;
  }

  /** Makes the memory at least `size` bytes (a kernel over its own memory). */
  reserve(size: number): void {
    if (growTo(this.memory, size)) this.renewViews();
  }

  /**
   * The address of `bytes` of working room for this thread alone (8-aligned), claimed at the memory's end the first
   * time and again, larger, when a scan needs more; scans in one thread run one at a time, so they share it.
   */
  scratch(bytes: number): number {
    if (bytes > this.room.bytes) {
      const size = Math.ceil(Math.max(bytes, 2 * this.room.bytes) / PAGE) * PAGE;
      this.room = { at: claimPages(this.memory, size), bytes: size };
    }
    // Another thread (or the index's owner) may have grown the memory since: the views reach its end as it is now.
    if (this.bytes.buffer.byteLength < this.room.at + this.room.bytes) this.renewViews();
    return this.room.at;
  }

  private renewViews(): void {
    this.bytes = new Uint8Array(this.memory.buffer);
    this.words = new Uint32Array(this.memory.buffer);
    this.doubles = new Float64Array(this.memory.buffer);
  }

  /**
   * One block [start, end) of an identity or exclusion count (scans.ts countScan): `plans` lists per marker four i32
   * (table of u32 counts, lo, hi, shift); the first marker is looked up for every profile, each further one for those
   * still under `limit`. Leaves the survivors' slots at `selected` and their sums at `acc`, in order, and returns how many.
   */
  countBlock(plans: number, markers: number, start: number, end: number, limit: number, selected: number, acc: number): number {
    return this.count(plans, markers, start, end, limit | 0, selected, acc);
  }

  /**
   * countBlock with a SIMD filter before the count (count-listing.ts COUNT_FILTERED), laid out after the plans: it lists
   * only profiles that pass at least `need` of the filter's markers, then counts every marker over them.
   */
  countFiltered(plans: number, markers: number, start: number, end: number, limit: number, selected: number, acc: number): number {
    return this.filtered(plans, markers, start, end, limit | 0, selected, acc);
  }

  /** acc[i] += table[(lo[i] << shift) | hi[i]] for i < n; acc and table hold 64-bit integers (byte addresses, 8-aligned). */
  addLookups(acc: number, table: number, lo: number, hi: number, shift: number, n: number): void {
    this.add(acc, table, lo, hi, shift, n);
  }

  /** Writes to `out` (room for n) every i < n whose accumulator plus the 64-bit `add` (two 32-bit halves) has a bit of the mask set; returns how many. */
  reach(acc: number, n: number, add: readonly [number, number], mask: readonly [number, number], out: number): number {
    return this.reachOf(acc, n, add[0] | 0, add[1] | 0, mask[0] | 0, mask[1] | 0, out);
  }

  /**
   * For each of the `count` profiles listed at `list` (i32 each): acc[i] += table[(lo[i] << shift) | hi[i]]; keeps
   * listed, in order and in place, those whose accumulator plus `add` has a bit of the mask set, and returns how many.
   */
  addKeep(acc: number, table: number, lo: number, hi: number, shift: number, list: number, count: number, add: readonly [number, number], mask: readonly [number, number]): number {
    return this.keep(acc, table, lo, hi, shift, list, count, add[0] | 0, add[1] | 0, mask[0] | 0, mask[1] | 0);
  }
}
