/**
 * Whether this thread's WebAssembly compiles `i8x16.relaxed_swizzle` (issue 31 "Speed"): one `pshufb` on x64, where
 * `i8x16.swizzle` is three instructions (an address, a saturating add that sends indices ≥ 16 out of pshufb's range, the
 * pshufb). Node 22 has relaxed SIMD on; Node 20 only behind V8's flag, which is set here (Node's documented
 * `v8.setFlagsFromString`) before any module that uses it is compiled. Kernels fall back to the plain swizzle without it.
 */
import { setFlagsFromString } from 'node:v8';

/** A module of one function (v128, v128) → v128: i8x16.relaxed_swizzle (0xfd 0x100) of its parameters. */
const PROBE: Uint8Array<ArrayBuffer> = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7b, 0x7b, 0x01, 0x7b,
  0x03, 0x02, 0x01, 0x00,
  0x0a, 0x0b, 0x01, 0x09, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfd, 0x80, 0x02, 0x0b,
]);

/** Whether `validate` accepts the relaxed swizzle, at once or once `enable` has turned the feature on. */
export function relaxedSimdAvailable(validate: (bytes: Uint8Array<ArrayBuffer>) => boolean, enable: () => void): boolean {
  if (validate(PROBE)) return true;
  try {
    enable();
  } catch {
    return false;
  }
  return validate(PROBE);
}

let available: boolean | undefined;
/** Whether this thread's kernels may use the relaxed swizzle: found once per thread, the flag set if needed. */
export const relaxedSwizzle = (): boolean =>
  (available ??= relaxedSimdAvailable(
    (bytes) => WebAssembly.validate(bytes),
    () => setFlagsFromString('--experimental-wasm-relaxed-simd'),
  ));
