/**
 * The chance-hit convolution (server/genetics/statistics/chance-hits.ts) on the WebAssembly gather kernel, one
 * convolution serving both roundings where every atom lies off the grid, gives what the plain scatter loop gave
 * (kept below as the reference): the same doubles for every tail, threshold and range, and P(LR = 0) to rounding.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lrDistribution, type LrAtom } from '../../../../../server/genetics/statistics';
import { ConvolutionKernel } from '../../../../../server/genetics/statistics/convolution-kernel';

const SLACK = 1e-9;
type Cells = Map<number, number>[];
/** The scatter convolution of one rounding as chance-hits.ts had it: layers by inconsistency count, pruned under fromCell. */
function scatter(markers: Cells[], most: number, fromCell: number) {
  let offset = 0;
  let dropped = 0;
  let layers = Array.from({ length: most + 1 }, (_, c) => Float64Array.of(c === 0 ? 1 : 0));
  const tops = markers.map((m) => Math.max(...m[0]!.keys(), ...m[1]!.keys()));
  for (const [m, [consistent, inconsistent]] of markers.entries()) {
    const keys = [...consistent!.keys(), ...inconsistent!.keys()];
    const min = Math.min(...keys);
    let next = layers.map((layer) => new Float64Array(layer.length + Math.max(...keys) - min));
    for (let c = 0; c <= most; c++) {
      for (const [k, p] of consistent!) if (p > 0) for (let i = 0; i < layers[c]!.length; i++) next[c]![i + k - min]! += p * layers[c]![i]!;
      if (c < most) for (const [k, p] of inconsistent!) if (p > 0) for (let i = 0; i < layers[c]!.length; i++) next[c + 1]![i + k - min]! += p * layers[c]![i]!;
    }
    offset += min;
    dropped *= [...consistent!.values(), ...inconsistent!.values()].reduce((a, b) => a + b, 0);
    const cut = Math.min(fromCell - tops.slice(m + 1).reduce((a, b) => a + b, 0) - offset, next[0]!.length - 1);
    if (cut > 0) {
      for (const layer of next) for (let i = 0; i < cut; i++) dropped += layer[i]!;
      next = next.map((layer) => layer.slice(cut));
      offset += cut;
    }
    layers = next;
  }
  const cells = layers.reduce((sum, layer) => sum.map((x, i) => x + layer[i]!));
  const suffix = new Float64Array(cells.length + 1);
  for (let i = cells.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + cells[i]!;
  return { offset, suffix, dropped };
}
/** The reference distribution's figures: P(S ≥ t) bracketed, thresholds, range and P(LR = 0). */
function reference(markers: LrAtom[][], step: number, most: number, counted: boolean, from: number) {
  const round = (f: (x: number) => number) =>
    markers.map((atoms) => {
      const cells: Cells = [new Map(), new Map()];
      for (const a of atoms) {
        if (a.log10 === -Infinity) continue;
        const k = f(a.log10 / step);
        const kind = counted && a.inconsistent ? 1 : 0;
        cells[kind]!.set(k, (cells[kind]!.get(k) ?? 0) + a.probability);
      }
      if (cells[0]!.size + cells[1]!.size === 0) cells[0]!.set(0, 0);
      return cells;
    });
  const fromCell = from === -Infinity ? -Infinity : Math.ceil(from / step - SLACK);
  const lower = scatter(round((x) => Math.floor(x + SLACK)), most, fromCell);
  const upper = scatter(round((x) => Math.ceil(x - SLACK)), most, fromCell);
  const at = (sum: typeof lower, j: number) => (j - sum.offset <= 0 ? sum.suffix[0]! : j - sum.offset >= sum.suffix.length ? 0 : sum.suffix[j - sum.offset]!);
  const total = markers.reduce((product, atoms) => product * atoms.reduce((s, a) => s + a.probability, 0), 1);
  return {
    zeroProbability: Math.max(0, total - lower.suffix[0]! - lower.dropped),
    range: { min: lower.offset * step, max: (upper.offset + upper.suffix.length - 2) * step },
    tail: (t: number) => ({ lower: at(lower, Math.ceil(t / step - SLACK)), upper: at(upper, Math.ceil(t / step - SLACK)) }),
    upper,
  };
}

const atom = fc.record({
  log10: fc.oneof({ weight: 8, arbitrary: fc.double({ min: -4, max: 3, noNaN: true }) }, fc.constantFrom(-Infinity, 0, 1.5, -0.02)),
  probability: fc.oneof({ weight: 8, arbitrary: fc.double({ min: 0.001, max: 1, noNaN: true }) }, fc.constant(0)),
  inconsistent: fc.boolean(),
});

/** The properties' cases: markers' atoms, the grid step, the inconsistency limit, `from`, whether the atoms lie off the grid. */
const cases = [
  fc.array(fc.array(atom, { minLength: 1, maxLength: 12 }), { maxLength: 7 }),
  fc.constantFrom(0.002, 0.01, 0.1),
  fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
  fc.constantFrom(-Infinity, -3, 0, 1.234, 4),
  fc.boolean(),
] as const;

/** Half the cases keep every atom strictly between grid points (one convolution serves both roundings). */
const placed = (markers: LrAtom[][], step: number, offGrid: boolean) => markers.map((m) => m.map((a) => (offGrid && Number.isFinite(a.log10) ? { ...a, log10: (Math.floor(a.log10 / step) + 0.37) * step } : a)));

describe('the chance-hit convolution', () => {
  it('gives the scatter loop\'s tails, thresholds and range exactly, on and off the grid, pruned or not, with inconsistency layers', () => {
    fc.assert(
      fc.property(
        ...cases,
        (markers, step, maxInconsistencies, from, offGrid) => {
          const atoms = placed(markers, step, offGrid);
          const counted = maxInconsistencies !== undefined;
          const most = counted ? Math.min(maxInconsistencies, atoms.length) : 0;
          const expected = reference(atoms, step, most, counted, from);
          const actual = lrDistribution(atoms, { step, from, ...(counted ? { maxInconsistencies } : {}) });
          expect(actual.range).toEqual(expected.range);
          // Sums of products in another order: the rounding scales with the mass (the atoms' probabilities need not sum to 1).
          const mass = atoms.reduce((product, as) => product * as.reduce((s, x) => s + x.probability, 0), 1);
          expect(Math.abs(actual.zeroProbability - expected.zeroProbability)).toBeLessThanOrEqual(1e-14 * Math.max(1, mass));
          const start = Number.isFinite(from) ? from : -30;
          for (let t = start; t < 25; t += step * 7.3) expect(actual.tail(t)).toEqual(expected.tail(t));
          for (const p of [0.5, 1e-3, 1e-6, 1e-9]) {
            const suffix = expected.upper.suffix;
            let a = 0;
            while (a < suffix.length - 1 && suffix[a]! > p) a++;
            expect(actual.thresholdFor(p)).toBe(p >= mass ? from : Math.max(from, (expected.upper.offset + a) * step));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('without zeroProbability skips the cells under the cut and gives the same grid, tails, thresholds and range, bit for bit', () => {
    const bits = (a: Float64Array) => [...new Uint32Array(Float64Array.from(a).buffer)];
    fc.assert(
      fc.property(
        ...cases,
        (markers, step, maxInconsistencies, from, offGrid) => {
          const atoms = placed(markers, step, offGrid);
          const options = { step, from, ...(maxInconsistencies !== undefined ? { maxInconsistencies } : {}) };
          const whole = lrDistribution(atoms, options);
          const tails = lrDistribution(atoms, { ...options, zeroProbability: false });
          expect(tails.zeroProbability).toBeNaN();
          for (const rounding of ['lower', 'upper'] as const) {
            expect(tails.grid[rounding].offset).toBe(whole.grid[rounding].offset);
            expect(bits(tails.grid[rounding].suffix)).toEqual(bits(whole.grid[rounding].suffix));
          }
          expect(tails.range).toEqual(whole.range);
          const start = Number.isFinite(from) ? from : -30;
          for (let t = start; t < 25; t += step * 7.3) expect(tails.tail(t)).toEqual(whole.tail(t));
          for (const p of [0.5, 1e-3, 1e-6, 1e-9]) expect(tails.thresholdFor(p)).toBe(whole.thresholdFor(p));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gathers p · src[j − s] over the atoms in order, onto the cells or onto 0, and leaves 0 past the end', () => {
    const k = new ConvolutionKernel();
    k.reserve(1 << 16);
    // src at 100 … 104 with zeros around; atoms shifts 0, 2 (i32 at 0, 1), probabilities at 8, 9; dst at 200.
    k.f64.fill(0, 0, 400);
    k.f64.set([1, 2, 3, 4, 5], 100);
    k.i32.set([0, 2 * 8], 0);
    k.f64.set([0.5, 0.25], 8);
    k.f64.set([9, 9, 9, 9, 9, 9, 9, 9], 200);
    k.gather(200, 100, 7, 0, 8, 2, false);
    expect([...k.f64.subarray(200, 208)]).toEqual([0.5, 1, 1.5 + 0.25, 2 + 0.5, 2.5 + 0.75, 1, 1.25, 0]);
    k.gather(200, 100, 7, 0, 8, 1, true);
    expect([...k.f64.subarray(200, 207)]).toEqual([1, 2, 1.75 + 1.5, 2.5 + 2, 3.25 + 2.5, 1, 1.25]);
  });
});
