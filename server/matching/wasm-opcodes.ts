/** WebAssembly opcodes and types used by the listing (WebAssembly Core Specification 1.0, section 5.4). */
export const I32 = 0x7f;
export const I64 = 0x7e;
export const F64 = 0x7c;
export const OP = {
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
  i32ShrU: 0x76,
  i32Or: 0x72,
  i32Load: 0x28,
  i32Load8U: 0x2d,
  i32Load16U: 0x2f,
  i64Load: 0x29,
  i64Store: 0x37,
  i64Add: 0x7c,
  emptyBlock: 0x40,
  if: 0x04,
  else: 0x05,
  i32Store: 0x36,
  i64Const: 0x42,
  i64Eqz: 0x50,
  i64And: 0x83,
  i64Or: 0x84,
  i64Shl: 0x86,
  i64ExtendI32U: 0xad,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32GeU: 0x4f,
  br: 0x0c,
  select: 0x1b,
  i32And: 0x71,
  i32Ctz: 0x68,
  i32Ne: 0x47,
  i32Store8: 0x3a,
  i32Store16: 0x3b,
  f64Load: 0x2b,
  f64Store: 0x39,
  f64Add: 0xa0,
} as const;
export const V128 = 0x7b;
/**
 * SIMD instructions (WebAssembly Core Specification 2.0, section 5.4.8): each is the prefix 0xfd and its number, which
 * is LEB128-encoded (all these are under 128, one byte).
 */
const simd = (code: number) => [0xfd, code];
export const SIMD = {
  /** v128.load with a memory immediate after it. */
  load: simd(0x00),
  i8x16Splat: simd(0x0f),
  i8x16Eq: simd(0x23),
  i8x16GeU: simd(0x2c),
  v128And: simd(0x4e),
  v128Or: simd(0x50),
  i8x16Bitmask: simd(0x64),
  i8x16Sub: simd(0x71),
} as const;
/** Memory immediates: alignment (log2) and offset 0. */
export const ALIGN_1 = [0, 0];
export const ALIGN_4 = [2, 0];
export const ALIGN_8 = [3, 0];
