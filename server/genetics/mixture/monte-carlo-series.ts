// The Monte-Carlo drop-out's tries, kept (issue 29: a forensic mixture's approval spent most of its time here). A try
// reads its numbers at places that depend only on the layout (markers, copies, replicates) and the drop-in, never on
// the evidence: its drop-out d and the alleles it shows in a population are the same for every stain of that layout.
// The evidence enters only as the count a try must show. So each (layout, drop-in, population) keeps its tries' d and
// counts, extended as a stain needs more, and a stain's estimate reads them: the same tries, the same kept values.
import { MULBERRY32_STEP as step, mulberry32At as at } from '../../../core/seeded-random';
import { alleleAt, layoutColumns, MOST_TRIES, WANTED, type Lane, type MarkerLayout } from './monte-carlo-lane';

/** One (layout, drop-in, population)'s tries so far: try t drew d[t] and showed counts[t] alleles. */
interface TrySeries {
  d: Float64Array;
  counts: Uint16Array;
  length: number;
  /** The generator's state after the last try kept. */
  state: number;
  lane: Lane;
  layout: readonly MarkerLayout[];
  dropIn: number;
}

/** Series kept (each at most MOST_TRIES × 10 bytes); the least recently read goes first. */
const KEPT_SERIES = 32;
/** Tries added at least per extension. */
const CHUNK = 8192;
const series = new Map<string, TrySeries>();

/**
 * The key of what a try's outcome depends on: the seed, the drop-in, the layout's places, and the population side a lane
 * reads (its cumulative frequencies, typed alleles): frequencies changed give another key, never a stale series.
 */
function seriesKey(layout: readonly MarkerLayout[], dropIn: number, lane: Lane, seed: number): string {
  return JSON.stringify([seed, dropIn, layout.map((m) => [m.marker, m.typed, m.unknowns, m.replicates]), Array.from(lane.cumulative), Array.from(lane.cumulativeLength), Array.from(lane.typedCodes), Array.from(lane.alleles)]);
}

/**
 * The values a lane keeps (Gill et al. 2007; SmartRank: the d of each try whose allele count equals the evidence's,
 * until WANTED are kept or MOST_TRIES tried) and the tries made, read from the kept series.
 */
export function keptDropouts(layout: readonly MarkerLayout[], observed: number, dropIn: number, lane: Lane, seed: number): { kept: number[]; tried: number } {
  const key = seriesKey(layout, dropIn, lane, seed);
  let s = series.get(key);
  if (s) series.delete(key);
  else s = { d: new Float64Array(0), counts: new Uint16Array(0), length: 0, state: seed >>> 0, lane, layout, dropIn };
  series.set(key, s);
  if (series.size > KEPT_SERIES) series.delete(series.keys().next().value!);
  const kept: number[] = [];
  let t = 0;
  while (kept.length < WANTED && t < MOST_TRIES) {
    if (t === s.length) extend(s, Math.min(MOST_TRIES, Math.max(s.length + CHUNK, 2 * s.length)));
    if (s.counts[t] === observed) kept.push(s.d[t]!);
    t++;
  }
  return { kept, tried: t };
}

/**
 * Makes `to` tries of the series: each its d, then per marker the unknowns' alleles' numbers, then per replicate a
 * number per copy (it survives when ≥ d) and the drop-in's (and its allele), every distinct allele seen in a replicate
 * counted. A copy whose allele is already seen in the replicate leaves its survival number unread, and an unknown's
 * allele is drawn only when one of its copies survives: the same numbers at the same places.
 */
function extend(s: TrySeries, to: number): void {
  const d = new Float64Array(to);
  d.set(s.d.subarray(0, s.length));
  const counts = new Uint16Array(to);
  counts.set(s.counts.subarray(0, s.length));
  const { layout, lane, dropIn } = s;
  const M = layout.length;
  const { unknownsOf, copiesOf, typedOf, typedBaseOf, replicatesOf } = layoutColumns(layout);
  const { stamps, codes, typedCodes } = lane;
  // Imported bindings are read through getters once transpiled: the loop reads local copies.
  const STEP = step;
  const numberAt = at;
  let state = s.state;
  let stamp = lane.stamp;
  for (let t = s.length; t < to; t++) {
    state = (state + STEP) >>> 0;
    const dropout = numberAt(state);
    let count = 0;
    for (let m = 0; m < M; m++) {
      const unknowns = unknownsOf[m]!;
      const copies = copiesOf[m]!;
      const typed = typedOf[m]!;
      const replicates = replicatesOf[m]!;
      const typedBase = typedBaseOf[m]!;
      const stampBase = lane.stampBase[m]!;
      const start = state;
      for (let k = 0; k < typed; k++) codes[k] = typedCodes[typedBase + k]!;
      // −1: an unknown's allele not drawn yet.
      for (let k = typed; k < copies; k++) codes[k] = -1;
      state = (state + Math.imul(2 * unknowns, STEP)) >>> 0;
      for (let r = 0; r < replicates; r++) {
        stamp++;
        for (let k = 0; k < copies; k++) {
          state = (state + STEP) >>> 0;
          let code = codes[k]!;
          if (code >= 0 && stamps[stampBase + code] === stamp) continue;
          if (numberAt(state) < dropout) continue;
          if (code < 0) code = codes[k] = alleleAt(lane, m, numberAt((start + Math.imul(k - typed + 1, STEP)) >>> 0));
          if (stamps[stampBase + code] !== stamp) {
            stamps[stampBase + code] = stamp;
            count++;
          }
        }
        state = (state + STEP) >>> 0;
        if (numberAt(state) < dropIn) {
          state = (state + STEP) >>> 0;
          const place = stampBase + alleleAt(lane, m, numberAt(state));
          if (stamps[place] !== stamp) {
            stamps[place] = stamp;
            count++;
          }
        }
      }
    }
    d[t] = dropout;
    counts[t] = count;
  }
  lane.stamp = stamp;
  Object.assign(s, { d, counts, length: to, state });
}
