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
    const count = kernel.reach(acc, 5, [0, 0], [mask[0]!, mask[1]!], out);
    expect(count).toBe(3);
    expect([...new Uint32Array(kernel.bytes.buffer, out, count)]).toEqual([1, 2, 3]);
    // Bit 31 of a half (a negative i32 in JavaScript) counts as set; n = 0 lists nothing.
    new BigUint64Array(kernel.bytes.buffer, acc, 1)[0] = 1n << 63n;
    expect(kernel.reach(acc, 1, [0, 0], [0, 1 << 31], out)).toBe(1);
    expect(kernel.reach(acc, 0, [0, 0], [-1, -1], out)).toBe(0);
  });

  it('lists the accumulators that can still set a mask bit once the remaining markers add their most, carrying from the low half into the high', () => {
    const kernel = new LookupKernel();
    kernel.reserve(65536);
    const [acc, out] = [0, 4096];
    // Lanes of 16 bits at 0 and 32: verdict bits 15 and 47.
    new BigUint64Array(kernel.bytes.buffer, acc, 4).set([0n, 0x7ff0n, 0x7ff0n << 32n, 0x7000n | (0x7000n << 32n)]);
    const mask = [1 << 15, 1 << 15] as const;
    // add 0x10 to both lanes: 0x7ff0 + 0x10 sets bit 15; 0x7000 + 0x10 does not.
    const add = [0x10, 0x10] as const;
    expect([...new Uint32Array(kernel.bytes.buffer, out, kernel.reach(acc, 4, add, mask, out))]).toEqual([1, 2]);
    expect(kernel.reach(acc, 4, [0, 0], mask, out)).toBe(0);
    expect(kernel.reach(acc, 0, add, mask, out)).toBe(0);
    // The addition is one 64-bit sum: 0xffff_fff0 + 0x10 carries into bit 32.
    new BigUint64Array(kernel.bytes.buffer, acc, 1)[0] = 0xffff_fff0n;
    expect(kernel.reach(acc, 1, [0x10, 0], [0, 1], out)).toBe(1);
    expect(kernel.reach(acc, 1, [0x0f, 0], [0, 1], out)).toBe(0);
  });

  it('adds a lookup to each listed accumulator only and keeps, in order and in place, those that can still set a mask bit', () => {
    const kernel = new LookupKernel();
    kernel.reserve(65536);
    const [acc, table, lo, hi, list] = [0, 1024, 4096, 8192, 12288];
    const shift = 1;
    // table[code] = code·0x1000 in the low lane
    new BigUint64Array(kernel.bytes.buffer, table, 4).set([0n, 0x1000n, 0x2000n, 0x3000n]);
    new BigUint64Array(kernel.bytes.buffer, acc, 6).set([0n, 0x4000n, 0x4000n, 0x4000n, 0x4000n, 0x4000n]);
    kernel.bytes.set([0, 0, 1, 1, 1, 1], lo);
    kernel.bytes.set([0, 1, 0, 1, 1, 1], hi);
    new Uint32Array(kernel.bytes.buffer, list, 4).set([1, 2, 3, 5]);
    const mask = [1 << 15, 0] as const;

    const kept = kernel.addKeep(acc, table, lo, hi, shift, list, 4, [0x1000, 0], mask);

    // 1: 0x4000 + 0x1000 (code 1), 2: + 0x2000, 3: + 0x3000, 5: + 0x3000; 4 is not listed and keeps its value.
    expect([...new BigUint64Array(kernel.bytes.buffer, acc, 6)]).toEqual([0n, 0x5000n, 0x6000n, 0x7000n, 0x4000n, 0x7000n]);
    // With 0x1000 still to come only 0x7000 can reach bit 15.
    expect(kept).toBe(2);
    expect([...new Uint32Array(kernel.bytes.buffer, list, 2)]).toEqual([3, 5]);
    expect(kernel.addKeep(acc, table, lo, hi, shift, list, 0, [0, 0], mask)).toBe(0);
  });
});
