import { categoryChunks, groupClasses, ROUNDING } from './category-pass';
import type { ColumnPlan } from './lookup-table';
import { LookupKernel } from './lookup-kernel';
import type { ComparedColumn } from './genotype-lr-plan';
import { CATEGORIES, MAX_ALLELE_CHUNKS, MAX_PLACEMENTS, markerRecordBytes, ORDERED, ORDERED_CELLS, PASS_SLOTS, placementScan, RUN_BYTES, SUMMED, SUMMED_CELLS, sumsBytes } from './placement-kernel';
import { holds, jointClasses, markerClasses, type MarkerClasses } from './placement-classes';
import { memoryOf } from './shared-memory';
import { chosenStages, markerOrder, sampleOf, type PlacementStages } from './placement-stages';
import { slotWeighing, WEIGHING_RECORD_BYTES } from './slot-weighing-kernel';
import { weighingBytes, writeWeighing } from './weighing-tables';

/** One placement's per-marker log10 tables over the index's columns (placements over other columns get passes of their own) and its cut. */
export interface Placement {
  plans: readonly ComparedColumn[];
  cut: number;
}

/**
 * A placement's quantised tables: per marker its classes (placement-classes.ts) and each class pair's bound (a byte,
 * count × count) and code 0's; a profile can reach the cut only when its bounds sum to `need` ≤ 255.
 */
interface Quantised {
  need: number;
  markers: { classes: MarkerClasses; q: Uint8Array; untyped: number }[];
}

/**
 * A pass's byte filter: per marker each allele's category, shared by the pass's placements (16·chunks of them), and each
 * placement's pair bounds; `summed` markers (at most four categories) hold SUMMED's numbers and cells summedCell, the
 * others ORDERED's numbers and cells pairCell.
 */
interface PassFilter {
  chunks: number;
  markers: { summed: boolean; category: Uint8Array; pairs: Uint8Array[] }[];
}

/** The byte sums saturate here. */
const SATURATED = 255;
/**
 * A marker's factors more than this (log10) under its best count as that floor. A byte budget has ~240 steps for the
 * whole range from the floors' sum to the cut; a wider floor makes the steps coarser, a narrower one lets through
 * references that one marker rules out. 3 let the fewest through on the ESX17 bench stain (tried 1–12).
 */
const FLOOR_RANGE = 3;

/** A marker's largest finite value over its codes (0 when none) and its floor: the least value at most `range` under that top (as topsAndFloors over the codes). */
function topAndFloor(m: MarkerClasses, range: number): { top: number; floor: number } {
  const { order, count, log10, untyped } = m;
  let top = untyped > -Infinity ? untyped : -Infinity;
  for (const x of order) for (const y of order) if (holds(m, x, y) && log10[x * count + y]! > top) top = log10[x * count + y]!;
  if (top === -Infinity) top = 0;
  const lowest = top - range;
  let floor = top;
  if (untyped < floor && untyped >= lowest) floor = untyped;
  for (const x of order) {
    for (const y of order) {
      const v = log10[x * count + y]!;
      if (holds(m, x, y) && v < floor && v >= lowest) floor = v;
    }
  }
  return { top, floor };
}

/**
 * A placement's byte bounds (issue 31 "Speed"), found from its tables: q = ⌈(v − f)·s⌉ with v clamped up to the floor f
 * and q capped at 255, one scale s for all markers with ⌈(cut − Σf)·s⌉ = need ≤ 255 − markers, so every profile whose
 * exact log10 sum reaches the cut has Σq ≥ need (each ⌈⌉ over-estimates, a cap at 255 alone reaches any need). 'all'
 * when every profile would pass, 'none' when none can. Each class pair is quantised once: its codes share its value.
 */
function quantisedTables(plans: readonly ComparedColumn[], cut: number): Quantised | 'all' | 'none' {
  const classes = plans.map(markerClasses);
  const bounds = classes.map((m) => topAndFloor(m, FLOOR_RANGE));
  const span = cut - bounds.reduce((a, b) => a + b.floor, 0);
  if (span <= 0) return 'all';
  const scale = (SATURATED - plans.length) / span;
  // A local copy: an imported binding is read through a getter once the module is transpiled, and this runs per cell.
  const rounding = ROUNDING;
  const quantise = (v: number, floor: number) => (v >= floor ? Math.min(SATURATED, Math.ceil((v - floor) * scale + rounding)) : 0);
  const need = Math.ceil(span * scale - rounding);
  const most = Math.min(SATURATED, bounds.reduce((sum, { top, floor }) => sum + quantise(top, floor), 0));
  if (need <= 0) return 'all';
  if (need > most) return 'none';
  return {
    need,
    markers: classes.map((m, i) => {
      const { floor } = bounds[i]!;
      const { order, count, log10 } = m;
      const q = new Uint8Array(count * count);
      for (const x of order) for (const y of order) q[x * count + y] = quantise(log10[x * count + y]!, floor);
      return { classes: m, q, untyped: quantise(m.untyped, floor) };
    }),
  };
}

/**
 * The byte filter of a pass's placements over the same columns: per marker the alleles grouped into CATEGORIES
 * categories that every placement's bounds share (groupClasses over their joint classes: one lookup of each allele
 * serves them all; the grouping groupAlleles makes over the alleles), each placement's pair of categories bounded by the
 * largest q of its codes. On the ESX17 bench stain five shared categories let fewer references through (686 of 200,000)
 * than four of each placement's own (1,290). 'all' when a marker's categories need more chunks than the kernel reads.
 */
function passFilter(columns: readonly ColumnPlan<Float64Array>[], placements: readonly Quantised[]): PassFilter | 'all' {
  let chunks = 1;
  const markers = columns.map((column, m) => {
    const n = column.alleles ?? 1 << column.shift;
    const own = placements.map((p) => p.markers[m]!);
    const joint = jointClasses(own.map((p) => p.classes), n);
    const k = joint.count;
    // Each placement's bounds by joint class, read off its own classes through an allele of each.
    const matrices = own.map(({ classes, q }) => {
      const matrix = new Uint8Array(k * k);
      for (const x of joint.order) {
        const row = classes.of[joint.first[x]!]! * classes.count;
        for (const y of joint.order) matrix[x * k + y] = q[row + classes.of[joint.first[y]!]!]!;
      }
      return matrix;
    });
    // Always fits: at a tolerance of 255 every class joins the first category. "Not typed" (allele 0) shares category 0.
    const byClass = groupClasses(k, joint.alleles, joint.order, matrices, CATEGORIES, 2 * SATURATED)!.category;
    const category = new Uint8Array(n);
    for (let x = 1; x < n; x++) category[x] = byClass[joint.of[x]!]!;
    chunks = Math.max(chunks, categoryChunks(category, n));
    // Categories keep their numbers through categoryChunks (two swapped at most): four or fewer are 0 … 3.
    const summed = Math.max(...category) < SUMMED.length;
    // From here each allele holds its category's number, as the kernel reads it.
    const numbers = summed ? SUMMED : ORDERED;
    category.forEach((c, x) => (category[x] = numbers[c]!));
    const cells = summed ? SUMMED_CELLS : ORDERED_CELLS;
    const pairs = matrices.map((matrix, p) => {
      const pair = new Uint8Array(16);
      pair[cells[17 * category[0]!]!] = own[p]!.untyped;
      // Each class pair some code holds, its cell read off a table by its categories' numbers (16x + y).
      for (const x of joint.order) {
        const row = category[joint.first[x]!]! << 4;
        for (const y of joint.order) {
          if (!holds(joint, x, y)) continue;
          const cell = cells[row | category[joint.first[y]!]!]!;
          const bound = matrix[x * k + y]!;
          if (bound > pair[cell]!) pair[cell] = bound;
        }
      }
      return pair;
    });
    return { summed, category, pairs };
  });
  if (chunks > MAX_ALLELE_CHUNKS) return 'all';
  return {
    chunks,
    markers: markers.map(({ summed, category, pairs }) => {
      const categories = new Uint8Array(16 * chunks);
      categories.set(category.subarray(0, 16 * chunks));
      return { summed, category: categories, pairs };
    }),
  };
}

/**
 * Slots per call of the pass: its candidates are weighed while the stretch's column bytes (32 a profile on 16 markers,
 * a megabyte) are still in the core's second-level cache; fewer, longer calls spend less on the calls, the hand-over
 * between them and each stream's start (PASS_SLOTS).
 */
const STRETCH = PASS_SLOTS;

/** A placement's candidates of one stretch, weighed exactly: slot i's log10 sum (in scoreAt's order) and compared markers. */
export interface WeighedSlots {
  slots: Int32Array;
  log10: Float64Array;
  markerCount: Int32Array;
}

/** Plain arrays a stretch's candidates are handed over in, one set per placement, reused by every pass (allocating them cost more than the copy). */
const handedRooms: WeighedSlots[] = [];
function handedRoom(placements: number): WeighedSlots[] {
  while (handedRooms.length < placements) handedRooms.push({ slots: new Int32Array(STRETCH), log10: new Float64Array(STRETCH), markerCount: new Int32Array(STRETCH) });
  return handedRooms;
}

/**
 * The placements of a quantitative search over slots 0 … size−1 of their columns (in an index's column memory), in as
 * few passes as the kernel holds placements (placement-kernel.ts), a stretch of slots at a time: `onCandidates` gets,
 * per placement (in the order given; arrays valid during the call), the stretch's slots whose bound reaches that placement's need (and every slot of
 * the last, incomplete run of 16), in slot order, each weighed exactly (slot-weighing-kernel.ts) while its columns are
 * in the cache (weighed later, at random, each lookup would miss it). A placement no profile can reach gets none; if
 * one every profile reaches, every placement gets every slot. Each pass runs in stages (placement-stages.ts: a dense
 * prefix of the markers over every run of 16, then the runs still alive alone), chosen on a sample or by `choose`
 * (given the chosen ones), which changes its speed, never the slots it hands over.
 */
export function placementPass(
  size: number,
  placements: readonly Placement[],
  onCandidates: (byPlacement: readonly WeighedSlots[], from: number) => void,
  choose?: (chosen: PlacementStages, pass: number) => PlacementStages,
): void {
  const filters: { placement: number; tables: Quantised }[] = [];
  let all = false;
  placements.forEach(({ plans, cut }, placement) => {
    const tables = quantisedTables(plans, cut);
    if (tables === 'all') all = true;
    else if (tables !== 'none') filters.push({ placement, tables });
  });
  if (!all && filters.length === 0) return;
  const counts = new Int32Array(placements.length);
  const columns = placements.flatMap(({ plans }) => plans);
  const memory = columns.length > 0 ? memoryOf(columns[0]!.lo) : undefined;
  if (columns.some((p) => !memory || memoryOf(p.lo) !== memory || memoryOf(p.hi) !== memory)) throw new Error("The placements pass reads columns in an index's column memory only.");
  if (!memory) {
    // No column at all: every slot sums to 0 over 0 markers.
    for (let from = 0; from < size; from += STRETCH) {
      const slots = Int32Array.from({ length: Math.min(size, from + STRETCH) - from }, (_, i) => from + i);
      onCandidates(placements.map(() => ({ slots, log10: new Float64Array(slots.length), markerCount: new Int32Array(slots.length) })), from);
    }
    return;
  }
  const k = LookupKernel.over(memory);
  const weigh = slotWeighing(memory);
  // A pass reads one set of columns: placements over the same columns (a population may lack a marker) share passes.
  const sameColumns = (a: readonly ColumnPlan<Float64Array>[], b: readonly ColumnPlan<Float64Array>[]) => a.length === b.length && a.every((p, m) => p.lo === b[m]!.lo && p.hi === b[m]!.hi);
  const groups: (typeof filters)[] = [];
  for (const f of all ? [] : filters) {
    const group = groups.find((g) => g.length < MAX_PLACEMENTS && sameColumns(placements[g[0]!.placement]!.plans, placements[f.placement]!.plans));
    if (group) group.push(f);
    else groups.push([f]);
  }
  const passFilters = groups.map((group) => passFilter(placements[group[0]!.placement]!.plans, group.map((f) => f.tables)));
  if (passFilters.includes('all')) all = true;
  const layout = (all ? [] : groups).map((group, g) => {
    const columns = placements[group[0]!.placement]!.plans;
    const filter = passFilters[g] as PassFilter;
    const record = markerRecordBytes(filter.chunks, group.length);
    // The records, then the needs of each stage (the dense prefix's and each later one's: at most one a marker).
    return { group, columns, filter, record, bytes: columns.length * record + 16 * group.length * columns.length };
  });
  const boundBytes = layout.reduce((sum, g) => sum + g.bytes, 0);
  const tableBytes = placements.reduce((sum, { plans }) => sum + weighingBytes(plans), 0);
  // The working room: the bounds' records, the weighing tables, the runs found, the kernel's sums, then per placement a
  // stretch's candidates (slot, log10 sum, compared markers).
  const outBytes = RUN_BYTES * (STRETCH / 16 + 1);
  const sumsRoom = sumsBytes(Math.max(0, ...layout.map(({ group }) => group.length)));
  const base = k.scratch(boundBytes + tableBytes + outBytes + sumsRoom + 16 * STRETCH * placements.length);
  const outAt = base + boundBytes + tableBytes;
  const sumsAt = outAt + outBytes;
  k.bytes.fill(0, base, base + boundBytes);
  let at = base + boundBytes;
  const weighings = placements.map(({ plans }, j) => {
    const records = at;
    at += plans.length * WEIGHING_RECORD_BYTES;
    plans.forEach((plan, m) => (at = writeWeighing(k, plan, records + m * WEIGHING_RECORD_BYTES, at)));
    const slotsAt = sumsAt + sumsRoom + 16 * STRETCH * j;
    const views = { slots: new Int32Array(k.bytes.buffer, slotsAt, STRETCH), log10: new Float64Array(k.bytes.buffer, slotsAt + 4 * STRETCH, STRETCH), markerCount: new Int32Array(k.bytes.buffer, slotsAt + 12 * STRETCH, STRETCH) };
    return { records, markers: plans.length, slotsAt, views };
  });
  /** Placement j's candidates among `runs` run records at `from` (its mask at byte maskAt of each), weighed after those found so far. */
  const weighRuns = (j: number, runsAt: number, runs: number, maskAt: number) => {
    const { records, markers, slotsAt } = weighings[j]!;
    const c = counts[j]!;
    counts[j] = c + weigh(runsAt, runs, maskAt, records, markers, slotsAt + 4 * c, slotsAt + 4 * STRETCH + 8 * c, slotsAt + 12 * STRETCH + 4 * c);
  };
  /** Run record r at `outAt` of `n` profiles from `start`, every placement's mask set for them. */
  const wholeRun = (r: number, start: number, n: number) => {
    const mask = (1 << n) - 1;
    k.words.set([start, mask | (mask << 16), mask | (mask << 16)], (outAt + RUN_BYTES * r) / 4);
  };
  const handed = handedRoom(placements.length);
  const hand = (from: number) => {
    if (!counts.some((c) => c > 0)) return;
    // Copied out of the working room into plain arrays, valid during the call: a view of the shared memory's own per
    // array and stretch (subarray) cost a microsecond or so each, more than the copy of the few candidates.
    onCandidates(
      weighings.map(({ views }, j) => {
        const count = counts[j]!;
        const { slots, log10, markerCount } = handed[j]!;
        for (let i = 0; i < count; i++) {
          slots[i] = views.slots[i]!;
          log10[i] = views.log10[i]!;
          markerCount[i] = views.markerCount[i]!;
        }
        return { slots: slots.subarray(0, count), log10: log10.subarray(0, count), markerCount: markerCount.subarray(0, count) };
      }),
      from,
    );
    counts.fill(0);
  };
  if (all) {
    for (let from = 0; from < size; from += STRETCH) {
      const runs = Math.ceil((Math.min(size, from + STRETCH) - from) / 16);
      for (let r = 0; r < runs; r++) wholeRun(r, from + 16 * r, Math.min(16, size - from - 16 * r));
      placements.forEach((_, j) => weighRuns(j, outAt, runs, 4));
      hand(from);
    }
    return;
  }
  at = base;
  const passes = layout.map(({ group, columns, filter, record, bytes }, g) => {
    const kernel = placementScan(memory, filter.chunks, group.length);
    const needsAt = at + columns.length * record;
    const records = at;
    at += bytes;
    /** A stage's needs at `needsAt`: a profile can still reach placement q's need after `end` markers when its sum is at least need − most (≤ 0: any). */
    const fillNeeds = (needsAt: number, most: readonly number[][], end: number) =>
      group.forEach(({ tables }, q) => k.bytes.fill(Math.max(0, tables.need - most[q]![end]!), needsAt + 16 * q, needsAt + 16 * q + 16));
    // The stages chosen on a sample, by the kernel itself: the records in the markers' order, one marker a call.
    const { order, most } = markerOrder(size, columns, filter, group.length);
    writeRecords(k, columns, filter, order, records, record);
    const { from: sampleFrom, sample } = sampleOf(size);
    const alive = new Float64Array(order.length + 1).fill(1);
    for (let m = 0, runs = sample >>> 4; m < order.length && sample >= 16; m++) {
      fillNeeds(needsAt, most, m + 1);
      const summed = filter.markers[order[m]!]!.summed ? 1 : 0;
      const call = m === 0 ? kernel.scan : kernel.listed;
      runs = runs > 0 ? call(records + m * record, summed, sampleFrom, m === 0 ? sampleFrom + sample : runs, needsAt, outAt, sumsAt, 1 - summed) : 0;
      alive[m + 1] = runs / (sample >>> 4);
    }
    const chosen = chosenStages(order, most, alive);
    const stages = choose ? choose(chosen, g) : chosen;
    // The records in the stages' order, each stage's (the dense prefix's, then each later one's) summed markers first:
    // the kernel reads them so, and a stage's sums, bytes ≥ 0 added with saturation, are the same in any order.
    const ends = [stages.dense, ...stages.stages];
    const laid: number[] = [];
    const segments = ends.map((end, s) => {
      const start = s === 0 ? 0 : ends[s - 1]!;
      const markers = stages.order.slice(start, end);
      const summed = markers.filter((m) => filter.markers[m]!.summed);
      laid.push(...summed, ...markers.filter((m) => !filter.markers[m]!.summed));
      fillNeeds(needsAt + 16 * group.length * s, stages.most, end);
      return { params: records + start * record, summed: summed.length, ordered: markers.length - summed.length, needsAt: needsAt + 16 * group.length * s };
    });
    writeRecords(k, columns, filter, laid, records, record);
    return { segments, placements: group.map((f) => f.placement), ...kernel };
  });
  const whole = size - (size % 16);
  for (let from = 0; from < size; from += STRETCH) {
    const to = Math.min(size, from + STRETCH);
    const end = Math.min(whole, to);
    for (const { segments, placements: passPlacements, scan, listed } of passes) {
      const [first, ...later] = segments;
      let runs = end > from ? scan(first!.params, first!.summed, from, end, first!.needsAt, outAt, sumsAt, first!.ordered) : 0;
      for (const stage of later) if (runs > 0) runs = listed(stage.params, stage.summed, from, runs, stage.needsAt, outAt, sumsAt, stage.ordered);
      // Placement q's 16-bit mask: bytes 4 + 2q of each run's record.
      if (runs > 0) passPlacements.forEach((j, q) => weighRuns(j, outAt, runs, 4 + 2 * q));
    }
    if (end < to) {
      // The last, incomplete run of 16: every placement weighs each of its profiles.
      wholeRun(0, end, to - end);
      placements.forEach((_, j) => weighRuns(j, outAt, 1, 4));
    }
    hand(from);
  }
}

/** The markers' records in the order `laid`, from `at` on: their columns' addresses, allele categories and each placement's pair bounds. */
function writeRecords(k: LookupKernel, columns: readonly ColumnPlan<Float64Array>[], filter: PassFilter, laid: readonly number[], at: number, record: number): void {
  laid.forEach((m, r) => {
    const recordAt = at + r * record;
    k.words[recordAt / 4] = columns[m]!.lo.byteOffset;
    k.words[recordAt / 4 + 1] = columns[m]!.hi.byteOffset;
    const { category, pairs } = filter.markers[m]!;
    k.bytes.set(category, recordAt + 16);
    pairs.forEach((pair, q) => k.bytes.set(pair, recordAt + 16 + 16 * filter.chunks + 16 * q));
  });
}

