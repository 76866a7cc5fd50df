import type { ColumnPlan } from './lookup-table';
import { countScan, FAIL } from './scans';

/** Profiles sampled (a run from the middle) to tell whether the vetoes keep few enough to be worth their own pass. */
const SAMPLE = 2048;
/** Most of the sample the vetoes may let through: above it, the category pass or a lane filters better. */
const MOST_KEPT = 1 / 32;

/**
 * A computational plan's vetoes (GENETICS.md "How the search reaches memory speed"): a genotype whose factor is LR 0
 * (log10 −∞; an identity mismatch, a parent and child sharing no allele without mutation) makes the profile's sum
 * −∞, under any cut. A sum filter clamps such factors up to its floor, so a weak one (Identity over 20 markers, cut
 * 10⁶) lets through every profile that matches a few markers, and each is then weighed exactly. Counted as fails,
 * the vetoes run the identity count kernel instead: a profile is dropped at its first vetoed marker.
 */
export function vetoPlans(plans: readonly ColumnPlan<Float64Array>[]): ColumnPlan<Uint32Array>[] | null {
  if (!plans.some((p) => p.table.includes(-Infinity))) return null;
  return plans.map(({ lo, hi, shift, alleles, table }) => ({ lo, hi, shift, ...(alleles === undefined ? {} : { alleles }), table: Uint32Array.from(table, (v) => (v === -Infinity ? FAIL : 0)) }));
}

/** Whether at most MOST_KEPT of a sample of `size` slots has no vetoed marker. */
function selective(size: number, vetoes: readonly ColumnPlan<Uint32Array>[]): boolean {
  const from = Math.max(0, (size - SAMPLE) >> 1);
  const to = Math.min(size, from + SAMPLE);
  let kept = 0;
  for (let i = from; i < to; i++) if (vetoes.every(({ lo, hi, shift, table }) => table[(lo[i]! << shift) | hi[i]!]! === 0)) kept++;
  return kept <= MOST_KEPT * (to - from);
}

/**
 * Hands `onCandidate` every slot 0 … size−1 with no vetoed marker, in slot order, and returns true; returns false
 * (and hands nothing) when the plan has no vetoes or they would keep too many. A vetoed slot is never a match, so
 * confirming the others exactly gives the scan's answer — for a cut above −∞ only (a threshold of 0 keeps LR 0).
 */
export function vetoScan(size: number, plans: readonly ColumnPlan<Float64Array>[], onCandidate: (slot: number) => void): boolean {
  const vetoes = vetoPlans(plans);
  if (!vetoes || !selective(size, vetoes)) return false;
  countScan(size, vetoes, 0, 0, (slot) => onCandidate(slot));
  return true;
}
