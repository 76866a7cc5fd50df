// Runs in a search worker thread (ARCHITECTURE.md "Using every core"): every database search of the server —
// approval rules, familial, mixture and family searches — reads the index through a pinned snapshot of its
// shared memory (no copy), so the main thread only parses, authorizes and answers. The code is the same the
// main thread ran before, so every answer is the single-thread one, bit for bit.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../jobs/background-priority';
import type { MessagePort } from 'node:worker_threads';
import { MixtureError } from '../genetics/mixture/mixture-lr';
import { withScratch } from '../genetics/statistics/search-scratch';
import { rankRule, scoreCandidates } from '../matching/familial-search';
import { IndexSet } from '../matching/index-set';
import { keyboardCandidates, type KeyboardCandidatesInput } from '../matching/keyboard-candidates';
import { keyboardChance, type KeyboardChanceInput } from '../matching/keyboard-chance';
import type { PlanTables, ScanRequest } from '../matching/analysis-scan';
import { analysisTables, joinTables, searchAnalysis, sharedTables } from '../matching/analysis-search';
import { searchIdentity } from '../matching/identity-search';
import { rankContinuous, type ContinuousRanking } from '../matching/continuous-search';
import { rankMixture, type MixtureRanking } from '../matching/mixture-ranking';
import { mixtureClassTables, prepareMixture, searchMixture, type MixtureClassTables } from '../matching/mixture-search';
import type { Genotype } from '../genetics/types';
import type { ProfileIndexSnapshot } from '../matching/profile-index';
import { searchEachRule, stringencyMatches } from '../matching/rule-search';
import type { IdentityCandidate, IdentityOptions, MatchProfile, ProfileKind } from '../matching/types';
import { searchFamilyRemains, weighRemains } from '../missing-persons/family-search';
import type { LoadedFamily } from '../missing-persons/load-family';
import { fromWireAnalysis, fromWireRule, type WireAnalysis, type WireRule } from './search-wire';
import { ViewCache } from './view-cache';
import { meetThenWarmUp } from './warm-up';

type WireScanRequest = Omit<ScanRequest, 'analysis'> & { analysis: WireAnalysis };

interface OnIndexes {
  indexes: ProfileIndexSnapshot[];
  /** One of `of` slices of every index (a search split over the threads), or the whole. */
  part?: { part: number; of: number } | undefined;
}

/** Every kind of search the pool runs, with its inputs (structured-cloneable; the index's arrays shared). */
export type SearchTask = OnIndexes &
  (
    // Approval searches, many in one task (a lower instance's batch holds 500): each profile with its rule set (an index into
    // `rules`, each set sent once); one list of matches per search comes back. `port` hears each rule done.
    | { task: 'rules'; searches: { profile: MatchProfile; rules: number }[]; rules: WireRule[][]; port?: MessagePort }
    | { task: 'familial'; profile: MatchProfile; rule: WireRule; limit: number }
    | { task: 'familial-score'; profile: MatchProfile; rule: WireRule; candidateIds: string[] }
    | { task: 'mixture'; ranking: Omit<MixtureRanking, 'scoped'>; masks: Record<string, Uint8Array> }
    // A mixture search with peak heights (issue 31): the continuous model's ranking, each listed candidate fitted again.
    | { task: 'continuous'; ranking: Omit<ContinuousRanking, 'scoped'>; masks: Record<string, Uint8Array> }
    | { task: 'family'; family: LoadedFamily }
    | { task: 'remains'; family: LoadedFamily; profile: MatchProfile; searched: number }
    | { task: 'keyboard'; input: Omit<KeyboardCandidatesInput, 'analyses'> & { analyses: readonly WireAnalysis[] } }
    // A keyboard search's chance figures: no index read, but the distributions' convolutions are heavy.
    | { task: 'keyboard-chance'; input: Omit<KeyboardChanceInput, 'analyses'> & { analyses: readonly WireAnalysis[] } }
    // The engine's own scans (the benchmark's thread table): a list per index, in slot order.
    | { task: 'identity'; kind: ProfileKind; query: ReadonlyMap<string, Genotype>; options: IdentityOptions }
    // prepared: per index, the tables 'scan-prepare' made once for every slice of a split search (issue 29).
    | { task: 'scan'; kind: ProfileKind; request: WireScanRequest; prepared?: (PlanTables | null)[] }
    // markers: a share of the query's markers, in query order (a split search's tables made by every thread at once).
    | { task: 'scan-prepare'; kind: ProfileKind; request: WireScanRequest; markers?: { part: number; of: number } }
    // A mixture rule, whole or split over slices (issue 29). weighed: its per-marker tables, made by every thread at once,
    // a share of the markers each ('mixture-tables'), joined; each slice does the rest of the per-search work itself.
    | { task: 'mixture-rule'; rule: WireRule; profile: MatchProfile; weighed?: MixtureClassTables }
    | { task: 'mixture-tables'; rule: WireRule; profile: MatchProfile; markers: { part: number; of: number } }
    // A stored identity hit weighed again (its pair's LRs and chance distributions): no index read.
    | { task: 'stringency-weigh'; rule: WireRule; profile: MatchProfile; found: Pick<IdentityCandidate, 'profileId' | 'comparedMarkers' | 'mismatches'>[]; genotypes: Map<string, ReadonlyMap<string, Genotype>>; searched: number }
    // A thread's first searches compiled, answers thrown away (warm-up.ts).
    | { task: 'warm-up'; arrived: Int32Array; threads: number }
  );

/** A task as a caller gives it: the pool adds the pinned indexes. */
export type SearchRequest = SearchTask extends infer T ? (T extends SearchTask ? Omit<T, 'indexes' | 'part'> : never) : never;

/** A failure the caller answers as such (a 400 of the mixture search): sent back by name, since a thread boundary loses the class. */
export type SearchOutcome = { ok: unknown } | { failed: { name: 'MixtureError'; message: string } };

/**
 * One search over `indexes`: in a worker over a snapshot, or on the calling thread where no pool runs (tests of the routes
 * alone). `whole`: the snapshot a slice is cut from (the N of a slice's chance figures counts every slice's profiles).
 */
export function runSearch(task: SearchRequest, indexes: IndexSet, whole: () => IndexSet = () => indexes, sliceOf?: (part: number, of: number) => IndexSet): unknown {
  switch (task.task) {
    case 'rules': {
      const sets = task.rules.map((set) => set.map(fromWireRule));
      // Steps over the whole task: one per rule of each search.
      const total = task.searches.reduce((n, s) => n + sets[s.rules]!.length, 0);
      let before = 0;
      return task.searches.map((s) => {
        const { port } = task;
        const found = searchEachRule(s.profile, sets[s.rules]!, indexes, port && ((done) => port.postMessage({ done: before + done, total })));
        before += sets[s.rules]!.length;
        return found;
      });
    }
    case 'familial':
      return rankRule(fromWireRule(task.rule), task.profile, indexes, { limit: task.limit });
    case 'familial-score':
      return scoreCandidates(fromWireRule(task.rule), task.profile, indexes, task.candidateIds);
    case 'mixture':
    case 'continuous': {
      const scoped = indexes.indexes('Autosomal').flatMap((index) => {
        const mask = task.masks[index.chemistryId];
        return mask ? [{ index, mask }] : [];
      });
      return task.task === 'mixture' ? rankMixture({ ...task.ranking, scoped }) : rankContinuous({ ...task.ranking, scoped });
    }
    case 'family':
      return searchFamilyRemains(task.family, indexes);
    case 'remains':
      return weighRemains(task.family, task.profile.id, task.profile.genotypes, task.searched, new Map());
    case 'keyboard':
      return keyboardCandidates(indexes, { ...task.input, analyses: task.input.analyses.map(fromWireAnalysis) });
    case 'keyboard-chance':
      return keyboardChance({ ...task.input, analyses: task.input.analyses.map(fromWireAnalysis) });
    case 'identity':
      return indexes.indexes(task.kind).map((index) => searchIdentity(index, task.query, task.options));
    case 'scan': {
      const request = { ...task.request, analysis: fromWireAnalysis(task.request.analysis) };
      return indexes.indexes(task.kind).map((index, i) => searchAnalysis(index, request, task.prepared?.[i]));
    }
    case 'scan-prepare': {
      const request = { ...task.request, analysis: fromWireAnalysis(task.request.analysis), ...(task.markers ? { query: shareOf(task.request.query, task.markers) } : {}) };
      return indexes.indexes(task.kind).map((index) => {
        const tables = analysisTables(index, request, !task.markers);
        return tables && sharedTables(tables);
      });
    }
    case 'mixture-rule': {
      // The rest of the per-search work (drop-outs, cut, the chance distribution when a hit asks) depends on the stain and
      // the rule, not on the slice: each slice does it at once, its N counted over the whole snapshot.
      const rule = fromWireRule(task.rule);
      // The prepared work ends with the task: its arrays come from the thread's scratch memory.
      return withScratch(() => searchMixture(rule, task.profile, indexes, prepareMixture(rule, task.profile, whole(), task.weighed)).matches);
    }
    case 'mixture-tables':
      return mixtureClassTables(fromWireRule(task.rule), task.profile, task.markers);
    case 'stringency-weigh':
      return stringencyMatches(fromWireRule(task.rule), task.profile, task.found, task.genotypes, task.searched);
    case 'warm-up':
      // The warm-up's searches run as tasks sent here do (warm-up-rounds.ts: the same code on inputs of the same shapes).
      return meetThenWarmUp(indexes, runWarmTask, task.arrived, task.threads, sliceOf);
  }
}

/**
 * A warm-up's task (warm-up-rounds.ts) run here as the pool would run it: whole, or as a slice of a search split into `split`
 * (runPrepared: its per-search work in shares over the whole snapshot, joined, then the slice given it), each task and
 * answer crossing a structured clone as a message.
 */
export function runWarmTask(task: SearchRequest, on: IndexSet, whole: IndexSet, split?: number): unknown {
  const plan = split && split > 1 ? splitPlan(task, split) : null;
  if (!plan) return runSearch(task, on, () => whole);
  const shares = plan.prepare.map((share) => structuredClone(runSearch(structuredClone(share), whole)));
  return runSearch(structuredClone(plan.then(plan.join(shares))), on, () => whole);
}

/** The part-th of `of` shares of a query's markers, in its order (the shares one after another are the query). */
function shareOf<V>(query: ReadonlyMap<string, V>, { part, of }: { part: number; of: number }): Map<string, V> {
  const markers = [...query];
  return new Map(markers.slice(Math.floor((part * markers.length) / of), Math.floor(((part + 1) * markers.length) / of)));
}

/** A split search's per-search work (issue 29): the tasks that make it, run at once over the whole snapshot; their answers joined; the slices' task given that. */
export interface SplitPlan {
  prepare: SearchRequest[];
  join: (shares: unknown[]) => unknown;
  then: (prepared: unknown) => SearchRequest;
}

/**
 * How a task split into `parts` slices does its per-search work: an autosomal scan's and a mixture rule's tables in
 * `parts` shares of the query's markers, one per thread at once (joined); a Y-STR scan's on one thread. Null for a task
 * whose slices have nothing to share (or that was given it already).
 */
export function splitPlan(task: SearchRequest, parts: number): SplitPlan | null {
  if (task.task === 'scan' && !task.prepared) {
    const shares = task.kind === 'Autosomal' ? parts : 1;
    return {
      prepare: Array.from({ length: shares }, (_, part) => ({ task: 'scan-prepare', kind: task.kind, request: task.request, ...(shares > 1 ? { markers: { part, of: shares } } : {}) })),
      join: (shares) => joinTables(shares as (PlanTables | null)[][]),
      then: (prepared) => ({ ...task, prepared: prepared as (PlanTables | null)[] }),
    };
  }
  if (task.task === 'mixture-rule' && !task.weighed) {
    return {
      prepare: Array.from({ length: parts }, (_, part) => ({ task: 'mixture-tables', rule: task.rule, profile: task.profile, markers: { part, of: parts } })),
      // Each population's shares in marker order: a lookup by marker, so their order does not matter.
      join: (shares) => new Map(rulePopulationIds(shares as MixtureClassTables[]).map((id) => [id, new Map((shares as MixtureClassTables[]).flatMap((share) => [...(share.get(id) ?? [])]))])),
      then: (weighed) => ({ ...task, weighed: weighed as MixtureClassTables }),
    };
  }
  return null;
}

/** The populations any share weighed. */
const rulePopulationIds = (shares: readonly MixtureClassTables[]) => [...new Set(shares.flatMap((share) => [...share.keys()]))];

/** This thread's views of the snapshots it searched: a task over the same snapshot (every slice of a split search) reads them as made. */
const views = new ViewCache();

export default function searchWorker(task: SearchTask): SearchOutcome {
  try {
    views.keep(task.indexes.map((s) => s.memoryKey));
    const indexes = IndexSet.view(task.indexes, task.part, views.view);
    // The warm-up's slices are made afresh, not kept among the views: no search asks for them again.
    const sliceOf = (part: number, of: number) => IndexSet.view(task.indexes, { part, of });
    return { ok: runSearch(task, indexes, () => (task.part ? IndexSet.view(task.indexes, undefined, views.view) : indexes), sliceOf) };
  } catch (error) {
    if (error instanceof MixtureError) return { failed: { name: 'MixtureError', message: error.message } };
    throw error;
  } finally {
    if (task.task === 'rules') task.port?.close();
  }
}
