import { planAnalysis, scanAnalysis, type AnalysisMatch, type ScanRequest } from './analysis-scan';
import { fusedScanEach } from './fused-scan';
import type { ProfileIndex } from './profile-index';

/**
 * One analysis searched over an index as the server's searches run it (GENETICS.md "How the search reaches memory
 * speed"): an autosomal plan through the fused pass (its integer filter in the WebAssembly kernel, about three times
 * the plain sum's speed for a kinship analysis), a Y-STR one through its scan; the matches in slot order, then the
 * side list's, as scanAnalysis lists them.
 */
export function searchAnalysis(index: ProfileIndex, request: ScanRequest): AnalysisMatch[] {
  if (index.kind !== 'Autosomal') return scanAnalysis(index, request);
  const plan = planAnalysis(index, request);
  if (!plan) return [];
  const found: AnalysisMatch[] = [];
  fusedScanEach([{ ...plan, sideMatches: () => [] }], (_, match) => found.push(match));
  found.push(...plan.sideMatches());
  return found;
}
