import type { ColumnPlan } from './lookup-table';
import { FAIL } from './count-codes';

/**
 * One marker of a count's SIMD filter (issue 29; count-listing.ts COUNT_FILTERED): allele indices such that every
 * genotype code whose table value is under FAIL (a marker the profile does not fail) has its lo among `los`, or its hi
 * among `his`, or its lo among `pairLos` and its hi among `pairHis`. A profile matching none of them fails the marker;
 * one matching may still fail it (the kernel counts exactly after).
 */
export interface FilterMarker {
  /** The marker's position in the plans. */
  plan: number;
  los: number[];
  his: number[];
  pairLos: number[];
  pairHis: number[];
  /** An allele index no profile holds at the marker, filling the kernel's unused term slots. */
  none: number;
}

/** A count's filter: its markers, the first few of the scan's order, and how many of them a profile must pass. */
export interface CountFilter {
  markers: FilterMarker[];
  need: number;
}

/** The kernel's term slots per filter marker (count-listing.ts FILTER_RECORD). */
export const FILTER_SLOTS = { los: 3, his: 2, pairLos: 2, pairHis: 2 } as const;
/** At most this many filter markers (a pass count per byte lane; more rarely pays). */
const MAX_MARKERS = 6;
/**
 * The cost model that picks the filter's length, in units of the scalar kernel's first marker per profile (one
 * lookup and a listing), measured on the bench's index at 1M: a filter marker costs a fifth of it, a profile left
 * listed about sixteen (its listing, then its lookups in the further markers, each a cache miss at that size).
 */
const FILTER_MARKER = 0.2;
const LISTED = 16;
/** The scalar kernel's cost in the same units: the filter must beat it. */
const SCALAR = 1;

/**
 * Terms covering every code of a table under FAIL (lo ≤ hi, both under the dictionary size): lo values whose whole row
 * passes, hi values whose whole column passes (and the rows do not cover), then the lo and the hi values of the codes left, as pairs; null when
 * they do not fit the kernel's slots or every allele index is taken (no value to fill unused slots with).
 */
export function filterTerms(plan: ColumnPlan<Uint32Array>): Omit<FilterMarker, 'plan'> | null {
  const { shift, table } = plan;
  const n = plan.alleles ?? 1 << shift;
  if (n > 255) return null;
  const passes = (lo: number, hi: number) => table[(lo << shift) | hi]! < FAIL;
  const los: number[] = [];
  for (let v = 0; v < n; v++) {
    let row = true;
    for (let hi = v; hi < n && row; hi++) row = passes(v, hi);
    if (row) los.push(v);
  }
  // A column whose codes all pass, unless the rows already cover it (the untyped 0/0 is row 0's).
  const his: number[] = [];
  for (let v = 0; v < n; v++) {
    let column = true;
    let covered = true;
    for (let lo = 0; lo <= v && column; lo++) (column = passes(lo, v)), (covered &&= los.includes(lo));
    if (column && !covered) his.push(v);
  }
  if (los.length > FILTER_SLOTS.los || his.length > FILTER_SLOTS.his) return null;
  const pairLos = new Set<number>();
  const pairHis = new Set<number>();
  for (let lo = 0; lo < n; lo++) {
    if (los.includes(lo)) continue;
    for (let hi = lo; hi < n; hi++) {
      if (his.includes(hi) || !passes(lo, hi)) continue;
      pairLos.add(lo);
      pairHis.add(hi);
    }
  }
  if (pairLos.size > FILTER_SLOTS.pairLos || pairHis.size > FILTER_SLOTS.pairHis) return null;
  return { los, his, pairLos: [...pairLos], pairHis: [...pairHis], none: n };
}

/**
 * The filter for a count in scan order `order` allowing `maxFails` failed markers, or null when the scalar kernel is
 * cheaper: the filter length is the one the cost model prefers on a sample of profiles [from, to) (which profiles pass
 * does not depend on it: the filter drops only profiles over the allowance, and the kernel counts the rest exactly).
 */
export function countFilter(plans: readonly ColumnPlan<Uint32Array>[], order: readonly number[], maxFails: number, sample: { from: number; to: number }): CountFilter | null {
  const markers: FilterMarker[] = [];
  const sampled = sample.to - sample.from;
  const passed = new Uint8Array(sampled);
  let cost = 0;
  let best: { cost: number; length: number } = { cost: SCALAR, length: 0 };
  for (const m of order.slice(0, MAX_MARKERS)) {
    const terms = filterTerms(plans[m]!);
    if (!terms) continue;
    markers.push({ plan: m, ...terms });
    cost += FILTER_MARKER;
    const { lo, hi, shift, table } = plans[m]!;
    let listed = 0;
    for (let i = 0; i < sampled; i++) {
      const slot = sample.from + i;
      if (table[(lo[slot]! << shift) | hi[slot]!]! < FAIL) passed[i]!++;
      if (markers.length - passed[i]! <= maxFails) listed++;
    }
    const total = cost + (LISTED * listed) / Math.max(1, sampled);
    if (markers.length > maxFails && total < best.cost) best = { cost: total, length: markers.length };
  }
  return best.length === 0 ? null : { markers: markers.slice(0, best.length), need: best.length - maxFails };
}
