// The engine table's floor (issue 29): the fastest plain read of the bytes a scan reads — a WebAssembly SIMD pass
// that adds 16 bytes at a time, four lanes of accumulators, over a copy of the index's columns in a shared memory the
// module imports. No JavaScript loop reads memory faster; a scan that comes near it is as fast as the memory lets it be.
import type { ProfileIndex } from '../server/matching/profile-index';
import { HEADER, leb128, name, section } from '../server/genetics/statistics/wasm-listing';

/** acc_k += v128.load(ptr + 16k) (i8x16.add). */
const accumulate = (k: number) => [0x20, 2 + k, 0x20, 0x00, 0xfd, 0x00, 0x04, 16 * k, 0xfd, 0x6e, 0x21, 2 + k];
const BODY = [
  // locals: 4 × v128 (2..5), 1 × i32 (6: end)
  0x02, 0x04, 0x7b, 0x01, 0x7f,
  // end = ptr + len
  0x20, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x06,
  0x02, 0x40, 0x03, 0x40,
  // if ptr >= end: break
  0x20, 0x00, 0x20, 0x06, 0x4f, 0x0d, 0x01,
  ...accumulate(0), ...accumulate(1), ...accumulate(2), ...accumulate(3),
  // ptr += 64; continue
  0x20, 0x00, 0x41, ...[0xc0, 0x00], 0x6a, 0x21, 0x00, 0x0c, 0x00,
  0x0b, 0x0b,
  // (acc0 + acc1 + acc2 + acc3), lane 0
  0x20, 0x02, 0x20, 0x03, 0xfd, 0x6e, 0x20, 0x04, 0xfd, 0x6e, 0x20, 0x05, 0xfd, 0x6e, 0xfd, 0x16, 0x00,
  0x0b,
];
/** sum(ptr, len): i8x16 adds of 64 bytes per round into four v128 accumulators, folded into one byte at the end. */
export const FLOOR_MODULE = new Uint8Array([
  ...HEADER,
  // type 0: (i32, i32) -> i32
  ...section(1, [0x01, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f]),
  // env.memory: shared, at most 4 GiB (the index's columns live in memory of the same kind: shared-memory.ts)
  ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x03, ...leb128(0), ...leb128(65_536)]),
  // function 0 of type 0
  ...section(3, [0x01, 0x00]),
  // export "sum" (function 0)
  ...section(7, [0x01, ...name('sum'), 0x00, 0x00]),
  ...section(10, [0x01, ...leb128(BODY.length), ...BODY]),
]);

const PAGE = 65_536;

/** A SIMD pass over `bytes` bytes: load() copies the bytes in (untimed), pass() reads them all once. */
export class SimdFloor {
  private readonly sum: (ptr: number, len: number) => number;
  private readonly memory: WebAssembly.Memory;
  private length = 0;

  constructor() {
    // Shared, so that threads can read the same copy at once (floor-threads.ts), as searches read one index.
    this.memory = new WebAssembly.Memory({ initial: 1, maximum: 65_536, shared: true });
    this.sum = new WebAssembly.Instance(new WebAssembly.Module(FLOOR_MODULE), { env: { memory: this.memory } }).exports.sum as (ptr: number, len: number) => number;
  }

  /** Copies the columns an index's scans read (lo and hi of every marker, its size each) into the module's memory. */
  load(index: ProfileIndex): void {
    const n = index.size;
    const columns = index.markerColumns();
    // A whole number of 64-byte rounds: the pass reads a few bytes of padding at most.
    this.length = Math.ceil((2 * columns.length * n) / 64) * 64;
    const pages = Math.ceil(this.length / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    const into = new Uint8Array(this.memory.buffer);
    let at = 0;
    for (const { lo, hi } of columns) {
      into.set(lo.subarray(0, n), at);
      into.set(hi.subarray(0, n), at + n);
      at += 2 * n;
    }
  }

  /** The memory holding the copy and its length in bytes (a thread's pass reads the same: floor-threads.ts). */
  get bytes(): { memory: WebAssembly.Memory; length: number } {
    return { memory: this.memory, length: this.length };
  }

  /** One read of every byte loaded; returns the folded sum so the pass cannot be skipped. */
  pass(): number {
    return this.sum(0, this.length);
  }
}
