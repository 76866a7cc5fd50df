import { categoryScan, CLEAR, LIST, MAX_CHUNKS, recordBytes } from './category-kernel';
import type { ColumnPlan } from './lookup-table';
import { categoryStages, type CategoryStages } from './category-stages';
import { LookupKernel } from './lookup-kernel';
import { memoryOf } from './shared-memory';

/** Per-marker log10 factors more than this under the marker's best count as that floor (an over-estimate: candidates are confirmed exactly). */
export const CLAMP_RANGE = 12;
/** Slack for floating-point rounding in (v − f)·s: far above its error, far below one step. */
export const ROUNDING = 1e-9;
/** Most categories of a marker: their pairs fill the pass's four 16-entry chunks. */
const MAX_CATEGORIES = 8;
/** A marker's bound is at most 127 (its best value quantised, one added by ⌈⌉), so two markers' bounds add within a byte. */
const STEPS = 126;
/** The 16-bit sums hold 127 per marker. */
const MAX_MARKERS = 256;

/**
 * A computational plan's integer filter for the category pass: per marker which category each allele index falls in
 * (lo's times the marker's category count, so lo's and hi's add to the pair's index) and each pair of categories'
 * bound; a profile is a candidate when its bounds sum to at least `need`.
 */
export interface CategoryFilter {
  need: number;
  alleleChunks: number;
  pairChunks: number;
  markers: { catLo: Uint8Array; catHi: Uint8Array; pair: Uint8Array }[];
}

/** Working room for a marker's quantised table, reused: read only while its marker is grouped. */
let quantised = new Uint8Array(0);

/**
 * Per marker the largest finite factor of its table (0 when none) and its floor: the smallest factor at most `range`
 * under that top (a filter clamps the factors under the floor up to it, which only over-estimates).
 */
export function topsAndFloors(plans: readonly ColumnPlan<Float64Array>[], range: number): { tops: number[]; floors: number[] } {
  const tops: number[] = [];
  const floors: number[] = [];
  // Plain loops over the codes, as eachCode visits them (a callback per code cost most of a search's filter making), the
  // running top and floor in locals: closures over them kept them in a heap context, written at every code.
  for (const { table, shift, alleles } of plans) {
    const n = alleles ?? 1 << shift;
    let top = table[0]! > -Infinity ? table[0]! : -Infinity;
    for (let lo = 1; lo < n; lo++) {
      for (let hi = lo; hi < n; hi++) {
        const v = table[(lo << shift) | hi]!;
        if (v > top) top = v;
      }
    }
    if (top === -Infinity) top = 0;
    const lowest = top - range;
    let min = top;
    if (table[0]! < min && table[0]! >= lowest) min = table[0]!;
    for (let lo = 1; lo < n; lo++) {
      for (let hi = lo; hi < n; hi++) {
        const v = table[(lo << shift) | hi]!;
        if (v < min && v >= lowest) min = v;
      }
    }
    tops.push(top);
    floors.push(min);
  }
  return { tops, floors };
}

/** The genotype codes a column's table covers: 0 (not typed) and every lo ≤ hi of the dictionary, lo ≥ 1. */
export function eachCode(plan: ColumnPlan<Float64Array>, visit: (code: number, lo: number, hi: number) => void): void {
  const n = plan.alleles ?? 1 << plan.shift;
  visit(0, 0, 0);
  for (let lo = 1; lo < n; lo++) for (let hi = lo; hi < n; hi++) visit((lo << plan.shift) | hi, lo, hi);
}

/**
 * The category filter of a computational plan (cut: log10 a profile must reach), found from its tables: each marker's
 * value quantised as the fused pass does (q = ⌈(v − f)·s⌉ with v clamped up to the floor f, so Σq ≥ ⌈(cut − Σf)·s⌉ for
 * every profile reaching the cut) with one scale s for all markers that keeps each q within a byte, then the alleles
 * grouped into categories ({@link groupAlleles}), each pair of categories bounded by the largest q of its codes. 'all' when every profile would pass, 'none' when none can; null when a
 * marker has more than 64 alleles (the fused pass's kernel runs it then).
 */
export function categoryFilter(plans: readonly ColumnPlan<Float64Array>[], cut: number): CategoryFilter | 'all' | 'none' | null {
  if (plans.length === 0 || plans.length > MAX_MARKERS) return null;
  if (plans.some((p) => (p.alleles ?? 1 << p.shift) > 16 * MAX_CHUNKS)) return null;
  const { tops, floors } = topsAndFloors(plans, CLAMP_RANGE);
  const widest = Math.max(...tops.map((top, m) => top - floors[m]!));
  const scale = widest > 0 ? STEPS / widest : 1;
  const quantise = (v: number, floor: number) => (v >= floor ? Math.ceil((v - floor) * scale + ROUNDING) : 0);
  let need = Math.ceil((cut - floors.reduce((a, b) => a + b, 0)) * scale - ROUNDING);
  const most = plans.reduce((sum, _, m) => sum + quantise(tops[m]!, floors[m]!), 0);
  if (need <= 0) return 'all';
  if (need > most) return 'none';

  // n: the alleles the pass's tables cover (16 a chunk).
  const markers: { n: number; categories: number; category: Uint8Array; pair: Uint8Array; cells: number }[] = [];
  for (const [m, plan] of plans.entries()) {
    const n = plan.alleles ?? 1 << plan.shift;
    if (quantised.length < plan.table.length) quantised = new Uint8Array(plan.table.length);
    const q = quantised.fill(0, 0, plan.table.length);
    eachCode(plan, (code) => (q[code] = quantise(plan.table[code]!, floors[m]!)));
    const grouped = groupAlleles(n, [pairMatrix(n, plan.shift, q)], MAX_CATEGORIES, 2 * STEPS);
    if (!grouped) return null;
    const { category, representatives } = grouped;
    // The untyped code 0/0 pairs with nothing else, so allele 0 needs no category of its own: it joins the one whose
    // homozygote bound is largest (their cell bounds both), and a stain's classes plus the others fit one fewer
    // chunk of pairs (7 categories: 49 pairs in 4 chunks before, 36 in 3 now).
    category[0] = untypedCategory(representatives, (r) => q[(r << plan.shift) | r]!);
    const chunks = categoryChunks(category, n);
    const categories = Math.max(1, representatives.length);
    const pair = new Uint8Array(categories * categories);
    const filled = new Uint8Array(categories * categories);
    eachCode(plan, (code, lo, hi) => {
      const cell = category[lo]! * categories + category[hi]!;
      pair[cell] = Math.max(pair[cell]!, q[code]!);
      filled[cell] = 1;
    });
    const lowered = lowestCellLast(category, pair, filled, categories, 16 * chunks < n);
    if (lowered > 0) need -= lowered;
    markers.push({ n: 16 * chunks, categories, category, pair, cells: categories * categories - (lowered >= 0 ? 1 : 0) });
  }
  const alleleChunks = Math.max(...markers.map((m) => Math.ceil(m.n / 16)));
  const pairChunks = Math.max(...markers.map((m) => Math.ceil(m.cells / 16)));
  // Every marker's tables in one buffer (a typed array's own memory costs about a microsecond to allocate; views do not).
  const record = 16 * (2 * alleleChunks + pairChunks);
  const tables = new ArrayBuffer(markers.length * record);
  return {
    need,
    alleleChunks,
    pairChunks,
    markers: markers.map(({ categories, category, pair }, m) => {
      const catLo = new Uint8Array(tables, m * record, 16 * alleleChunks);
      const catHi = new Uint8Array(tables, m * record + 16 * alleleChunks, 16 * alleleChunks);
      const to = Math.min(16 * alleleChunks, category.length);
      for (let x = 0; x < to; x++) (catLo[x] = category[x]! * categories), (catHi[x] = category[x]!);
      const padded = new Uint8Array(tables, m * record + 32 * alleleChunks, 16 * pairChunks);
      // A last cell past the chunks is 0 (lowestCellLast): the swizzle reads it so.
      padded.set(pair.subarray(0, padded.length));
      return { catLo, catHi, pair: padded };
    }),
  };
}

/**
 * A pair table one cell longer than whole chunks (7 categories: 49 cells) fits one chunk fewer when that last cell is 0,
 * as a swizzle past the chunks reads: the category whose homozygote cell is the table's least is renumbered last and
 * every cell lowered by that least, in place (the caller lowers the need as much: every profile's sum drops by it at
 * this marker). Returns the amount lowered, −1 when the table gains no chunk so or no homozygote cell is the least.
 * `zeroFixed`: category 0 keeps its number (the alleles past the chunks read it).
 */
function lowestCellLast(category: Uint8Array, pair: Uint8Array, filled: Uint8Array, categories: number, zeroFixed: boolean): number {
  const last = categories - 1;
  if ((categories * categories) % 16 !== 1 || last === 0) return -1;
  let least = Infinity;
  for (let cell = 0; cell < pair.length; cell++) if (filled[cell] && pair[cell]! < least) least = pair[cell]!;
  let lowest = -1;
  for (let c = zeroFixed ? 1 : 0; c < categories && lowest === -1; c++) if (filled[c * categories + c] && pair[c * categories + c] === least) lowest = c;
  if (lowest === -1) return -1;
  const renumbered = (c: number) => (c === lowest ? last : c === last ? lowest : c);
  category.forEach((c, x) => (category[x] = renumbered(c)));
  const before = pair.slice();
  const wasFilled = filled.slice();
  for (let a = 0; a < categories; a++) {
    for (let b = 0; b < categories; b++) {
      const cell = renumbered(a) * categories + renumbered(b);
      pair[cell] = wasFilled[a * categories + b] ? before[a * categories + b]! - least : 0;
    }
  }
  return least;
}

/** The category of the untyped allele 0: the representative whose homozygote's bound is largest (the first of equals). */
function untypedCategory(representatives: readonly number[], homozygote: (representative: number) => number): number {
  let best = 0;
  for (let c = 1; c < representatives.length; c++) if (homozygote(representatives[c]!) > homozygote(representatives[best]!)) best = c;
  return best;
}

/**
 * The 16-entry chunks a swizzle reads of an allele → category table: chunks past the first 16·chunks alleles read 0
 * (an index out of range), so enough chunks that the alleles past them share one category, which is then renumbered 0
 * (swapped with category 0's, in place).
 */
export function categoryChunks(category: Uint8Array, n: number): number {
  let chunks = Math.max(1, Math.ceil(n / 16));
  while (chunks > 1 && category.subarray(16 * (chunks - 1)).every((c) => c === category[16 * (chunks - 1)])) chunks--;
  if (16 * chunks < n) {
    const rest = category[16 * chunks]!;
    category.forEach((c, x) => (category[x] = c === rest ? 0 : c === 0 ? rest : c));
  }
  return chunks;
}

/**
 * A marker's bounds as an n × n matrix, q(x, z) at x·n + z for alleles x, z ≥ 1 (row and column 0 unused), from its
 * quantised table over the codes (lo ≤ hi): {@link groupAlleles} compares whole rows of it.
 */
export function pairMatrix(n: number, shift: number, q: Uint8Array): Uint8Array {
  const matrix = new Uint8Array(n * n);
  for (let x = 1; x < n; x++) for (let z = x; z < n; z++) matrix[x * n + z] = matrix[z * n + x] = q[(x << shift) | z]!;
  return matrix;
}

/**
 * Alleles 1 … n−1 grouped into at most `most` categories (category[x] from 0; category[0] is 0): x joins representative r's when,
 * with every third allele z, their bounds q(x, z) and q(r, z) (the {@link pairMatrix}) differ by at most a tolerance in each
 * of the matrices (one per table the categories serve) — 0 first (then a pair of
 * distinct categories has one bound, exact in kinship and mixtures, where any two alleles the query does not hold behave
 * alike), doubled until the alleles fit (a pedigree under stepwise mutation, where an allele one step from a relative's
 * differs a little). Any grouping is safe: a pair of categories is bounded by the largest bound of its codes.
 */
export function groupAlleles(n: number, matrices: readonly Uint8Array[], most: number, widest: number): { category: Uint8Array; representatives: number[] } | null {
  // Each allele its own class: the same grouping, class by class (plain loops: Array.from with a function cost ~3 µs here).
  const alleles: number[] = [0];
  const order: number[] = [];
  for (let x = 1; x < n; x++) {
    alleles.push(1);
    order.push(x);
  }
  return groupClasses(n, alleles, order, matrices, most, widest);
}

/**
 * {@link groupAlleles} when a marker's bounds depend on each allele's class only (a continuous table: the allele's place
 * in the evidence, or Q), in k² steps rather than n²: `alleles[c]` how many of alleles 1 … n−1 are of class c, `order`
 * the classes holding any in the order of their first allele, the matrices k × k. The categories of the classes, each
 * allele's its class's: exactly groupAlleles' over the alleles, since alleles of one class have equal rows (the first
 * of a class finds what groupAlleles finds for it, the others join it); a third allele z is compared when its class
 * holds any besides the two compared (a class holding one of them counts once less).
 */
export function groupClasses(k: number, alleles: readonly number[], order: readonly number[], matrices: readonly Uint8Array[], most: number, widest: number): { category: Uint8Array; representatives: number[] } | null {
  for (let tolerance = 0; tolerance <= widest; tolerance = Math.max(1, 2 * tolerance)) {
    const category = new Uint8Array(k);
    const representatives: number[] = [];
    let fits = true;
    for (let o = 0; o < order.length && fits; o++) {
      const x = order[o]!;
      let c = -1;
      for (let i = 0; i < representatives.length && c === -1; i++) {
        const r = representatives[i]!;
        let alike = true;
        for (let j = 0; j < matrices.length && alike; j++) {
          const q = matrices[j]!;
          for (let o = 0; o < order.length; o++) {
            const z = order[o]!;
            // x's and r's own classes count when they hold another allele (x ≠ r: they are distinct classes).
            if ((z === x || z === r) && alleles[z] === 1) continue;
            const d = q[x * k + z]! - q[r * k + z]!;
            if (d > tolerance || d < -tolerance) {
              alike = false;
              break;
            }
          }
        }
        if (alike) c = i;
      }
      if (c === -1) {
        fits = representatives.length < most;
        c = representatives.push(x) - 1;
      }
      category[x] = c;
    }
    if (fits) return { category, representatives };
  }
  return null;
}

/**
 * Slots per stretch of the pass: each marker runs over a stretch before the next, so only its two columns stream from
 * memory at a time. Long runs (64 KB of each column) let the hardware prefetcher keep up, where 1 KB runs left the pass
 * waiting on memory (issue 29: the dense pass over 20 markers at 1M profiles took 9.8 ms at 1,024, 4.1 ms at 16,384; a
 * 3-person stain's pass 0.94 of 16,384's time at 65,536, as each stream's start is paid 4 times less; at mixk35, with a
 * dense function per chunk count, 0.85 of 65,536's at 262,144, 0.83 at 1,048,576, a full-sibling search's 0.84 and
 * 0.80). The stretch's 16-bit sums (2 bytes a slot, 512 KB) stay in the kernel's room for its sparse stages, which add
 * only their own markers to them; its list of runs takes 8 bytes per 16 slots.
 */
export const CATEGORY_STRETCH = 262_144;
/** Lists for the runs a stretch found, copied out of the kernel's room: reused (a typed array's own memory is slow to allocate), one per pass running in this thread. */
const spareLists: Uint32Array[] = [];

/** The 16-entry chunks a marker's pair table needs: those up to its last bound above 0 (a swizzle past them reads 0). */
function pairChunksOf(pair: Uint8Array): number {
  let last = 0;
  for (let cell = 0; cell < pair.length; cell++) if (pair[cell]! > 0) last = cell;
  return (last >>> 4) + 1;
}

/**
 * The markers in record order: the first `dense` of `order` sorted by the chunks their pair tables need (stably), then
 * the rest of `order`; and the dense pass's pairs of records per chunk count, pairs[c − 1] the count of pairs needing c
 * (a pair needs its second marker's, the larger; an odd marker out is paired with the zero record after all).
 */
function denseRecords(order: readonly number[], dense: number, filter: CategoryFilter): { records: number[]; pairs: number[] } {
  const chunks = order.map((m) => pairChunksOf(filter.markers[m]!.pair));
  const prefix = order.slice(0, dense).map((m, r) => ({ m, c: chunks[r]! })).sort((a, b) => a.c - b.c);
  const pairs = new Array<number>(filter.pairChunks).fill(0);
  for (let r = 0; r < dense; r += 2) pairs[Math.max(prefix[r]!.c, prefix[r + 1]?.c ?? 1) - 1]!++;
  return { records: [...prefix.map((p) => p.m), ...order.slice(dense)], pairs };
}

/**
 * The category pass over slots 0 … size−1 of the plans' columns (in an index's column memory): each slot whose bounds
 * reach the filter's need handed to `onCandidate`, in slot order, and every slot of the last, incomplete run of 16 (the
 * pass reads whole vectors). `stages`: how the pass runs (category-stages.ts; chosen on a sample when not given), which
 * changes its speed, never the slots it hands over.
 */
export function categoryPass(size: number, plans: readonly ColumnPlan<Float64Array>[], filter: CategoryFilter, onCandidate: (slot: number) => void, stages: CategoryStages = categoryStages(size, plans, filter), stretch = CATEGORY_STRETCH): void {
  const memory = memoryOf(plans[0]!.lo);
  if (!memory || plans.some((p) => memoryOf(p.lo) !== memory || memoryOf(p.hi) !== memory)) throw new Error("The category pass reads columns in an index's column memory only.");
  const { dense: denseLevels, sparse } = categoryScan(memory, filter.alleleChunks, filter.pairChunks);
  const k = LookupKernel.over(memory);
  const record = recordBytes(filter.alleleChunks, filter.pairChunks);
  // The dense pass takes markers two at a time: an odd count is paired with a marker whose bounds are all 0.
  const markers = plans.length + (plans.length % 2);
  const whole = size - (size % 16);
  // The room of one stretch, or of the whole index when it is shorter.
  const span = Math.max(16, Math.min(stretch, whole));
  const base = k.scratch(markers * record + 2 * span + 8 * (span / 16));
  const accAt = base + markers * record;
  const outAt = accAt + 2 * span;
  const dense = stages.dense >= plans.length ? markers : stages.dense;
  // The records in the stages' order (a prefix of them is a stage's markers), the dense prefix's regrouped by the chunks
  // their pair tables need (its sums are whole numbers, in any order): a pair of markers reads no chunk it does not need.
  const { records, pairs } = denseRecords(stages.order, Math.min(dense, plans.length), filter);
  const lastLevel = Math.max(0, pairs.findLastIndex((count) => count > 0));
  records.forEach((m, r) => {
    const at = base + r * record;
    const plan = plans[m]!;
    const { catLo, catHi, pair } = filter.markers[m]!;
    k.words[at / 4] = plan.lo.byteOffset;
    k.words[at / 4 + 1] = plan.hi.byteOffset;
    k.bytes.set(catLo, at + 16);
    k.bytes.set(catHi, at + 16 + catLo.length);
    k.bytes.set(pair, at + 16 + 2 * catLo.length);
  });
  if (markers > plans.length) {
    const at = base + plans.length * record;
    k.bytes.fill(0, at, at + record);
    k.words[at / 4] = plans[0]!.lo.byteOffset;
    k.words[at / 4 + 1] = plans[0]!.hi.byteOffset;
  }
  // Sums over a prefix that stay at or under need − 1 − (the most the other markers add) cannot reach the need.
  const needLess = (prefix: number) => filter.need - 1 - (stages.most[prefix] ?? 0);
  let found = spareLists.pop();
  if (!found || found.length < 2 * (span / 16)) found = new Uint32Array(2 * (span / 16));
  try {
    for (let from = 0; from < whole; from += span) {
      const to = Math.min(whole, from + span);
      // The dense prefix's pairs of records, those read in one chunk first, then two, …: the first call clears the
      // sums, the last lists the runs.
      let runs = 0;
      for (let c = 0, at = base, steps = CLEAR; c <= lastLevel; at += 2 * pairs[c]! * record, c++) {
        if (c === lastLevel) steps |= LIST;
        else if (pairs[c] === 0) continue;
        runs = denseLevels[c]!(at, pairs[c]!, from, to, needLess(dense), outAt, accAt, steps);
        steps = 0;
      }
      // Each stage adds its own markers to the sums the dense pass left (2 bytes a slot at accAt, the stretch's).
      let summed = dense;
      for (const prefix of stages.stages) {
        if (runs === 0) break;
        runs = sparse(base + summed * record, prefix - summed, outAt, runs, needLess(prefix), outAt, accAt, from);
        summed = prefix;
      }
      if (runs === 0) continue;
      // Copied out before any candidate is confirmed: a confirmation may start another scan in this thread's room.
      found.set(k.words.subarray(outAt / 4, outAt / 4 + 2 * runs));
      for (let r = 0; r < runs; r++) {
        const first = found[2 * r]!;
        for (let mask = found[2 * r + 1]!; mask !== 0; mask &= mask - 1) onCandidate(first + 31 - Math.clz32(mask & -mask));
      }
    }
  } finally {
    spareLists.push(found);
  }
  for (let slot = whole; slot < size; slot++) onCandidate(slot);
}
