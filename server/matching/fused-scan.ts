import type { AnalysisMatch, AnalysisPlan } from './analysis-scan';
import { FAIL } from './scans';

/** Profiles per block: the block's codes and accumulators stay in the L1/L2 cache. */
const BLOCK = 4096;
/** Each lane is a 17-bit unsigned integer; three lanes fit exactly in a double's 53-bit mantissa. */
const LANE_BITS = 17;
const LANE = 2 ** LANE_BITS;
const LANES_PER_WORD = 3;
/** Per-marker log10 factors more than this under the marker's best count as that floor (an over-estimate: candidates are confirmed exactly). */
const CLAMP_RANGE = 12;

/** A plan's quantised filter: per marker a non-negative integer table, and the sum a profile needs to be confirmed. */
interface Lane {
  plan: AnalysisPlan;
  tables: Int32Array[];
  need: number;
}

/** Largest finite entry of a table (NaN and −∞ ignored), or the fallback when there is none. */
function finiteMax(table: Float64Array): number {
  let max = -Infinity;
  for (let i = 0; i < table.length; i++) if (table[i]! > max) max = table[i]!;
  return max === -Infinity ? 0 : max;
}

/**
 * The integer filter of a computational plan: per marker, q = ⌈(v − f)·s⌉ with v clamped up to the
 * floor f = best − CLAMP_RANGE, so Σq ≥ ⌈(cut − Σf)·s⌉ holds for every profile whose exact log10 sum
 * reaches the cut (rounding up only over-estimates).
 */
function computationalLane(plan: Extract<AnalysisPlan, { kind: 'computational' }>): Lane | 'all' | 'none' {
  const tops = plan.plans.map((p) => finiteMax(p.table));
  const floors = tops.map((top, m) => {
    let min = top;
    for (const v of plan.plans[m]!.table) if (v < min && v >= top - CLAMP_RANGE) min = v;
    return min;
  });
  const range = tops.reduce((sum, top, m) => sum + (top - floors[m]!), 0);
  const scale = range > 0 ? (LANE - 1 - plan.plans.length) / range : 1;
  const floorSum = floors.reduce((a, b) => a + b, 0);
  // One unit per marker and one more absorb the rounding of each (v − f)·s.
  const need = Math.ceil((plan.cut - floorSum) * scale) - 1 - plan.plans.length;
  const most = plan.plans.reduce((sum, _, m) => sum + Math.ceil((tops[m]! - floors[m]!) * scale), 0);
  if (need <= 0) return 'all';
  if (need > most) return 'none';
  const tables = plan.plans.map((p, m) => Int32Array.from(p.table, (v) => (v >= floors[m]! ? Math.ceil((v - floors[m]!) * scale) : 0)));
  return { plan, tables, need };
}

/** The integer filter of an exclusion plan: 1 per marker that does not exclude; a hit has at least markers − maxExclusions (exact). */
function exclusionLane(plan: Extract<AnalysisPlan, { kind: 'exclusion' }>): Lane {
  const tables = plan.plans.map((p) => Int32Array.from(p.table, (v) => (v >= FAIL ? 0 : 1)));
  return { plan, tables, need: plan.plans.length - plan.maxExclusions };
}

/**
 * Runs several analyses of one query over one index in a single pass (GENETICS.md "How the search
 * reaches memory speed"), for an approval's search: each analysis becomes a 17-bit integer lane whose
 * sum over-estimates its exact score, three lanes share one double per profile, so one lookup and one
 * addition per marker serve three analyses, including kinship analyses that no marker can rule out
 * (κ0 > 0). The few profiles a lane lets through are confirmed by the analysis's exact verdict, so the
 * results equal one scanAnalysis per plan. All plans must share the index and the query's markers.
 */
export function fusedScan(plans: readonly AnalysisPlan[]): AnalysisMatch[][] {
  const found: AnalysisMatch[][] = plans.map(() => []);
  if (plans.length === 0) return found;
  const { index } = plans[0]!;
  const lanes: { lane: Lane; slot: number }[] = [];
  for (const [p, plan] of plans.entries()) {
    const lane = plan.kind === 'exclusion' ? exclusionLane(plan) : computationalLane(plan);
    // A lane no profile can fail is not a filter: every profile is checked exactly.
    if (lane === 'all') for (let slot = 0; slot < index.size; slot++) keep(found[p]!, plan.matchAt(slot));
    else if (lane !== 'none') lanes.push({ lane, slot: p });
    found[p]!.push(...plan.sideMatches());
  }
  const columns = plans[0]!.plans;
  const words: Word[] = [];
  for (let w = 0; w < lanes.length; w += LANES_PER_WORD) {
    const word = lanes.slice(w, w + LANES_PER_WORD);
    words.push({
      packed: columns.map((_, m) => {
        const table = new Float64Array(word[0]!.lane.tables[m]!.length);
        for (const [k, { lane }] of word.entries()) for (let code = 0; code < table.length; code++) table[code] = table[code]! + lane.tables[m]![code]! * LANE ** k;
        return table;
      }),
      needs: [0, 1, 2].map((k) => word[k]?.lane.need ?? Infinity),
      onCandidate: (slot, k) => keep(found[word[k]!.slot]!, word[k]!.lane.plan.matchAt(slot)),
    });
  }
  if (words.length > 0) scanWords(index.size, columns, words);
  return found;
}

function keep(into: AnalysisMatch[], match: AnalysisMatch | null): void {
  if (match) into.push(match);
}

/** Three lanes packed in a double per profile: per marker a table of packed lane values, each lane's need, and where its candidates go. */
interface Word {
  packed: Float64Array[];
  needs: number[];
  onCandidate(slot: number, lane: number): void;
}

/** The dense pass: per block and marker each profile's genotype code is read once and looked up in every word's table; then each lane's sum is held against its need. */
function scanWords(size: number, columns: readonly { lo: Uint8Array; hi: Uint8Array; shift: number }[], words: readonly Word[]): void {
  const codes = new Uint16Array(BLOCK);
  const accs = words.map(() => new Float64Array(BLOCK));
  for (let start = 0; start < size; start += BLOCK) {
    const n = Math.min(size, start + BLOCK) - start;
    for (const acc of accs) acc.fill(0);
    for (let m = 0; m < columns.length; m++) {
      const { lo, hi, shift } = columns[m]!;
      for (let i = 0; i < n; i++) codes[i] = (lo[start + i]! << shift) | hi[start + i]!;
      for (let w = 0; w < words.length; w++) addLookups(accs[w]!, words[w]!.packed[m]!, codes, n);
    }
    for (let w = 0; w < words.length; w++) {
      const acc = accs[w]!;
      const [need0, need1, need2] = words[w]!.needs as [number, number, number];
      for (let i = 0; i < n; i++) {
        const x = acc[i]!;
        const l2 = Math.floor(x / (LANE * LANE));
        const rest = x - l2 * LANE * LANE;
        const l1 = Math.floor(rest / LANE);
        if (rest - l1 * LANE >= need0) words[w]!.onCandidate(start + i, 0);
        if (l1 >= need1) words[w]!.onCandidate(start + i, 1);
        if (l2 >= need2) words[w]!.onCandidate(start + i, 2);
      }
    }
  }
}

/** acc[i] += table[codes[i]]: the inner loop, kept monomorphic. */
function addLookups(acc: Float64Array, table: Float64Array, codes: Uint16Array, n: number): void {
  for (let i = 0; i < n; i++) acc[i] = acc[i]! + table[codes[i]!]!;
}
