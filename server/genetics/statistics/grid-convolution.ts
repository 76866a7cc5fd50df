// The direct convolution behind lrDistribution (chance-hits.ts; GENETICS.md "Expected chance hits"): each marker's
// grid cells convolved in the WebAssembly kernel, sums that can no longer reach `from` dropped, then suffix sums.
import { ConvolutionKernel } from './convolution-kernel';
import type { GridSum } from './distribution-grid';
import { scratchFloat64 } from './search-scratch';

/** One marker on the grid: grid index → probability, merged, for consistent atoms and for inconsistent ones. */
export interface MarkerCells {
  consistent: Map<number, number>;
  inconsistent: Map<number, number>;
}

/** Direct convolution before the suffix sums: the sums' cells from grid index `offset` (convolveCells's: a view of the kernel's memory, read before the next convolution), and the mass dropped under `from`. */
export interface GridCells {
  offset: number;
  dropped: number;
  cells: Float64Array;
}

let kernel: ConvolutionKernel | null = null;

// convolveCells' set-up and its loops over a marker's Maps are functions of their own (issue 29): inlined, they made its
// optimized code so large that V8 took 200–450 ms on a helper thread to compile it, again after each of its exits
// ('wrong map'), in every search worker.

/** Per marker: the most the markers after it can add (cells), its lowest cell and its span; the most atoms of a marker (1 at least). */
function cellBounds(markers: readonly MarkerCells[]): { after: number[]; mins: number[]; spans: number[]; atomCount: number } {
  // The most the markers after each one can add (cells): a sum below fromCell − that can never reach fromCell.
  const tops = markers.map(({ consistent, inconsistent }) => Math.max(...consistent.keys(), ...inconsistent.keys()));
  const after = tops.map((_, m) => tops.slice(m + 1).reduce((a, b) => a + b, 0));
  const mins = markers.map(({ consistent, inconsistent }) => Math.min(...consistent.keys(), ...inconsistent.keys()));
  const spans = markers.map((_, m) => tops[m]! - mins[m]!);
  const atomCount = Math.max(1, ...markers.map(({ consistent, inconsistent }) => consistent.size + inconsistent.size));
  return { after, mins, spans, atomCount };
}

/** The atoms of `cells` with mass written from atom `count` on, as shifts (bytes from `min`) and probabilities; the count after them. */
function putAtoms(cells: Map<number, number>, min: number, k: ConvolutionKernel, shiftsAt: number, psAt: number, count: number): number {
  const { f64, i32 } = k;
  for (const [key, p] of cells) {
    if (!(p > 0)) continue;
    i32[shiftsAt + count] = (key - min) * 8;
    f64[psAt + count] = p;
    count++;
  }
  return count;
}

/** `mass` plus every probability of `cells`, added in their order. */
function addMass(cells: Map<number, number>, mass: number): number {
  for (const p of cells.values()) mass += p;
  return mass;
}

/**
 * Direct convolution of per-marker cells, markers independent. Layer c holds the sums reached with c
 * inconsistent markers (c ≤ `most`); mass that would exceed `most` is dropped (it is LR 0). Each step is
 * next[c][j] = Σ p · layer[c][j − s] (then the inconsistent atoms' from layer c − 1 first), the WebAssembly
 * gather of convolution-kernel.ts over layers kept in its memory with zeros around them. Without `countDropped` the
 * cells under the cut are never computed and `dropped` is NaN (lrDistribution's zeroProbability option).
 */
export function convolveCells(markers: readonly MarkerCells[], most: number, fromCell = -Infinity, countDropped = true): GridCells {
  kernel ??= new ConvolutionKernel();
  const k = kernel;
  let offset = 0;
  let dropped = 0;
  const { after, mins, spans, atomCount } = cellBounds(markers);
  // Memory: the atoms (shifts, then probabilities), then 2 × (most + 1) layer slots, each with zeros before and after.
  const pad = Math.max(0, ...spans) + 8;
  const longest = 1 + spans.reduce((a, b) => a + b, 0);
  const slot = pad + longest + pad;
  const shiftsAt = 0;
  const psAt = Math.ceil(atomCount / 2);
  const layersAt = psAt + atomCount;
  k.reserve((layersAt + 2 * (most + 1) * slot) * 8);
  // The views once the memory has its size (reading them off the kernel in the loops below costs a load per cell).
  const { f64, i32 } = k;
  const base = (phase: number, c: number) => layersAt + (phase * (most + 1) + c) * slot + pad;
  let phase = 0;
  let length = 1;
  const starts = Array.from({ length: most + 1 }, (_, c) => base(0, c));
  for (let c = 0; c <= most; c++) f64[starts[c]!] = c === 0 ? 1 : 0;
  for (const [m, { consistent, inconsistent }] of markers.entries()) {
    const min = mins[m]!;
    const span = spans[m]!;
    // The atoms with mass, consistent then inconsistent, as shifts (bytes) and probabilities.
    const consistentFirst = 0;
    const consistentCount = putAtoms(consistent, min, k, shiftsAt, psAt, consistentFirst);
    const inconsistentFirst = consistentCount;
    const inconsistentCount = putAtoms(inconsistent, min, k, shiftsAt, psAt, inconsistentFirst) - inconsistentFirst;
    // Zeros where the gather reads outside a layer.
    for (const start of starts) {
      f64.fill(0, start - span - 4, start);
      f64.fill(0, start + length, start + length + span + 8);
    }
    const n = length + span;
    offset += min;
    // Cells under `cut` can no longer reach fromCell: only their mass is kept, and without countDropped not even that, so
    // the gathers start at the cut (each cell is its own sum of products: the cells above are the same doubles).
    const cut = Math.min(fromCell - after[m]! - offset, n - 1);
    const skip = countDropped || !(cut > 0) ? 0 : cut;
    const next = Array.from({ length: most + 1 }, (_, c) => base(1 - phase, c));
    for (let c = 0; c <= most; c++) {
      // Layer c gets c − 1's inconsistent atoms first, then its own consistent ones: the scatter loop's order.
      const fromBelow = c > 0 && inconsistentCount > 0;
      if (fromBelow) k.gather(next[c]! + skip, starts[c - 1]! + skip, n - skip, shiftsAt + inconsistentFirst, psAt + inconsistentFirst, inconsistentCount, false);
      if (consistentCount > 0) k.gather(next[c]! + skip, starts[c]! + skip, n - skip, shiftsAt + consistentFirst, psAt + consistentFirst, consistentCount, fromBelow);
      else if (!fromBelow) f64.fill(0, next[c]!, next[c]! + n + 4);
    }
    // Mass dropped before this marker would have gone on with this marker's finite atoms (its LR-0 atoms make it zero).
    dropped *= addMass(inconsistent, addMass(consistent, 0));
    length = n;
    if (cut > 0) {
      if (countDropped) for (const start of next) for (let i = 0; i < cut; i++) dropped += f64[start + i]!;
      for (let c = 0; c <= most; c++) next[c]! += cut;
      length -= cut;
      offset += cut;
    }
    for (let c = 0; c <= most; c++) starts[c] = next[c]!;
    phase = 1 - phase;
  }
  // The layers added into the first one, in layer order, on typed arrays (issue 29): the array of the layers' copies this
  // summed before had an elements kind that depended on how V8 ran the mapping, and V8's code for the marker loop
  // (on-stack replacement, entered again on later calls) then left at its reduce on every call once it saw the other kind.
  // The sum stays in the kernel's memory (a view, read before the next convolution): a copy was ~90 kB of fresh memory a
  // mixture search, and fresh pages cost their faults (issue 29: a search's CPU swung with them).
  const cells = f64.subarray(starts[0]!, starts[0]! + length);
  for (let c = 1; c <= most; c++) {
    const start = starts[c]!;
    for (let i = 0; i < length; i++) cells[i] = cells[i]! + f64[start + i]!;
  }
  return { offset, cells, dropped: countDropped ? dropped : NaN };
}

/** The suffix sums of one rounding's cells, from the top. */
export function gridSum({ offset, cells, dropped }: GridCells): GridSum {
  return { offset, suffix: suffixSums(cells), dropped };
}

// The loop is a function of its own (issue 29): inside gridSum, V8 compiled it on the loop's entry (on-stack replacement)
// and kept entering that code on later calls, which then left it at the object after the loop whenever `offset` came as a
// heap number rather than a small integer ('not a Smi'; in the runs where that code was made, up to one search in five).

/** Each cell's sum with every cell above it (and 0 past the top), added from the top down. */
function suffixSums(cells: Float64Array): Float64Array {
  const suffix = scratchFloat64(cells.length + 1);
  for (let i = cells.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1]! + cells[i]!;
  return suffix;
}

/** Cells below `fromCell` dropped as the last step of convolveCells drops them (one cell at least is kept). */
export function cutAt({ offset, cells, dropped }: GridCells, fromCell: number): GridCells {
  const cut = Math.min(fromCell - offset, cells.length - 1);
  if (!(cut > 0)) return { offset, cells, dropped };
  for (let i = 0; i < cut; i++) dropped += cells[i]!;
  return { offset: offset + cut, cells: cells.subarray(cut), dropped };
}
