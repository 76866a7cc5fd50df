import { describe, expect, it } from 'vitest';
import { LookupKernel } from '../../../../server/matching/lookup-kernel';

describe('the WebAssembly lookup kernel', () => {
  it('adds table[(lo << shift) | hi] to each 64-bit accumulator, carrying across the 32-bit halves', () => {
    const kernel = new LookupKernel();
    kernel.reserve(200_000);
    const [acc, table, lo, hi] = [0, 1024, 4096, 8192];
    const shift = 2;
    const values = new BigUint64Array(kernel.bytes.buffer, table, 16);
    values.forEach((_, code) => (values[code] = (BigInt(code) << 32n) + 0xffff_ffffn));
    const start = new BigUint64Array(kernel.bytes.buffer, acc, 5);
    start.set([0n, 1n, 2n, 3n, 4n]);
    kernel.bytes.set([0, 1, 2, 3, 3], lo);
    kernel.bytes.set([0, 3, 1, 2, 3], hi);

    kernel.addLookups(acc, table, lo, hi, shift, 4);

    const after = new BigUint64Array(kernel.bytes.buffer, acc, 5);
    const expected = [0, 1, 2, 3].map((i) => BigInt(i) + ((BigInt([0, 7, 9, 14][i]!) << 32n) + 0xffff_ffffn));
    expect([...after.slice(0, 4)]).toEqual(expected);
    // Only n profiles are touched.
    expect(after[4]).toBe(4n);
  });

  it('does nothing for an empty block, and keeps its contents when the memory grows', () => {
    const kernel = new LookupKernel();
    kernel.reserve(64);
    new BigUint64Array(kernel.bytes.buffer, 0, 1)[0] = 42n;
    kernel.addLookups(0, 8, 16, 24, 1, 0);
    kernel.reserve(10 * 65536);
    expect(kernel.bytes.byteLength).toBeGreaterThanOrEqual(10 * 65536);
    expect(new BigUint64Array(kernel.bytes.buffer, 0, 1)[0]).toBe(42n);
  });

  it('lists, in order, the accumulators with a bit of the mask set, in either 32-bit half', () => {
    const kernel = new LookupKernel();
    kernel.reserve(65536);
    const [acc, out] = [0, 4096];
    new BigUint64Array(kernel.bytes.buffer, acc, 6).set([0n, 1n << 15n, 1n << 47n, (1n << 15n) | (1n << 47n), (1n << 14n) | (1n << 46n), 1n << 15n]);
    const mask = [1 << 15, 1 << 15];
    const count = kernel.candidates(acc, 5, mask[0]!, mask[1]!, out);
    expect(count).toBe(3);
    expect([...new Uint32Array(kernel.bytes.buffer, out, count)]).toEqual([1, 2, 3]);
    // Bit 31 of a half (a negative i32 in JavaScript) counts as set; n = 0 lists nothing.
    new BigUint64Array(kernel.bytes.buffer, acc, 1)[0] = 1n << 63n;
    expect(kernel.candidates(acc, 1, 0, 1 << 31, out)).toBe(1);
    expect(kernel.candidates(acc, 0, -1, -1, out)).toBe(0);
  });
});
