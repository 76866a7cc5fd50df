import type { Genotype } from '../genetics/types';
import { eachAnalysisMatch, planAnalysis, type AnalysisMatch } from './analysis-scan';
import { BoundedHeap } from './bounded-heap';
import { candidateResults, type CandidateResult } from './candidate-results';
import { fusedScanEach } from './fused-scan';
import { compareProfiles } from './genotype-comparison';
import { identityPlans } from './identity-search';
import type { IndexSet } from './index-set';
import { keyboardSearchAnalyses } from './keyboard-analyses';
import type { ColumnPlan } from './lookup-table';
import { isIgnoredMarker, type ProfileIndex } from './profile-index';
import { countScan, FAIL } from './scans';
import { DEFAULT_SEARCH_OPTIONS, type IdentityOptions, type MatchAnalysis, type MatchPopulation, type ProfileKind } from './types';

/**
 * Most candidates each scan of a keyboard search keeps (the stringency search, and each analysis over each population),
 * and most the search hands on to be named: above the 200 an answer lists, so a few the database then refuses (an index
 * a moment ahead of it) still leave a full list.
 */
export const KEYBOARD_SCAN_LIMIT = 256;

/** What a keyboard search scans for, all plain data (structured-cloneable but for a pedigree analysis's `weighing`, rebuilt from its record). */
export interface KeyboardCandidatesInput {
  kind: ProfileKind;
  /** The typed-in genotypes by marker name. */
  query: ReadonlyMap<string, Genotype>;
  /** The stringency search's settings. */
  options: IdentityOptions;
  /** The analyses the user chose; others (another kind, no threshold, not two roles) are ignored. */
  analyses: readonly MatchAnalysis[];
  /** The chosen populations (exclusion analyses use none). */
  populations: readonly MatchPopulation[];
  /** Whose profiles are searched: these organizations, or every one. */
  organizations: 'all' | readonly string[];
  /** Most candidates kept per scan and in all (default KEYBOARD_SCAN_LIMIT). */
  limit?: number;
}

/** A kept candidate with its figures, not yet named (names come from the database, for the kept ones only). */
export interface KeyboardCandidate {
  profileId: string;
  /** Markers compared and failing the stringency, over the typed markers. */
  comparedMarkers: number;
  mismatches: number;
  stringencyMet: boolean;
  /** The ranking: Infinity when the stringency is met, else the largest combined index over an analysis threshold (an exclusion result counts 0). */
  strength: number;
  /** Every chosen analysis over every chosen population; `overThreshold` when a database search would record it (threshold and minimum markers). */
  results: CandidateResult[];
}

export interface KeyboardCandidates {
  /** At most `limit`, strongest first: strength, fewest mismatches, most compared markers, then profile id (names break ties later). */
  candidates: KeyboardCandidate[];
  /** Distinct profiles the scans found in all, kept or not. */
  found: number;
  /** Profiles searched (N of the expected chance hits): every profile of the kind in the organizations searched. */
  searchedProfiles: number;
  limit: number;
}

/** A profile a scan may keep: where it lives and its ranking key; its id is decoded from the index only when a tie needs it. */
interface Entry {
  index: ProfileIndex;
  /** −1 for a side-list profile, whose id is known. */
  slot: number;
  id: string | undefined;
  score: number;
  mismatches: number;
  compared: number;
}

type Figures = Pick<Entry, 'score' | 'mismatches' | 'compared'>;

/** The ranking of a keyboard search: score descending (Infinity = the stringency met), then fewest mismatches, most compared markers. */
const byFigures = (a: Figures, b: Figures) => (a.score === b.score ? 0 : a.score > b.score ? -1 : 1) || a.mismatches - b.mismatches || b.compared - a.compared;
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const idOf = (e: Entry) => (e.id ??= e.index.idAt(e.slot));
/** The heaps' total order: the ranking, ties by profile id. */
const rank = (a: Entry, b: Entry) => byFigures(a, b) || byId(idOf(a), idOf(b));

/** One slot's compared and failed markers from the identity tables (the same counts compareProfiles gives). */
function countsAt(plans: readonly ColumnPlan<Uint32Array>[], slot: number): { compared: number; mismatches: number } {
  let total = 0;
  for (const { lo, hi, shift, table } of plans) total += table[(lo[slot]! << shift) | hi[slot]!]!;
  return { compared: total % FAIL, mismatches: Math.floor(total / FAIL) };
}

/** One (analysis, population) scanned: the query in the analysis's first role, as its figures are computed. */
interface Lane {
  analysis: MatchAnalysis;
  population: MatchPopulation | null;
  heap: BoundedHeap<Entry>;
}

/**
 * The CPU-heavy part of a keyboard search (spec 2.6; GENETICS.md "Database search", "How the search reaches memory
 * speed"), pure and bounded: the stringency search and each chosen analysis over each population scan the indexes
 * of the kind, restricted to the organizations searched by the indexes' groups; each scan keeps its `limit`
 * strongest in a bounded heap and marks every profile it finds (a byte per slot), so the total is exact while
 * the memory kept is not the result count. The union of the kept ones (at most (scans) × limit) is weighed by every
 * chosen analysis over every population (candidateResults, the database search's figures), ranked, and cut to
 * `limit`. The ranking is exact down to ties on every figure: whichever scan gives a candidate its strength ranks
 * before it only candidates at least as strong, so a candidate among the strongest `limit` is kept by that scan.
 */
export function keyboardCandidates(indexes: IndexSet, input: KeyboardCandidatesInput): KeyboardCandidates {
  const { kind, query, options, populations } = input;
  const limit = input.limit ?? KEYBOARD_SCAN_LIMIT;
  const minMarkers = DEFAULT_SEARCH_OPTIONS.minMarkers;
  const analyses = keyboardSearchAnalyses(input.analyses, kind);
  const reached = input.organizations === 'all' ? null : new Set(input.organizations);
  const stringencyHeap = new BoundedHeap<Entry>(limit, rank);
  const lanes: Lane[] = analyses.flatMap((analysis) =>
    (analysis.kind === 'Exclusion' ? [null] : populations.filter((p) => p.kind === kind)).map((population) => ({ analysis, population, heap: new BoundedHeap<Entry>(limit, rank) })),
  );
  let found = 0;
  let searchedProfiles = 0;

  for (const index of indexes.indexes(kind)) {
    const groups = index.groupMask((g) => reached === null || reached.has(g.organizationId));
    searchedProfiles += index.countInGroups(groups);
    const seen = new Uint8Array(index.size);
    const seenSide = new Set<string>();
    // Each profile is counted once, whichever scans find it.
    const mark = (slot: number, id: string | undefined) => {
      if (slot >= 0) {
        if (seen[slot] === 1) return;
        seen[slot] = 1;
      } else {
        if (seenSide.has(id!)) return;
        seenSide.add(id!);
      }
      found++;
    };
    const counting = identityPlans(index, query, options.stringency);
    const sideCounts = (id: string) => {
      const counts = compareProfiles(options.stringency, query, index.side.get(id)!, isIgnoredMarker);
      return { compared: counts.comparedMarkers, mismatches: counts.mismatches };
    };

    countScan(index.size, counting, options.maxMismatches, options.minMarkers, (slot, compared, mismatches) => {
      if (!index.slotInGroups(slot, groups)) return;
      mark(slot, undefined);
      stringencyHeap.offer({ index, slot, id: undefined, score: Infinity, compared, mismatches });
    });
    for (const id of index.side.keys()) {
      if (!index.sideInGroups(id, groups)) continue;
      const counts = sideCounts(id);
      if (counts.mismatches > options.maxMismatches || counts.compared < options.minMarkers) continue;
      mark(-1, id);
      stringencyHeap.offer({ index, slot: -1, id, score: Infinity, ...counts });
    }

    const keep = (lane: Lane, match: AnalysisMatch) => {
      const slot = index.slotOf(match.profileId);
      mark(slot, match.profileId);
      const score = match.combinedIndex ?? 0;
      // The counts are looked up only for a match the heap may keep.
      if (!lane.heap.wouldKeep((worst) => score >= worst.score)) return;
      lane.heap.offer({ index, slot, id: match.profileId, score, ...(slot >= 0 ? countsAt(counting, slot) : sideCounts(match.profileId)) });
    };
    const plans = lanes.map((lane) => planAnalysis(index, { analysis: lane.analysis, query, queryRole: 0, population: lane.population, minMarkers, groups })!);
    // Autosomal lanes share one fused pass; a Y-STR haplotype's figure follows its scan, so those run one by one (as searchProfile does).
    if (kind === 'Autosomal') fusedScanEach(plans, (p, match) => keep(lanes[p]!, match));
    else plans.forEach((plan, p) => eachAnalysisMatch(plan, (match) => keep(lanes[p]!, match)));
  }

  const kept = new Map<string, Entry>();
  for (const heap of [stringencyHeap, ...lanes.map((l) => l.heap)]) for (const entry of heap.sorted()) kept.set(idOf(entry), entry);
  const genotypes = new Map([...kept].map(([id, entry]) => [id, entry.index.genotypesOf(id)!] as const));
  const resultsOf = new Map<string, CandidateResult[]>();
  for (const r of candidateResults(kind, query, genotypes, analyses, populations)) {
    // A database search records a result only over the analysis threshold *and* with enough markers weighed.
    const result = { ...r, overThreshold: r.overThreshold && r.markerCount >= minMarkers };
    const list = resultsOf.get(r.profileId);
    if (list) list.push(result);
    else resultsOf.set(r.profileId, [result]);
  }
  const candidates = [...genotypes].map(([profileId, stored]): KeyboardCandidate => {
    const { comparedMarkers, mismatches } = compareProfiles(options.stringency, query, stored, isIgnoredMarker);
    const stringencyMet = mismatches <= options.maxMismatches && comparedMarkers >= options.minMarkers;
    const results = resultsOf.get(profileId) ?? [];
    const strength = Math.max(stringencyMet ? Infinity : -Infinity, ...results.filter((r) => r.overThreshold).map((r) => r.combinedIndex ?? 0));
    return { profileId, comparedMarkers, mismatches, stringencyMet, strength, results };
  });
  return { candidates: ranked(candidates, limit), found, searchedProfiles, limit };
}

const figures = (c: KeyboardCandidate): Figures => ({ score: c.strength, mismatches: c.mismatches, compared: c.comparedMarkers });
/** The strongest `limit` in the list's order: the ranking, ties by profile id. */
const ranked = (candidates: KeyboardCandidate[], limit: number) => candidates.sort((a, b) => byFigures(figures(a), figures(b)) || byId(a.profileId, b.profileId)).slice(0, limit);

/**
 * One answer from the answers of disjoint slices of the indexes (ARCHITECTURE.md "Using every core"): the same as
 * keyboardCandidates over the whole. A candidate's figures do not depend on the others, each slice keeps every
 * candidate of the whole's strongest `limit` that it holds, and the total found is the sum; N is the whole's in each.
 */
export function mergeKeyboardCandidates(parts: readonly KeyboardCandidates[]): KeyboardCandidates {
  const limit = parts[0]!.limit;
  return { candidates: ranked(parts.flatMap((p) => p.candidates), limit), found: parts.reduce((n, p) => n + p.found, 0), searchedProfiles: parts[0]!.searchedProfiles, limit };
}
