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
 * is not searched.
 */
export function analysisTables(index: ProfileIndex, request: ScanRequest): PlanTables | null {
  const plan = planAnalysis(index, request);
  if (!plan) return null;
  const markers = plan.plans.map(({ marker, table, evaluated, inconsistent }) => ({ marker, table, evaluated, inconsistent }));
  return plan.kind === 'computational' && index.kind === 'Autosomal' ? { markers, filter: categoryFilter(plan.plans, plan.cut) } : { markers };
}
