/**
 * Issue 31 "Speed": the placements kernel's dense scan starts each placement's sums from its first step's bounds, not
 * from a zeroed room (placement-kernel.ts). Whatever the sums room held before, the runs it reports must be those a plain
 * sum of the bounds gives — over any number of markers, none included, and with later stages adding to those sums.
 */
import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from '../../../../core/seeded-random';
import { CATEGORIES, markerRecordBytes, ORDERED, pairCell, placementScan, RUN_BYTES, SUMMED, summedCell, sumsBytes } from '../../../../server/matching/placement-kernel';
import { relaxedSimdAvailable, relaxedSwizzle } from '../../../../server/matching/relaxed-simd';

const PLACEMENTS = 2;
const MARKERS = 5;
const PROFILES = 64;
const record = markerRecordBytes(1, PLACEMENTS);
// The memory's layout: the columns (lo then hi per marker), the records, the needs, the runs found, the sums.
const COLUMNS = 0;
const RECORDS = COLUMNS + 2 * MARKERS * PROFILES;
const NEEDS = RECORDS + MARKERS * record;
const OUT = NEEDS + 16 * PLACEMENTS;
const SUMS = OUT + RUN_BYTES * (PROFILES / 16 + 1);

describe('the placements kernel', () => {
  it('reports the runs a plain sum of the bounds gives, whatever the sums room held: 0 to 5 markers, then a later stage', () => {
    const memory = new WebAssembly.Memory({ initial: 1, maximum: 65_536, shared: true });
    const bytes = new Uint8Array(memory.buffer);
    const { scan, listed } = placementScan(memory, 1, PLACEMENTS);
    const random = seededRandom(3135);
    const byte = (most: number) => Math.floor(random() * (most + 1));
    // Alleles 0 … 5 (those past the four categories read category 0), a pair bound per placement and cell (some large: saturation).
    const alleles = Array.from({ length: MARKERS }, () => ({ lo: Array.from({ length: PROFILES }, () => byte(5)), hi: Array.from({ length: PROFILES }, () => byte(5)) }));
    const categoryOf = Array.from({ length: MARKERS }, () => [0, byte(3), byte(3), byte(3), byte(3), byte(3)]);
    const pairs = Array.from({ length: MARKERS }, () => Array.from({ length: PLACEMENTS }, () => Array.from({ length: 16 }, () => (random() < 0.1 ? 200 : byte(40)))));
    alleles.forEach(({ lo, hi }, m) => {
      bytes.set(lo, COLUMNS + 2 * m * PROFILES);
      bytes.set(hi, COLUMNS + (2 * m + 1) * PROFILES);
      const at = RECORDS + m * record;
      new Uint32Array(memory.buffer, at, 2).set([COLUMNS + 2 * m * PROFILES, COLUMNS + (2 * m + 1) * PROFILES]);
      bytes.set(categoryOf[m]!.map((c) => SUMMED[c]!), at + 16);
      pairs[m]!.forEach((pair, q) => bytes.set(pair, at + 32 + 16 * q));
    });
    /** Placement q's saturated sum for profile i over markers from … to − 1, as the kernel's bytes add. */
    const sum = (q: number, i: number, from: number, to: number) => {
      let s = 0;
      for (let m = from; m < to; m++) s = Math.min(255, s + pairs[m]![q]![summedCell(categoryOf[m]![alleles[m]!.lo[i]!]!, categoryOf[m]![alleles[m]!.hi[i]!]!)]!);
      return s;
    };
    /** The runs reported at OUT: each run's first slot and its placements' masks. */
    const reported = (runs: number) => Array.from({ length: runs }, (_, r) => {
      const words = new Uint16Array(memory.buffer, OUT + RUN_BYTES * r, 2 + PLACEMENTS);
      return [words[0]! | (words[1]! << 16), ...words.subarray(2)];
    });
    /** The runs a plain sum reports: each run with a profile whose sum over the markers reaches its placement's need. */
    const expected = (masks: (q: number, i: number) => boolean) => {
      const runs: number[][] = [];
      for (let start = 0; start < PROFILES; start += 16) {
        const run = [start, ...Array.from({ length: PLACEMENTS }, (_, q) => Array.from({ length: 16 }, (_, j) => (masks(q, start + j) ? 1 << j : 0)).reduce((a, b) => a | b))];
        if (run.slice(1).some((mask) => mask > 0)) runs.push(run);
      }
      return runs;
    };
    let compared = 0;
    for (const needs of [[0, 0], [1, 1], [40, 90], [120, 60], [255, 200]]) {
      needs.forEach((need, q) => bytes.fill(need, NEEDS + 16 * q, NEEDS + 16 * q + 16));
      for (let markers = 0; markers <= MARKERS; markers++) {
        // Stale sums (a previous call's, or anything): the dense scan must not read them.
        bytes.fill(byte(255), SUMS, SUMS + sumsBytes(PLACEMENTS));
        const runs = scan(RECORDS, markers, 0, PROFILES, NEEDS, OUT, SUMS, 0);
        expect(reported(runs), `needs ${needs}, ${markers} markers`).toEqual(expected((q, i) => sum(q, i, 0, markers) >= needs[q]!));
        compared++;
        if (markers === 0 || markers === MARKERS || runs === 0) continue;
        // A later stage adds the rest of the markers to the runs still listed, from the dense scan's sums.
        const after = listed(RECORDS + markers * record, MARKERS - markers, 0, runs, NEEDS, OUT, SUMS, 0);
        expect(reported(after), `needs ${needs}, ${markers} markers then the rest`).toEqual(expected((q, i) => sum(q, i, 0, markers) >= needs[q]! && sum(q, i, 0, MARKERS) >= needs[q]!));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('reports the same runs with the relaxed swizzle as with the plain one: random columns (alleles past the tables too), both kinds of marker, 1 to 4 chunks and placements', () => {
    expect(relaxedSwizzle(), 'this Node compiles the relaxed swizzle once the flag is set').toBe(true);
    const random = seededRandom(3136);
    const byte = (most: number) => Math.floor(random() * (most + 1));
    const profiles = 256;
    let compared = 0;
    for (const [chunks, placements] of [[1, 1], [1, 3], [2, 2], [4, 4]] as const) {
      const memory = new WebAssembly.Memory({ initial: 4, maximum: 65_536, shared: true });
      const bytes = new Uint8Array(memory.buffer);
      const kernels = [true, false].map((relaxed) => placementScan(memory, chunks, placements, relaxed));
      const record = markerRecordBytes(chunks, placements);
      const markers = 7;
      const summed = 3;
      // Layout: columns, records, needs, runs found, sums.
      const records = 2 * markers * profiles;
      const needs = records + markers * record;
      const out = needs + 16 * placements;
      const sums = out + RUN_BYTES * (profiles / 16 + 1);
      for (let m = 0; m < markers; m++) {
        for (let i = 0; i < 2 * profiles; i++) bytes[2 * m * profiles + i] = byte(16 * chunks + 20);
        new Uint32Array(memory.buffer, records + m * record, 2).set([2 * m * profiles, (2 * m + 1) * profiles]);
        // Summed markers first (SUMMED's numbers, cells summedCell), then ordered ones (ORDERED's numbers, cells pairCell).
        for (let x = 0; x < 16 * chunks; x++) bytes[records + m * record + 16 + x] = m < summed ? SUMMED[byte(3)]! : ORDERED[byte(CATEGORIES - 1)]!;
        for (let q = 0; q < placements; q++) for (let c = 0; c < 16; c++) bytes[records + m * record + 16 + 16 * chunks + 16 * q + c] = random() < 0.1 ? 250 : byte(60);
      }
      for (const need of [1, 80, 160, 255]) {
        bytes.fill(need, needs, needs + 16 * placements);
        const runs = kernels.map(({ scan, listed }) => {
          const dense = scan(records, summed, 0, profiles, needs, out, sums, 2);
          const after = dense > 0 ? listed(records + 5 * record, 0, 0, dense, needs, out, sums, 2) : 0;
          return [dense, after, ...bytes.slice(out, out + RUN_BYTES * after)];
        });
        expect(runs[0], `${chunks} chunks, ${placements} placements, need ${need}`).toEqual(runs[1]);
        compared++;
      }
    }
    expect(compared).toBe(16);
    expect([pairCell(CATEGORIES - 1, CATEGORIES - 1), summedCell(3, 3)].every((cell) => cell < 16), 'every lookup the relaxed swizzle serves is in range').toBe(true);
  });

  it('gives each unordered pair of five categories its own cell under 16, in either order', () => {
    const cells = new Map<number, string>();
    for (let a = 0; a < CATEGORIES; a++) {
      for (let b = a; b < CATEGORIES; b++) {
        expect(pairCell(b, a)).toBe(pairCell(a, b));
        expect(cells.get(pairCell(a, b)), `${a}, ${b}`).toBeUndefined();
        cells.set(pairCell(a, b), `${a}, ${b}`);
      }
    }
    expect(cells.size).toBe(15);
    expect(Math.max(...cells.keys())).toBeLessThan(16);
  });

  it('falls back to the plain swizzle where the relaxed one does not compile', () => {
    let enabled = 0;
    expect(relaxedSimdAvailable(() => false, () => enabled++)).toBe(false);
    expect(enabled).toBe(1);
    expect(relaxedSimdAvailable(() => false, () => { throw new Error('unknown flag'); })).toBe(false);
    let on = false;
    expect(relaxedSimdAvailable(() => on, () => (on = true))).toBe(true);
    // Already on (Node 22): no flag set.
    expect(relaxedSimdAvailable(() => true, () => { throw new Error('not called'); })).toBe(true);
  });

  it('compiles the plain kernel where the thread cannot compile the relaxed swizzle, the relaxed one where asked', async () => {
    // i8x16.relaxed_swizzle's encoding: the SIMD prefix, then 0x100 as LEB128.
    const relaxedIn = (bytes: Uint8Array) => bytes.some((b, i) => b === 0xfd && bytes[i + 1] === 0x80 && bytes[i + 2] === 0x02);
    const compiled: Uint8Array[] = [];
    const Module = WebAssembly.Module;
    vi.resetModules();
    const validate = vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    const compile = vi.spyOn(WebAssembly, 'Module').mockImplementation(function (bytes: BufferSource) {
      compiled.push(new Uint8Array(bytes as Uint8Array));
      return new Module(bytes);
    });
    try {
      // A fresh copy of the kernel's modules: this thread's answer is found again, with the feature absent.
      const fresh = await import('../../../../server/matching/placement-kernel');
      const memory = new WebAssembly.Memory({ initial: 1, maximum: 65_536, shared: true });
      fresh.placementScan(memory, 1, 2);
      fresh.placementScan(memory, 1, 2, true);
    } finally {
      validate.mockRestore();
      compile.mockRestore();
    }
    expect(compiled.map(relaxedIn)).toEqual([false, true]);
  });
});
