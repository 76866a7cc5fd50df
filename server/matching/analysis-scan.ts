import { MAX_INCONSISTENCIES } from '../genetics/evaluate-analysis';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import { countHaplotype, haplotypeFrequency, type HaplotypeEntry } from '../genetics/statistics';
import type { CategoryFilter } from './category-pass';
import { planColumn, type ColumnPlan } from './lookup-table';
import { markerEvaluator, type MarkerOutcome } from './marker-evaluator';
import type { MarkerColumn, ProfileIndex } from './profile-index';
import { memoTables, type MarkerTables } from './table-memo';
import { COMPARED, countScan, FAIL, sumScan } from './scans';
import type { MatchAnalysis } from './types';

/** One profile an analysis scan kept: its combined index (computational) or exclusion counts. */
export interface AnalysisMatch {
  profileId: string;
  combinedIndex: number | null;
  markerCount: number;
  nonExclusionMarkerCount: number | null;
}

/** What one scan needs besides the index: the query, its role (0 or 1 of a two-role analysis), the population and limits. */
export interface ScanRequest {
  analysis: MatchAnalysis;
  query: ReadonlyMap<string, Genotype>;
  queryRole: 0 | 1;
  /** Autosomal computational analyses: allele frequencies; Y-STR: the haplotype table; exclusion: none. */
  population: { frequencies: PopulationFrequencies; haplotypes: readonly HaplotypeEntry[] } | null;
  minMarkers: number;
  excludeId?: string;
  /** Only profiles of these groups (ProfileIndex.groupMask: a rule's searched organization × sample types); all when absent. */
  groups?: Uint8Array;
}

/** Y-STR markers match by formula (1/0); the frequencies live in the haplotype table (as the analyze route does). */
function evaluatorPopulation(request: ScanRequest): PopulationFrequencies | null {
  const { analysis, population, query } = request;
  if (!population) return null;
  if (analysis.profileKind !== 'YStr') return population.frequencies;
  return { ...population.frequencies, markers: new Map([...query.keys()].map((m) => [m, { frequencies: new Map([['*', 1]]), sampleSize: null }])) };
}

/** A query marker's evaluator, with the query's genotype in its role and the stored genotype in the other. */
function pairEvaluator(request: ScanRequest, marker: string, genotype: Genotype): (stored: Genotype | null) => MarkerOutcome {
  const evaluateMarker = markerEvaluator(request.analysis, marker, evaluatorPopulation(request), request.queryRole);
  return (stored) => evaluateMarker(request.queryRole === 0 ? [genotype, stored] : [stored, genotype]);
}

/**
 * A plan's tables as plain data (issue 29): made once for a search split over threads and read by every slice, whose
 * columns share the dictionaries the tables were made over; `filter` is the fused pass's category filter when made.
 */
export interface PlanTables {
  markers: { marker: string; table: Uint32Array | Float64Array; evaluated: Uint8Array; inconsistent: Uint8Array }[];
  filter?: CategoryFilter | 'all' | 'none' | null;
}

/** Plans whose tables were computed from the formulae in this thread (a split search's slices compute none). */
export const planning = { tables: 0 };

/** The per-marker tables of a scan plus, per marker, which codes were evaluated (for the marker count of a hit) and which are inconsistent (formula uses μ); from `given` when sent. */
function planMarkers<T extends Uint32Array | Float64Array>(index: ProfileIndex, request: ScanRequest, make: (n: number) => T, valueOf: (o: MarkerOutcome) => number, given?: PlanTables): MarkerPlan<T>[] {
  if (given) {
    return given.markers.map(({ marker, table, evaluated, inconsistent }) => {
      const column = index.column(marker)!;
      const n = column.alleles.length;
      return { lo: column.lo, hi: column.hi, shift: 32 - Math.clz32(n - 1), table: table as T, alleles: n, marker, evaluated, inconsistent };
    });
  }
  planning.tables++;
  const plans: MarkerPlan<T>[] = [];
  // A pedigree-weighed analysis's models are not in the memo's key: its tables are made each time.
  const tablesOf = (column: MarkerColumn, genotype: Genotype, made: () => MarkerTables<T>) => (request.analysis.weighing ? made() : memoTables(request.analysis, request.queryRole, evaluatorPopulation(request), column, genotype, made));
  for (const [marker, genotype] of request.query) {
    const column = index.column(marker);
    if (!column) continue;
    const made = tablesOf(column, genotype, () => {
      const outcomeOf = pairEvaluator(request, marker, genotype);
      const evaluated = new Uint8Array(1 << (2 * (32 - Math.clz32(column.alleles.length - 1))));
      const inconsistent = new Uint8Array(evaluated.length);
      const { table } = planColumn(column, make, (stored, code) => {
        const outcome = outcomeOf(stored);
        evaluated[code] = outcome.value !== null || outcome.isExclusion !== null ? 1 : 0;
        inconsistent[code] = outcome.value !== null && outcome.inconsistent ? 1 : 0;
        return valueOf(outcome);
      }, valueOf({ value: null, isExclusion: null }));
      return { table, evaluated, inconsistent };
    });
    const n = column.alleles.length;
    plans.push({ lo: column.lo, hi: column.hi, shift: 32 - Math.clz32(n - 1), alleles: n, marker, ...made });
  }
  return plans;
}

/**
 * The query's outcomes against any stored profile, marker by marker: each marker's evaluator made once, and each
 * genotype met there evaluated once (a few hundred profiles share a few dozen genotypes per marker).
 */
function outcomesAgainst(request: ScanRequest): (stored: ReadonlyMap<string, Genotype>) => { marker: string; outcome: MarkerOutcome }[] {
  // Outcomes kept by the stored genotype object: an index hands out one array per column and allele pair (genotypeAt),
  // so a thousand candidates share a few hundred, and a genotype of another source is merely evaluated again.
  const evaluators = [...request.query].map(([marker, genotype]) => ({ marker, outcomeOf: pairEvaluator(request, marker, genotype), seen: new Map<Genotype | null, MarkerOutcome>() }));
  return (stored) =>
    evaluators.map(({ marker, outcomeOf, seen }) => {
      const genotype = stored.get(marker) ?? null;
      let outcome = seen.get(genotype);
      if (!outcome) seen.set(genotype, (outcome = outcomeOf(genotype)));
      return { marker, outcome };
    });
}

/**
 * Y-STR haplotype frequency (SWGDAM 2014, as the analyze route computes it): the query's haplotype over
 * the compared markers counted in the population's table, LR = 1 / the upper-bound frequency.
 */
function haplotypeIndex(request: ScanRequest, markers: readonly string[]): number | null {
  if (!request.population || markers.length === 0) return null;
  const counted = countHaplotype(new Map(markers.map((m) => [m, request.query.get(m)!])), request.population.haplotypes);
  if (counted.total === 0) return null;
  return haplotypeFrequency(counted, { theta: request.analysis.constants.theta ?? 0 }).likelihoodRatio;
}

/**
 * A computational result for one stored profile from its per-marker outcomes, or null when it is not a hit.
 * More markers inconsistent with the relationship than the analysis's `maxInconsistencies` is Excluded,
 * combined index 0 (GENETICS.md "Parentage with inconsistencies"), as evaluateComputational answers.
 */
function computationalMatch(request: ScanRequest, log10: number, comparedMarkers: readonly string[] | number, inconsistent: number): Figures | null {
  const threshold = request.analysis.threshold!;
  // A count stands for the markers where they are not needed (autosomal: no haplotype table to count them in).
  const markerCount = typeof comparedMarkers === 'number' ? comparedMarkers : comparedMarkers.length;
  if (markerCount < request.minMarkers) return null;
  const allowed = request.analysis.constants[MAX_INCONSISTENCIES];
  const excluded = allowed !== undefined && inconsistent > allowed;
  const combinedIndex = excluded ? 0 : typeof comparedMarkers !== 'number' && request.analysis.profileKind === 'YStr' ? (log10 === -Infinity ? null : haplotypeIndex(request, comparedMarkers)) : 10 ** log10;
  if (combinedIndex === null || !(combinedIndex >= threshold)) return null;
  return { combinedIndex, markerCount, nonExclusionMarkerCount: null };
}

/** A match before it is named: a column scan decodes a slot's id only for the profiles it keeps. */
type Figures = Omit<AnalysisMatch, 'profileId'>;

const logOf = (o: MarkerOutcome) => (o.value === null ? 0 : Math.log10(o.value));

/** One query marker's table over a column, which genotype codes the analysis evaluated there, and which of those are inconsistent (formula uses μ). */
export type MarkerPlan<T extends Uint32Array | Float64Array> = ColumnPlan<T> & { marker: string; evaluated: Uint8Array; inconsistent: Uint8Array };

/**
 * One analysis prepared for one query over one index: per query marker a table (log10 factor, or
 * COMPARED/FAIL counts for an exclusion analysis) and the exact verdict for any profile, which every
 * scan (one analysis, or several fused) confirms its candidates with.
 */
export type AnalysisPlan = { request: ScanRequest; index: ProfileIndex; matchAt(slot: number): AnalysisMatch | null; sideMatches(): AnalysisMatch[] } & (
  | { kind: 'exclusion'; plans: MarkerPlan<Uint32Array>[]; maxExclusions: number }
  | { kind: 'computational'; plans: MarkerPlan<Float64Array>[]; cut: number; filter?: PlanTables['filter'] }
);

const codeAt = (plan: ColumnPlan<Uint32Array | Float64Array>, slot: number) => (plan.lo[slot]! << plan.shift) | plan.hi[slot]!;

/** The tables of an analysis with a threshold and two roles for one query (GENETICS.md "How the search reaches memory speed"), or those `given` (made once for a split search); null for any other analysis. */
export function planAnalysis(index: ProfileIndex, request: ScanRequest, given?: PlanTables): AnalysisPlan | null {
  const { analysis } = request;
  if (analysis.threshold === null || analysis.roles.length !== 2) return null;
  const { groups } = request;
  // The query itself is never a match: in the columns it is a slot, in the side list an id.
  const excludeSlot = request.excludeId === undefined ? -1 : index.slotOf(request.excludeId);
  const outside = (slot: number) => slot === excludeSlot || (groups !== undefined && !index.slotInGroups(slot, groups));
  const named = (slot: number, figures: Figures | null): AnalysisMatch | null => (figures ? { profileId: index.idAt(slot), ...figures } : null);
  const sideMatches = () => {
    // Its weigher makes an evaluator per query marker: not for an empty side list (most indexes).
    if (index.side.size === 0) return [];
    const weigh = pairWeigher(request);
    return [...index.side].flatMap(([id, g]) => {
      if (id === request.excludeId || (groups !== undefined && !index.sideInGroups(id, groups))) return [];
      const figures = weigh(g);
      return figures ? [{ profileId: id, ...figures }] : [];
    });
  };

  if (analysis.kind === 'Exclusion') {
    const plans = planMarkers(index, request, (n) => new Uint32Array(n), (o) => (o.isExclusion === null ? 0 : o.isExclusion ? COMPARED + FAIL : COMPARED), given);
    const maxExclusions = Math.floor(analysis.threshold);
    const verdict = exclusionVerdict(request);
    return {
      kind: 'exclusion',
      request,
      index,
      plans,
      maxExclusions,
      matchAt: (slot) => {
        if (outside(slot)) return null;
        let total = 0;
        for (const plan of plans) total += plan.table[codeAt(plan, slot)]!;
        return named(slot, verdict(total % FAIL, Math.floor(total / FAIL)));
      },
      sideMatches,
    };
  }

  const plans = planMarkers(index, request, (n) => new Float64Array(n), logOf, given);
  // Y-STR: every compared marker must agree (log 0); the haplotype count gives the index afterwards.
  const cut = analysis.profileKind === 'YStr' ? -Number.MAX_VALUE : Math.log10(analysis.threshold);
  return {
    kind: 'computational',
    request,
    index,
    plans,
    cut,
    ...(given?.filter !== undefined ? { filter: given.filter } : {}),
    matchAt: (slot) => {
      if (outside(slot)) return null;
      let log10 = 0;
      for (const plan of plans) log10 += plan.table[codeAt(plan, slot)]!;
      if (!(log10 >= cut)) return null;
      // Only a profile over the cut is counted further, its compared markers named only for a Y-STR haplotype's count.
      let count = 0;
      let inconsistent = 0;
      for (const plan of plans) {
        const code = codeAt(plan, slot);
        count += plan.evaluated[code]!;
        inconsistent += plan.inconsistent[code]!;
      }
      const compared = analysis.profileKind === 'YStr' ? plans.filter((plan) => plan.evaluated[codeAt(plan, slot)] === 1).map((plan) => plan.marker) : count;
      return named(slot, computationalMatch(request, log10, compared, inconsistent));
    },
    sideMatches,
  };
}

/** An exclusion analysis's verdict from a profile's compared markers and exclusions: at least the minimum markers, at most the threshold's exclusions. */
function exclusionVerdict(request: ScanRequest): (markerCount: number, exclusions: number) => Figures | null {
  const maxExclusions = Math.floor(request.analysis.threshold!);
  return (markerCount, exclusions) => (markerCount >= request.minMarkers && exclusions <= maxExclusions ? { combinedIndex: null, markerCount, nonExclusionMarkerCount: markerCount - exclusions } : null);
}

/**
 * The figures of the query against any one stored profile, weighed marker by marker (null when not a match): what a
 * scan's tables sum for it, without the tables — the side list, and a short list of candidates (candidateResults).
 * Markers not evaluated add log10 0, so the sum is the tables' to the bit.
 */
export function pairWeigher(request: ScanRequest): (stored: ReadonlyMap<string, Genotype>) => Figures | null {
  const outcomes = outcomesAgainst(request);
  if (request.analysis.kind === 'Exclusion') {
    const verdict = exclusionVerdict(request);
    return (stored) => {
      const compared = outcomes(stored).filter((o) => o.outcome.isExclusion !== null);
      return verdict(compared.length, compared.filter((o) => o.outcome.isExclusion).length);
    };
  }
  return (stored) => {
    const compared = outcomes(stored).filter((o) => o.outcome.value !== null);
    return computationalMatch(request, compared.reduce((sum, o) => sum + logOf(o.outcome), 0), compared.map((o) => o.marker), compared.filter((o) => o.outcome.inconsistent).length);
  };
}

/**
 * Ranks every profile of an index by one analysis for the query (GENETICS.md "How the search reaches
 * memory speed"): per marker a table genotype → log10 factor (computational) or exclusion flag, then
 * a linear scan; keeps the results over the analysis threshold (combined index ≥ threshold, or at most
 * `threshold` exclusions) with at least `minMarkers` markers evaluated; a result with more inconsistent
 * markers than `maxInconsistencies` is Excluded (combined index 0).
 */
export function scanAnalysis(index: ProfileIndex, request: ScanRequest, given?: PlanTables): AnalysisMatch[] {
  const plan = planAnalysis(index, request, given);
  if (!plan) return [];
  const found: AnalysisMatch[] = [];
  eachAnalysisMatch(plan, (match) => found.push(match));
  return found;
}

/** The scan of one plan handing each match over as it is confirmed (the columns in slot order, then the side list), so a caller may keep only some. */
export function eachAnalysisMatch(plan: AnalysisPlan, onMatch: (match: AnalysisMatch) => void): void {
  const confirm = (slot: number) => {
    const match = plan.matchAt(slot);
    if (match) onMatch(match);
  };
  if (plan.kind === 'exclusion') countScan(plan.index.size, plan.plans, plan.maxExclusions, plan.request.minMarkers, confirm);
  else sumScan(plan.index.size, plan.plans, plan.cut, confirm);
  for (const match of plan.sideMatches()) onMatch(match);
}
