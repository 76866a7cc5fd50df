/**
 * Typed arrays over SharedArrayBuffer (ARCHITECTURE.md "Using every core"): the index's columns live in
 * memory every search worker reads without a copy; a worker is handed the buffers, never their bytes.
 */

export const sharedBytes = (length: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(length));

export const sharedUint16 = (length: number): Uint16Array => new Uint16Array(new SharedArrayBuffer(length * Uint16Array.BYTES_PER_ELEMENT));

export const sharedUint32 = (length: number): Uint32Array => new Uint32Array(new SharedArrayBuffer(length * Uint32Array.BYTES_PER_ELEMENT));

/** A copy of `source` in fresh shared memory of `length` elements (growth, or a copy-on-write before an in-place edit). */
export function sharedCopy<T extends Uint8Array | Uint16Array | Uint32Array>(source: T, length: number, make: (length: number) => T): T {
  const out = make(length);
  out.set(source.subarray(0, Math.min(source.length, length)) as never);
  return out;
}
