// GENETICS.md "Parentage with inconsistencies": one wording for the calculator, HitView and the reports.
import type { ParentageConclusion } from './schemas/analyses';

const markers = (n: number) => `${n} marker${n === 1 ? '' : 's'}`;

/**
 * The conclusion in words, e.g. "Excluded: 2 markers inconsistent with the relationship (D3S1358, vWA),
 * more than the 1 allowed", "1 marker inconsistent with the relationship (FGA), within the 1 allowed:
 * μ/A applied there", or "No marker inconsistent with the relationship".
 */
export function conclusionText(conclusion: ParentageConclusion): string {
  const { excluded, inconsistentMarkers: names, maxInconsistencies: allowed } = conclusion;
  if (names.length === 0) return 'No marker inconsistent with the relationship';
  const counted = `${markers(names.length)} inconsistent with the relationship (${names.join(', ')})`;
  if (excluded) return `Excluded: ${counted}, more than the ${allowed} allowed`;
  return `${counted[0]!.toUpperCase()}${counted.slice(1)}, within the ${allowed} allowed: μ/A applied there`;
}
