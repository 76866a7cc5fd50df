/**
 * The inner loop of the chance-hit convolution (chance-hits.ts) as a WebAssembly SIMD function: per output cell j,
 * out[j] (or 0) + p₁·src[j − s₁] + p₂·src[j − s₂] + …, two cells per f64x2 lane and eight per step (each atom's shift and
 * probability read once for eight cells). It adds the
 * same products in the same order as the scatter loop `to[i + s] += p · from[i]` atom by atom (a multiply, then an
 * add: no fused multiply-add), so every cell is the same double; it keeps the cell in a register over the atoms instead
 * of reading and writing the whole layer once per atom, and runs about four times as fast. The caller keeps zeros
 * around `src` (the largest shift before it, the largest shift and eight cells after it) and room for up to seven cells
 * past the output's end, which come out 0.
 */
import { growTo, HEADER, instantiate, leb128, name, section, sleb128, vector } from './wasm-listing';

const I32 = 0x7f;
const V128 = 0x7b;
/** WebAssembly opcodes (Core Specification 2.0, section 5.4; SIMD ones follow the 0xfd prefix, their number in LEB128). */
const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  brIf: 0x0d,
  emptyBlock: 0x40,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  f64Load: 0x2b,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32LtU: 0x49,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Shl: 0x74,
} as const;
const SIMD = 0xfd;
const v128Load = (offset: number) => [SIMD, ...leb128(0x00), 3, ...leb128(offset)];
const v128Store = (offset: number) => [SIMD, ...leb128(0x0b), 3, ...leb128(offset)];
const V128_ZERO = [SIMD, ...leb128(0x0c), ...new Array<number>(16).fill(0)];
const F64X2_SPLAT = [SIMD, ...leb128(0x14)];
const F64X2_ADD = [SIMD, ...leb128(0xf0)];
const F64X2_MUL = [SIMD, ...leb128(0xf2)];

// gather(dst, src, n, shifts, ps, count, accumulate): parameters 0–6 (byte addresses; shifts are i32 byte distances
// s·8, ps f64), locals j (byte offset of the cell), k (atom), address, end (i32), a0 … a3, p (v128).
const [DST, SRC, N, SHIFTS, PS, COUNT, ACCUMULATE, J, K, ADDRESS, END, A0, A1, A2, A3, P] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
const ACCUMULATORS = [A0, A1, A2, A3];
/** a = a + p · v128.load(address + offset) */
const addProduct = (a: number, offset: number) => [OP.localGet, a, OP.localGet, P, OP.localGet, ADDRESS, ...v128Load(offset), ...F64X2_MUL, ...F64X2_ADD, OP.localSet, a];
// prettier-ignore
const GATHER = [
  ...vector([[4, I32], [5, V128]]),
  OP.localGet, N, OP.i32Const, 3, OP.i32Shl, OP.localSet, END,
  OP.block, OP.emptyBlock,
  OP.localGet, N, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // a0 … a3 = dst[j … j + 7] when accumulating, else 0
  OP.localGet, ACCUMULATE,
  OP.if, OP.emptyBlock,
  ...ACCUMULATORS.flatMap((a, i) => [OP.localGet, DST, OP.localGet, J, OP.i32Add, ...v128Load(16 * i), OP.localSet, a]),
  OP.else,
  ...ACCUMULATORS.flatMap((a) => [...V128_ZERO, OP.localSet, a]),
  OP.end,
  OP.i32Const, 0, OP.localSet, K,
  OP.block, OP.emptyBlock,
  OP.localGet, COUNT, OP.i32Eqz, OP.brIf, 0,
  OP.loop, OP.emptyBlock,
  // address = src + j − shifts[k]; p = splat(ps[k])
  OP.localGet, SRC, OP.localGet, J, OP.i32Add,
  OP.localGet, SHIFTS, OP.localGet, K, OP.i32Const, 2, OP.i32Shl, OP.i32Add, OP.i32Load, 2, 0,
  OP.i32Sub, OP.localSet, ADDRESS,
  OP.localGet, PS, OP.localGet, K, OP.i32Const, 3, OP.i32Shl, OP.i32Add, OP.f64Load, 3, 0,
  ...F64X2_SPLAT, OP.localSet, P,
  ...ACCUMULATORS.flatMap((a, i) => addProduct(a, 16 * i)),
  // while (++k < count)
  OP.localGet, K, OP.i32Const, 1, OP.i32Add, OP.localTee, K, OP.localGet, COUNT, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  ...ACCUMULATORS.flatMap((a, i) => [OP.localGet, DST, OP.localGet, J, OP.i32Add, OP.localGet, a, ...v128Store(16 * i)]),
  // while ((j += 64) < end)
  OP.localGet, J, OP.i32Const, ...sleb128(64), OP.i32Add, OP.localTee, J, OP.localGet, END, OP.i32LtU, OP.brIf, 0,
  OP.end,
  OP.end,
  OP.end,
];

const MODULE = new Uint8Array([
  ...HEADER,
  // type 0: (i32 × 7) → ()
  ...section(1, vector([[0x60, ...vector(Array.from({ length: 7 }, () => [I32])), 0]])),
  // import env.memory (min 1 page)
  ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, ...leb128(1)]])),
  ...section(3, vector([leb128(0)])),
  ...section(7, vector([[...name('gather'), 0x00, ...leb128(0)]])),
  ...section(10, vector([[...leb128(GATHER.length), ...GATHER]])),
]);

/** One WebAssembly memory and the gather over it; `reserve` grows the memory (and renews the view). */
export class ConvolutionKernel {
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly run: (dst: number, src: number, n: number, shifts: number, ps: number, count: number, accumulate: number) => void;
  f64 = new Float64Array(this.memory.buffer);
  i32 = new Int32Array(this.memory.buffer);

  constructor() {
    const exports = instantiate(MODULE, this.memory);
    this.run = exports.gather as ConvolutionKernel['run'];
  }

  /** Makes the memory at least `size` bytes. */
  reserve(size: number): void {
    if (!growTo(this.memory, size)) return;
    this.f64 = new Float64Array(this.memory.buffer);
    this.i32 = new Int32Array(this.memory.buffer);
  }

  /**
   * For cells j < n (rounded up to a multiple of 8) at f64 index `dst`: dst[j] = (accumulate ? dst[j] : 0) + Σₖ ps[k] ·
   * src[j − shifts[k]], k in order; `src`, `shifts` (cells) and `ps` are f64 / i32 indices into the memory.
   */
  gather(dst: number, src: number, n: number, shifts: number, ps: number, count: number, accumulate: boolean): void {
    this.run(dst * 8, src * 8, n, shifts * 4, ps * 8, count, accumulate ? 1 : 0);
  }
}
