/**
 * Typed arrays that live no longer than one search, taken from memory this thread keeps from one search to the next
 * (issue 29). A fresh typed array's new pages each cost a minor page fault (~12–18 µs on the bench's VM); while the
 * malloc heap grew, a warm mixture search met 150–200 of them, most in the zeroing of arrays made for its tables and
 * its chance distribution. Outside {@link withScratch} every array is made fresh, as before; inside, each is handed out
 * zeroed, as a fresh one is.
 */

/** The most this thread keeps (bytes): past it, arrays are made fresh. */
const MOST = 32 << 20;
const FIRST = 1 << 20;

const chunks: ArrayBuffer[] = [];
let kept = 0;
let active = false;
let chunk = 0;
let used = 0;

/**
 * Runs `search` with scratch arrays handed out from the kept memory, all of them free again when it returns: nothing
 * made inside may be read after it (a nested call runs in the outer one's scope).
 */
export function withScratch<T>(search: () => T): T {
  if (active) return search();
  active = true;
  chunk = 0;
  used = 0;
  try {
    return search();
  } finally {
    active = false;
  }
}

/** Where `bytes` (a multiple of 8) lie in the kept memory, or null for a fresh array. */
function place(bytes: number): ArrayBuffer | null {
  if (!active) return null;
  while (chunk < chunks.length && used + bytes > chunks[chunk]!.byteLength) {
    chunk++;
    used = 0;
  }
  if (chunk === chunks.length) {
    const size = Math.max(bytes, chunks.length === 0 ? FIRST : 2 * chunks[chunks.length - 1]!.byteLength);
    if (kept + size > MOST) return null;
    chunks.push(new ArrayBuffer(size));
    kept += size;
  }
  return chunks[chunk]!;
}

function take<A extends Float64Array | Int32Array | Uint8Array>(length: number, size: number, make: (buffer: ArrayBuffer, at: number, length: number) => A, fresh: (length: number) => A): A {
  const bytes = Math.ceil((length * size) / 8) * 8;
  const buffer = place(bytes);
  if (!buffer) return fresh(length);
  const array = make(buffer, used, length);
  used += bytes;
  return array.fill(0) as A;
}

export const scratchFloat64 = (length: number): Float64Array => take(length, 8, (b, at, n) => new Float64Array(b, at, n), (n) => new Float64Array(n));
export const scratchInt32 = (length: number): Int32Array => take(length, 4, (b, at, n) => new Int32Array(b, at, n), (n) => new Int32Array(n));
export const scratchUint8 = (length: number): Uint8Array => take(length, 1, (b, at, n) => new Uint8Array(b, at, n), (n) => new Uint8Array(n));
