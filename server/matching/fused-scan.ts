import type { AnalysisMatch } from './analysis-scan';
import type { ColumnPlan } from './lookup-table';
import type { ProfileIndex } from './profile-index';
import { categoryFilter, categoryPass, CLAMP_RANGE, ROUNDING, type CategoryFilter } from './category-pass';
import { LookupKernel } from './lookup-kernel';
import { FAIL } from './scans';
import { memoryOf } from './shared-memory';
import { vetoScan } from './veto-scan';

/**
 * What the fused pass needs of a plan: its index, per-marker tables over the index's columns, and the exact verdict
 * for any profile (analysis-scan's AnalysisPlan is one; so is a family's missing-person search).
 */
export type FusablePlan = { index: ProfileIndex; matchAt(slot: number): AnalysisMatch | null; sideMatches(): AnalysisMatch[] } & (
  | { kind: 'exclusion'; plans: ColumnPlan<Uint32Array>[]; maxExclusions: number }
  // filter: the category filter made with the tables (a split search's, once for every slice); made here when absent.
  | { kind: 'computational'; plans: ColumnPlan<Float64Array>[]; cut: number; filter?: CategoryFilter | 'all' | 'none' | null }
);

/** Profiles per block: the block's accumulators stay in the L1/L2 cache. */
const BLOCK = 4096;
/** A word is one 64-bit integer per profile holding several lanes side by side. */
const WORD_BITS = 64;
/** Computational lanes get at least this many bits (a 10-bit budget: about 0.05 log10 per step on a kinship analysis) and at most 16. */
const MIN_LANE_BITS = 11;
const MAX_LANE_BITS = 16;

/**
 * A plan's integer filter. `bits` wide, the lane's top bit is its verdict: it starts at 2^(bits−1) − need
 * and each marker adds q ≥ 0, so the top bit is set exactly when Σq ≥ need, and the lane never carries
 * into its neighbour (Σq ≤ 2^(bits−1) − 1).
 */
interface Lane {
  index: number;
  plan: FusablePlan;
  bits: number;
  tables: Int32Array[];
  need: number;
  offset: number;
}

/** Largest finite entry of a table (NaN and −∞ ignored); 0 when there is none. */
function finiteMax(table: Float64Array): number {
  let max = -Infinity;
  for (let i = 0; i < table.length; i++) if (table[i]! > max) max = table[i]!;
  return max === -Infinity ? 0 : max;
}

/** Bits an exclusion lane needs: its count of non-excluding markers (at most the marker count) plus the verdict bit. */
const exclusionBits = (plan: FusablePlan) => 32 - Math.clz32(plan.plans.length) + 1;

/**
 * The integer filter of a computational plan in `bits`: per marker q = ⌈(v − f)·s⌉ with v clamped up
 * to the floor f = best − CLAMP_RANGE, so Σq ≥ ⌈(cut − Σf)·s⌉ = need for every profile whose exact
 * log10 sum reaches the cut (rounding up only over-estimates). 'all' when every profile would pass
 * (the exact verdict is asked for each), 'none' when none can.
 */
function computationalFilter(plan: Extract<FusablePlan, { kind: 'computational' }>, bits: number): Pick<Lane, 'tables' | 'need'> | 'all' | 'none' {
  const budget = 2 ** (bits - 1) - 1;
  const tops = plan.plans.map((p) => finiteMax(p.table));
  const floors = tops.map((top, m) => {
    let min = top;
    for (const v of plan.plans[m]!.table) if (v < min && v >= top - CLAMP_RANGE) min = v;
    return min;
  });
  const range = tops.reduce((sum, top, m) => sum + (top - floors[m]!), 0);
  // Each marker's ⌈⌉ may add one: the scale leaves that room in the budget.
  const scale = range > 0 ? (budget - plan.plans.length) / range : 1;
  const quantise = (v: number, floor: number) => (v >= floor ? Math.ceil((v - floor) * scale + ROUNDING) : 0);
  const need = Math.ceil((plan.cut - floors.reduce((a, b) => a + b, 0)) * scale - ROUNDING);
  const most = plan.plans.reduce((sum, _, m) => sum + quantise(tops[m]!, floors[m]!), 0);
  if (need <= 0) return 'all';
  if (need > most) return 'none';
  return { tables: plan.plans.map((p, m) => Int32Array.from(p.table, (v) => quantise(v, floors[m]!))), need };
}

/** The filter of an exclusion plan: 1 per marker that does not exclude; a hit has at least markers − maxExclusions (exact; a need of 0 lets every profile through to the exact verdict). */
function exclusionFilter(plan: Extract<FusablePlan, { kind: 'exclusion' }>): Pick<Lane, 'tables' | 'need'> {
  return { tables: plan.plans.map((p) => Int32Array.from(p.table, (v) => (v >= FAIL ? 0 : 1))), need: Math.max(plan.plans.length - plan.maxExclusions, 0) };
}

/** Groups plans into words: exclusion lanes take their exact width, computational lanes share the rest evenly (11–16 bits). */
function packWords(plans: readonly FusablePlan[]): { plan: FusablePlan; index: number; bits: number }[][] {
  const words: { plan: FusablePlan; index: number; bits: number }[][] = [];
  let current: { plan: FusablePlan; index: number; minBits: number }[] = [];
  const close = () => {
    if (current.length === 0) return;
    const fixed = current.filter((l) => l.plan.kind === 'exclusion').reduce((sum, l) => sum + l.minBits, 0);
    const computational = current.filter((l) => l.plan.kind === 'computational').length;
    const width = computational === 0 ? 0 : Math.min(MAX_LANE_BITS, Math.floor((WORD_BITS - fixed) / computational));
    words.push(current.map(({ plan, index, minBits }) => ({ plan, index, bits: plan.kind === 'exclusion' ? minBits : width })));
    current = [];
  };
  for (const [index, plan] of plans.entries()) {
    const minBits = plan.kind === 'exclusion' ? exclusionBits(plan) : MIN_LANE_BITS;
    if (current.reduce((sum, l) => sum + l.minBits, 0) + minBits > WORD_BITS) close();
    current.push({ plan, index, minBits });
  }
  close();
  return words;
}

/**
 * Runs several analyses of one query over one index in a single pass (GENETICS.md "How the search
 * reaches memory speed"), for an approval's search: each analysis becomes an integer lane whose sum
 * over-estimates its exact score (a log10 sum, or the markers that do not exclude), lanes share one
 * 64-bit word per profile, so one lookup and one addition per marker serve four or five analyses,
 * including kinship analyses that no marker can rule out (κ0 > 0). The profiles a lane lets through are
 * confirmed by the analysis's exact verdict, so the results equal one scanAnalysis per plan. All plans
 * must share the index and the query's markers (plans of one query over one index do).
 */
export function fusedScan(plans: readonly FusablePlan[]): AnalysisMatch[][] {
  const found: AnalysisMatch[][] = plans.map(() => []);
  fusedScanEach(plans, (p, match) => found[p]!.push(match));
  return found;
}

/** The fused pass handing each confirmed match to `onMatch` with its plan's position, so a caller may keep only some (the keyboard search keeps the strongest). */
export function fusedScanEach(plans: readonly FusablePlan[], onMatch: (plan: number, match: AnalysisMatch) => void): void {
  if (plans.length === 0) return;
  const { index } = plans[0]!;
  const keep = (p: number, match: AnalysisMatch | null) => {
    if (match) onMatch(p, match);
  };
  // A computational plan whose markers fall into few allele categories runs the SIMD category pass instead of a lane.
  const categorical: { p: number; plan: FusablePlan; filter: CategoryFilter }[] = [];
  const laned: FusablePlan[] = [];
  const lanedIndex: number[] = [];
  for (const [p, plan] of plans.entries()) {
    // A plan whose LR-0 genotypes rule out nearly every profile is scanned by them alone (veto-scan.ts); not under a
    // threshold of 0 (cut −∞), which an LR of 0 meets.
    if (plan.kind === 'computational' && plan.cut > -Infinity && vetoScan(index.size, plan.plans, (slot) => keep(p, plan.matchAt(slot)))) continue;
    const filter = plan.kind === 'computational' ? (plan.filter !== undefined ? plan.filter : categoryFilter(plan.plans, plan.cut)) : null;
    if (filter === 'none') continue;
    if (filter !== null && filter !== 'all') categorical.push({ p, plan, filter });
    else (laned.push(plan), lanedIndex.push(p));
  }
  const words: Lane[][] = [];
  for (const word of packWords(laned).map((w) => w.map((l) => ({ ...l, index: lanedIndex[l.index]! })))) {
    const lanes: Lane[] = [];
    let offset = 0;
    for (const { plan, index: p, bits } of word) {
      const filter = plan.kind === 'exclusion' ? exclusionFilter(plan) : computationalFilter(plan, bits);
      // A lane nobody can fail is no filter: the exact verdict is asked for every profile.
      if (filter === 'all') for (let slot = 0; slot < index.size; slot++) keep(p, plan.matchAt(slot));
      else if (filter !== 'none') lanes.push({ index: p, plan, bits, offset, ...filter });
      offset += bits;
    }
    if (lanes.length > 0) words.push(lanes);
  }
  for (const [p, plan] of plans.entries()) for (const match of plan.sideMatches()) onMatch(p, match);
  for (const { p, plan, filter } of categorical) categoryPass(index.size, plan.plans as ColumnPlan<Float64Array>[], filter, (slot) => keep(p, plan.matchAt(slot)));
  if (words.length > 0) scanWords(index, plans[0]!.plans, words, (lane, slot) => keep(lane.index, lane.plan.matchAt(slot)));
}

/** A lane's value at its offset, split into the low and high 32-bit halves of a word. */
function halves(value: number, offset: number): [number, number] {
  if (offset >= 32) return [0, (value << (offset - 32)) >>> 0];
  const low = (value << offset) >>> 0;
  const high = offset + 32 - Math.clz32(value) > 32 ? value >>> (32 - offset) : 0;
  return [low, high];
}

/** Profiles sampled (a run from the middle of the index) to order a word's markers and choose where its pass turns sparse. */
const SAMPLE = 2048;
/** Relative costs per profile: a dense lookup is 1; a reach test over the block, and a listed profile's lookup and test (gathered). */
const REACH_COST = 0.6;
const LISTED_COST = 2.5;

/**
 * How a word's pass runs: its markers in order, the first `dense` of them for every profile of a block, then those
 * profiles whose lanes can still set their verdict bit — each lane's sum so far plus the most its remaining markers
 * can add (`reachAdd[k]`, packed as the lanes are, after k markers) — listed, and the remaining markers looked up for
 * the listed ones alone, the list shrinking after each. Exact: a profile dropped has no lane that can reach its need.
 */
interface WordPass {
  order: number[];
  dense: number;
  reachAdd: [number, number][];
}

/**
 * The word's pass from a sample of profiles: markers ordered by how much they take, on average, from the most the
 * lanes could still get (the markers that rule most profiles out first), and the dense prefix that minimises the
 * sample's estimated cost (all markers dense when listing would not pay).
 */
function planPass(index: ProfileIndex, columns: readonly { lo: Uint8Array; hi: Uint8Array; shift: number }[], lanes: readonly Lane[]): WordPass {
  const markers = columns.length;
  const size = index.size;
  const sample = Math.min(size, SAMPLE);
  // A run of consecutive profiles from the middle: spread-out slots would each miss the cache.
  const from = (size - sample) >>> 1;
  const tops = lanes.map((lane) => lane.tables.map((t) => {
    let top = 0;
    for (let i = 0; i < t.length; i++) if (t[i]! > top) top = t[i]!;
    return top;
  }));
  // values[l][m][i]: lane l's value at marker m for the i-th sampled profile.
  const values = lanes.map((lane) => columns.map((c, m) => {
    const table = lane.tables[m]!;
    const out = new Int32Array(sample);
    for (let i = 0; i < sample; i++) out[i] = table[(c.lo[from + i]! << c.shift) | c.hi[from + i]!]!;
    return out;
  }));
  const deficit = new Float64Array(markers);
  for (const [l, lane] of lanes.entries()) {
    let most = 0;
    for (let m = 0; m < markers; m++) most += tops[l]![m]!;
    const slack = Math.max(1, most - lane.need);
    for (let m = 0; m < markers; m++) {
      const laneValues = values[l]![m]!;
      let sum = 0;
      for (let i = 0; i < sample; i++) sum += laneValues[i]!;
      deficit[m]! += (tops[l]![m]! * sample - sum) / slack;
    }
  }
  const order = columns.map((_, m) => m).sort((a, b) => deficit[b]! - deficit[a]! || a - b);
  // remaining[l][k]: the most lane l can still add after the first k markers of the order.
  const remaining = lanes.map((_, l) => {
    const r = new Array<number>(markers + 1).fill(0);
    for (let k = markers - 1; k >= 0; k--) r[k] = r[k + 1]! + tops[l]![order[k]!]!;
    return r;
  });
  const reachAdd = Array.from({ length: markers + 1 }, (_, k) => {
    let low = 0;
    let high = 0;
    for (const [l, lane] of lanes.entries()) {
      const [a, b] = halves(remaining[l]![k]!, lane.offset);
      low |= a;
      high |= b;
    }
    return [low >>> 0, high >>> 0] as [number, number];
  });
  // alive[k]: sampled profiles some lane of which can still reach its need after k markers (each followed until it cannot).
  const dies = new Float64Array(markers + 2);
  const sums = new Float64Array(lanes.length);
  for (let i = 0; i < sample; i++) {
    sums.fill(0);
    let k = 0;
    for (; k <= markers; k++) {
      let reaches = false;
      for (let l = 0; l < lanes.length; l++) if (sums[l]! + remaining[l]![k]! >= lanes[l]!.need) reaches = true;
      if (!reaches) break;
      if (k < markers) for (let l = 0; l < lanes.length; l++) sums[l]! += values[l]![order[k]!]![i]!;
    }
    dies[k]!++;
  }
  const alive = new Float64Array(markers + 1);
  let left = sample;
  for (let k = 0; k <= markers; k++) {
    left -= dies[k]!;
    alive[k] = left;
  }
  let dense = markers;
  let best = markers;
  for (let d = 0; d < markers; d++) {
    let cost = d + REACH_COST;
    for (let k = d; k < markers; k++) cost += (LISTED_COST * alive[k]!) / sample;
    if (cost < best) [best, dense] = [cost, d];
  }
  return { order, dense, reachAdd };
}

/**
 * The pass, in the index's column memory (issue 29): the kernel reads the columns where they lie, its tables and
 * accumulators in this thread's working room there; per block each word's accumulators start at their biases, the kernel adds
 * one packed lookup per marker for every profile up to the word's dense prefix and then for the profiles that can
 * still reach a need (planPass), and lists those with a verdict bit set, which are handed to their lanes.
 */
function scanWords(index: ProfileIndex, columns: readonly { lo: Uint8Array; hi: Uint8Array; shift: number }[], words: readonly Lane[][], onCandidate: (lane: Lane, slot: number) => void): void {
  const memory = memoryOf(columns[0]!.lo);
  if (!memory || columns.some((c) => memoryOf(c.lo) !== memory || memoryOf(c.hi) !== memory)) throw new Error('The fused pass reads columns in an index\'s column memory only.');
  const k = LookupKernel.over(memory);
  const size = index.size;
  const columnAt = columns.map((c) => ({ lo: c.lo.byteOffset, hi: c.hi.byteOffset }));
  const tableBytes = columns.reduce((sum, c) => sum + (1 << (2 * c.shift)) * 8, 0);
  const tablesAt = k.scratch(words.length * (tableBytes + BLOCK * 8) + BLOCK * 4);
  const accAt = tablesAt + words.length * tableBytes;
  const outAt = accAt + words.length * BLOCK * 8;

  const prepared = words.map((lanes, w) => {
    let tableAt = tablesAt + w * tableBytes;
    const tables = columns.map((column, m) => {
      const at = tableAt;
      const length = 1 << (2 * column.shift);
      for (let code = 0; code < length; code++) {
        let low = 0;
        let high = 0;
        for (const lane of lanes) {
          const [l, h] = halves(lane.tables[m]![code]!, lane.offset);
          low |= l;
          high |= h;
        }
        k.words[at / 4 + 2 * code] = low >>> 0;
        k.words[at / 4 + 2 * code + 1] = high >>> 0;
      }
      tableAt += length * 8;
      return at;
    });
    let biasLow = 0;
    let biasHigh = 0;
    let maskLow = 0;
    let maskHigh = 0;
    for (const lane of lanes) {
      const [bl, bh] = halves(2 ** (lane.bits - 1) - lane.need, lane.offset);
      const [ml, mh] = halves(2 ** (lane.bits - 1), lane.offset);
      biasLow |= bl;
      biasHigh |= bh;
      maskLow |= ml;
      maskHigh |= mh;
    }
    const laneMasks = lanes.map((lane) => halves(2 ** (lane.bits - 1), lane.offset));
    const mask: [number, number] = [maskLow, maskHigh];
    return { lanes, laneMasks, tables, pass: planPass(index, columns, lanes), acc: accAt + w * BLOCK * 8, bias: (BigInt(biasHigh >>> 0) << 32n) | BigInt(biasLow >>> 0), mask };
  });

  for (let start = 0; start < size; start += BLOCK) {
    const n = Math.min(size, start + BLOCK) - start;
    for (const word of prepared) {
      const first = word.acc / 4;
      const { order, dense, reachAdd } = word.pass;
      new BigUint64Array(k.words.buffer, word.acc, n).fill(word.bias);
      for (let d = 0; d < dense; d++) {
        const m = order[d]!;
        k.addLookups(word.acc, word.tables[m]!, columnAt[m]!.lo + start, columnAt[m]!.hi + start, columns[m]!.shift, n);
      }
      let count = k.reach(word.acc, n, reachAdd[dense]!, word.mask, outAt);
      for (let d = dense; d < order.length && count > 0; d++) {
        const m = order[d]!;
        count = k.addKeep(word.acc, word.tables[m]!, columnAt[m]!.lo + start, columnAt[m]!.hi + start, columns[m]!.shift, outAt, count, reachAdd[d + 1]!, word.mask);
      }
      for (let c = 0; c < count; c++) {
        const i = k.words[outAt / 4 + c]!;
        const low = k.words[first + 2 * i]!;
        const high = k.words[first + 2 * i + 1]!;
        word.lanes.forEach((lane, l) => {
          const [ml, mh] = word.laneMasks[l]!;
          if (((low & ml) | (high & mh)) !== 0) onCandidate(lane, start + i);
        });
      }
    }
  }
}
