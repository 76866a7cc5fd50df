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
 * A plan's tables moved into one SharedArrayBuffer (issue 29): a split search's tables cross from the thread that made
 * them through the request thread to every slice, and shared memory crosses by reference, not as a copy each way.
 */
export function sharedTables(tables: PlanTables): PlanTables {
  const at = (bytes: number) => Math.ceil(bytes / 8) * 8;
  const size = tables.markers.reduce((sum, m) => sum + at(m.table.byteLength) + at(m.evaluated.byteLength) + at(m.inconsistent.byteLength), 0);
  const buffer = new SharedArrayBuffer(size);
  let offset = 0;
  const place = <T extends Float64Array | Uint32Array | Uint8Array>(array: T, make: (buffer: SharedArrayBuffer, offset: number, length: number) => T): T => {
    const copy = make(buffer, offset, array.length);
    copy.set(array as never);
    offset += at(array.byteLength);
    return copy;
  };
  const bytes = (b: SharedArrayBuffer, o: number, n: number) => new Uint8Array(b, o, n);
  const markers = tables.markers.map(({ marker, table, evaluated, inconsistent }) => ({
    marker,
    table: table instanceof Float64Array ? place(table, (b, o, n) => new Float64Array(b, o, n)) : place(table, (b, o, n) => new Uint32Array(b, o, n)),
    evaluated: place(evaluated, bytes),
    inconsistent: place(inconsistent, bytes),
  }));
  return { ...tables, markers };
}

/**
 * The tables of a split search made in shares, one per thread at once (issue 29: a kinship search's tables take about
 * half its time), joined per index in the shares' order, which is the query's marker order: a slice sums the markers
 * in the order one whole search does, so every LR is the same to the bit. Null for an index no share plans.
 */
export function joinTables(shares: readonly (readonly (PlanTables | null)[])[]): (PlanTables | null)[] {
  return shares[0]!.map((_, i) => (shares.some((share) => share[i] === null) ? null : { markers: shares.flatMap((share) => share[i]!.markers) }));
}
