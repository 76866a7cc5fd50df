/**
 * The innermost loop of the fused approval scan as a WebAssembly function: for each profile i of a
 * block, acc[i] += table[(lo[i] << shift) | hi[i]] with 64-bit integers. In JavaScript the same loop
 * costs about three times as much (bounds checks, and no 64-bit integer add), and it runs once per
 * marker and profile for every approval. The module is a few dozen instructions, assembled here from
 * the listing below so no binary is kept in the repository.
 */

/** WebAssembly opcodes and types used by the listing (WebAssembly Core Specification 1.0, section 5.4). */
const I32 = 0x7f;
const I64 = 0x7e;
const OP = {
  block: 0x02,
  loop: 0x03,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Shl: 0x74,
  i32Or: 0x72,
  i32Load8U: 0x2d,
  i64Load: 0x29,
  i64Store: 0x37,
  i64Add: 0x7c,
  emptyBlock: 0x40,
  if: 0x04,
  i32Store: 0x36,
  i64Const: 0x42,
  i64Eqz: 0x50,
  i64And: 0x83,
  i64Or: 0x84,
  i64Shl: 0x86,
  i64ExtendI32U: 0xad,
} as const;

/** Unsigned LEB128, the encoding of every count and index in a module. */
function leb128(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

const vector = (items: number[][]) => [...leb128(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...leb128(body.length), ...body];
const name = (text: string) => [...leb128(text.length), ...[...text].map((c) => c.charCodeAt(0))];

// addLookups(acc, table, lo, hi, shift, n): parameters 0–5, locals i = 6 and address = 7 (byte addresses, i64 slots 8 bytes).
const [ACC, TABLE, LO, HI, SHIFT, N, I, ADDRESS] = [0, 1, 2, 3, 4, 5, 6, 7];
const ALIGN_8 = [3, 0];
const ALIGN_1 = [0, 0];
const ALIGN_4 = [2, 0];
// prettier-ignore
const ADD_LOOKUPS = [
  ...vector([[2, I32]]),
  OP.block, OP.emptyBlock,
  OP.localGet, N, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // address = acc + i·8; the value stored there is acc[i] + table[code]
  OP.localGet, ACC, OP.localGet, I, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.localTee, ADDRESS,
  OP.localGet, ADDRESS, OP.i64Load, ...ALIGN_8,
  // table + ((lo[i] << shift) | hi[i])·8
  OP.localGet, TABLE,
  OP.localGet, LO, OP.localGet, I, OP.i32Add, OP.i32Load8U, ...ALIGN_1,
  OP.localGet, SHIFT, OP.i32Shl,
  OP.localGet, HI, OP.localGet, I, OP.i32Add, OP.i32Load8U, ...ALIGN_1,
  OP.i32Or, OP.i32Const, 3, OP.i32Shl, OP.i32Add,
  OP.i64Load, ...ALIGN_8,
  OP.i64Add,
  OP.i64Store, ...ALIGN_8,
  // while (++i < n)
  OP.localGet, I, OP.i32Const, 1, OP.i32Add, OP.localTee, I, OP.localGet, N, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.end,
];

// candidates(acc, n, maskLow, maskHigh, out) → count: parameters 0–4, locals i = 5, count = 6 (i32), mask = 7 (i64).
// Writes the index of every accumulator with a bit of the mask set to out (i32 each), in order, and returns how many.
const [C_ACC, C_N, C_MASK_LOW, C_MASK_HIGH, C_OUT, C_I, C_COUNT, C_MASK] = [0, 1, 2, 3, 4, 5, 6, 7];
// prettier-ignore
const CANDIDATES = [
  ...vector([[2, I32], [1, I64]]),
  // mask = (maskHigh << 32) | maskLow
  OP.localGet, C_MASK_HIGH, OP.i64ExtendI32U, OP.i64Const, 32, OP.i64Shl,
  OP.localGet, C_MASK_LOW, OP.i64ExtendI32U, OP.i64Or, OP.localSet, C_MASK,
  OP.block, OP.emptyBlock,
  OP.localGet, C_N, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // if (acc[i] & mask) { out[count] = i; count++ }
  OP.localGet, C_ACC, OP.localGet, C_I, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.i64Load, ...ALIGN_8,
  OP.localGet, C_MASK, OP.i64And, OP.i64Eqz, OP.i32Eqz,
  OP.if, OP.emptyBlock,
  OP.localGet, C_OUT, OP.localGet, C_COUNT, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.localGet, C_I, OP.i32Store, ...ALIGN_4,
  OP.localGet, C_COUNT, OP.i32Const, 1, OP.i32Add, OP.localSet, C_COUNT,
  OP.end,
  OP.localGet, C_I, OP.i32Const, 1, OP.i32Add, OP.localTee, C_I, OP.localGet, C_N, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.localGet, C_COUNT,
  OP.end,
];

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  // type 0: (i32 × 6) → (); type 1: (i32 × 5) → i32
  ...section(1, vector([
    [0x60, ...vector([[I32], [I32], [I32], [I32], [I32], [I32]]), 0],
    [0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), ...vector([[I32]])],
  ])),
  // import env.memory (min 1 page)
  ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, ...leb128(1)]])),
  ...section(3, vector([leb128(0), leb128(1)])),
  ...section(7, vector([[...name('addLookups'), 0x00, ...leb128(0)], [...name('candidates'), 0x00, ...leb128(1)]])),
  ...section(10, vector([
    [...leb128(ADD_LOOKUPS.length), ...ADD_LOOKUPS],
    [...leb128(CANDIDATES.length), ...CANDIDATES],
  ])),
]);

const PAGE = 65536;

/** One WebAssembly memory and the kernel over it; `reserve` grows the memory (and renews the views) when a scan needs more. */
export class LookupKernel {
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly add: (acc: number, table: number, lo: number, hi: number, shift: number, n: number) => void;
  private readonly find: (acc: number, n: number, maskLow: number, maskHigh: number, out: number) => number;
  bytes = new Uint8Array(this.memory.buffer);
  words = new Uint32Array(this.memory.buffer);

  constructor() {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(MODULE), { env: { memory: this.memory } });
    this.add = instance.exports.addLookups as LookupKernel['add'];
    this.find = instance.exports.candidates as LookupKernel['find'];
  }

  /** Makes the memory at least `size` bytes. */
  reserve(size: number): void {
    const missing = Math.ceil((size - this.memory.buffer.byteLength) / PAGE);
    if (missing <= 0) return;
    this.memory.grow(missing);
    this.bytes = new Uint8Array(this.memory.buffer);
    this.words = new Uint32Array(this.memory.buffer);
  }

  /** acc[i] += table[(lo[i] << shift) | hi[i]] for i < n; acc and table hold 64-bit integers (byte addresses, 8-aligned). */
  addLookups(acc: number, table: number, lo: number, hi: number, shift: number, n: number): void {
    this.add(acc, table, lo, hi, shift, n);
  }

  /** Writes to `out` (i32 each, in order) every i < n whose accumulator has a bit of the 64-bit mask set; returns how many. */
  candidates(acc: number, n: number, maskLow: number, maskHigh: number, out: number): number {
    return this.find(acc, n, maskLow | 0, maskHigh | 0, out);
  }
}
