import { planAnalysis, scanAnalysis, type AnalysisMatch, type PlanTables, type ScanRequest } from './analysis-scan';
import { categoryFilter } from './category-pass';
import { fusedScanEach } from './fused-scan';
import type { ProfileIndex } from './profile-index';

/**
 * One analysis searched over an index as the server's searches run it (GENETICS.md "How the search reaches memory
 * speed"): an autosomal plan through the fused pass (its integer filter in the WebAssembly kernel, about three times
 * the plain sum's speed for a kinship analysis), a Y-STR one through its scan; the matches in slot order, then the
 * side list's, as scanAnalysis lists them. `given`: the plan's tables made once for a split search (analysisTables).
 */
export function searchAnalysis(index: ProfileIndex, request: ScanRequest, given?: PlanTables | null): AnalysisMatch[] {
  if (given === null) return [];
  if (index.kind !== 'Autosomal') return scanAnalysis(index, request, given);
  const plan = planAnalysis(index, request, given);
  if (!plan) return [];
  const found: AnalysisMatch[] = [];
  fusedScanEach([{ ...plan, sideMatches: () => [] }], (_, match) => found.push(match));
  found.push(...plan.sideMatches());
  return found;
}

/**
 * The tables (and, autosomal, the fused pass's category filter) of one analysis for one query over an index, made once
 * for a search split over threads (issue 29): every slice scans with them, planning nothing; null when the analysis
 * is not searched. `withFilter` false: the tables of a share of the query's markers only (the filter needs them all; a
 * slice given no filter makes it, from the same tables, the same).
 */
export function analysisTables(index: ProfileIndex, request: ScanRequest, withFilter = true): PlanTables | null {
  const plan = planAnalysis(index, request);
  if (!plan) return null;
  const markers = plan.plans.map(({ marker, table, evaluated, inconsistent }) => ({ marker, table, evaluated, inconsistent }));
  return withFilter && plan.kind === 'computational' && index.kind === 'Autosomal' ? { markers, filter: categoryFilter(plan.plans, plan.cut) } : { markers };
}

/**
 * The tables of a split search made in shares, one per thread at once (issue 29: a kinship search's tables take about
 * half its time), joined per index in the shares' order, which is the query's marker order: a slice sums the markers
 * in the order one whole search does, so every LR is the same to the bit. Null for an index no share plans.
 */
export function joinTables(shares: readonly (readonly (PlanTables | null)[])[]): (PlanTables | null)[] {
  return shares[0]!.map((_, i) => (shares.some((share) => share[i] === null) ? null : { markers: shares.flatMap((share) => share[i]!.markers) }));
}
