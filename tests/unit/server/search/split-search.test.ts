/**
 * One search split over the threads by slices of the index (ARCHITECTURE.md "Using every core", issue 29): the
 * slices' answers merged are the single-thread answer, whatever the number of slices, and a slice reads only its
 * own profiles (ids, slots, side list once).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { closeWorkerPools } from '../../../../server/jobs/worker-pool';
import { planning, scanAnalysis, type PlanTables } from '../../../../server/matching/analysis-scan';
import { joinTables } from '../../../../server/matching/analysis-search';
import { searchIdentity } from '../../../../server/matching/identity-search';
import { IndexSet } from '../../../../server/matching/index-set';
import { keyboardCandidates, mergeKeyboardCandidates, type KeyboardCandidates, type KeyboardCandidatesInput } from '../../../../server/matching/keyboard-candidates';
import type { AnalysisMatch } from '../../../../server/matching/analysis-scan';
import type { IdentityCandidate, MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';
import { SearchPool } from '../../../../server/search/search-pool';
import { toWireAnalysis, toWireRule } from '../../../../server/search/search-wire';
import { mixtureRule, stainOf } from '../../../../bench/mixture-table';
import { searchMixture, type MixtureClassTables } from '../../../../server/matching/mixture-search';
import { searchedIndexes, type RuleMatch } from '../../../../server/matching/rule-match';
import { runSearch, splitPlan } from '../../../../server/search/search-worker';

const population = fbi2015Population('Caucasian');
const matchPopulation: MatchPopulation = { id: 'fbi', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const seeded = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses)
  .filter((a) => a.profileKind === 'Autosomal' && a.roles.length === 2)
  .map((a): MatchAnalysis => ({ id: a.name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) }));
const analyses = seeded.filter((a) => ['Identity', 'Full siblings', 'Parent–child exclusion'].includes(a.id));
const fullSiblings = seeded.find((a) => a.id === 'Full siblings')!;
const query = profileGenerator(population, 31)();

/** Two chemistries; copies and siblings of the query spread over both (ties on every figure among the copies); a mixture in the side list. */
function database() {
  const generate = profileGenerator(population, 41);
  const set = new IndexSet();
  const add = (id: string, chemistryId: string, genotypes: ReadonlyMap<string, Genotype>, organizationId = 'A') => set.upsert({ id, kind: 'Autosomal', chemistryId, organizationId, sampleType: 'Convicted Offender', genotypes });
  for (let i = 0; i < 3000; i++) {
    const kit = i % 3 === 0 ? 'kit-b' : 'kit-a';
    if (i % 97 === 5) add(`COPY${i}`, kit, query);
    else if (i % 89 === 7) add(`SIB${i}`, kit, siblingOf(query, population, i));
    else add(`U${i}`, kit, generate(), i % 5 === 0 ? 'B' : 'A');
  }
  add('MIXTURE', 'kit-a', new Map([...query, ['vWA', ['14', '16', '17']]]));
  return set;
}

const input = (limit: number): KeyboardCandidatesInput => ({ kind: 'Autosomal', query, options: { stringency: 'low', minMarkers: 8, maxMismatches: 4 }, analyses, populations: [matchPopulation], organizations: ['A'], limit });

/** Each slice's answer, read through a view of the pinned snapshots as a worker reads it. */
function parts<T>(indexes: IndexSet, of: number, search: (slice: IndexSet) => T): T[] {
  const { snapshots, release } = indexes.pin('Autosomal');
  try {
    return Array.from({ length: of }, (_, part) => search(IndexSet.view(snapshots, { part, of })));
  } finally {
    release();
  }
}
/** Slices' mixture matches merged as the whole search ranks them: by the smallest population's LR, the strongest first. */
const smallest = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? 0));
const byLr = (lists: RuleMatch[][]) => lists.flat().sort((a, b) => smallest(b) - smallest(a));
/** Per index, the slices' lists one after another. */
const byIndex = <T>(lists: T[][][]) => lists[0]!.map((_, i) => lists.flatMap((l) => l[i]!));

afterAll(() => closeWorkerPools());

describe('a search split into slices of the index', () => {
  const indexes = database();

  it('slices hold every profile once, each id at its own slot, the side list in the first slice only', () => {
    const whole = indexes.indexes('Autosomal');
    for (const of of [2, 3, 7]) {
      const slices = parts(indexes, of, (s) => s.indexes('Autosomal'));
      for (const [i, index] of whole.entries()) {
        const ids = slices.flatMap((s) => Array.from({ length: s[i]!.size }, (_, slot) => s[i]!.idAt(slot)));
        expect(ids).toEqual(Array.from({ length: index.size }, (_, slot) => index.idAt(slot)));
        for (const s of slices) for (let slot = 0; slot < s[i]!.size; slot++) expect(s[i]!.slotOf(s[i]!.idAt(slot))).toBe(slot);
        // An id of another slice is not held.
        expect(slices[1]![i]!.slotOf(index.idAt(0))).toBe(-1);
        expect(slices.map((s) => s[i]!.side.size)).toEqual([...Array(of - 1).fill(0), index.side.size]);
      }
    }
  });

  it('the keyboard search merged from 2, 3 and 7 slices is the whole one, whatever the bound', () => {
    for (const limit of [3, 10, 1000]) {
      const whole = keyboardCandidates(indexes, input(limit));
      expect(whole.found).toBeGreaterThan(30);
      for (const of of [2, 3, 7]) expect(mergeKeyboardCandidates(parts(indexes, of, (s) => keyboardCandidates(s, input(limit)))), `limit ${limit}, ${of} slices`).toEqual(whole);
    }
  });

  it('identity and kinship scans per index, the slices one after another, are the whole scans', () => {
    const options = { stringency: 'moderate' as const, minMarkers: 8, maxMismatches: 1 };
    const request = { analysis: fullSiblings, query, queryRole: 0 as const, population: matchPopulation, minMarkers: 6 };
    const identity = indexes.indexes('Autosomal').map((index) => searchIdentity(index, query, options));
    const kinship = indexes.indexes('Autosomal').map((index) => scanAnalysis(index, request));
    expect(identity.flat().length).toBeGreaterThan(20);
    expect(kinship.flat().length).toBeGreaterThan(20);
    for (const of of [2, 5]) {
      expect(byIndex(parts(indexes, of, (s) => runSearch({ task: 'identity', kind: 'Autosomal', query, options }, s) as IdentityCandidate[][]))).toEqual(identity);
      expect(byIndex(parts(indexes, of, (s) => runSearch({ task: 'scan', kind: 'Autosomal', request }, s) as AnalysisMatch[][]))).toEqual(kinship);
    }
  });

  it('a kinship scan split into slices plans its tables once, and every slice scans with them to the whole answer', async () => {
    const request = { analysis: toWireAnalysis(fullSiblings), query, queryRole: 0 as const, population: matchPopulation, minMarkers: 6 };
    const whole = runSearch({ task: 'scan', kind: 'Autosomal', request }, indexes) as AnalysisMatch[][];
    expect(whole.flat().length).toBeGreaterThan(20);
    const before = planning.tables;
    const { snapshots, release } = indexes.pin('Autosomal');
    const prepared = structuredClone(runSearch({ task: 'scan-prepare', kind: 'Autosomal', request }, IndexSet.view(snapshots)));
    release();
    const split = byIndex(parts(indexes, 3, (s) => runSearch({ task: 'scan', kind: 'Autosomal', request, prepared } as never, s) as AnalysisMatch[][]));
    expect(split).toEqual(whole);
    // One plan per index (two chemistries), none by the three slices.
    expect(planning.tables - before).toBe(2);
    // The pool's split search gives the same answer.
    const pool = new SearchPool(2);
    expect(await pool.runParts<AnalysisMatch[][], AnalysisMatch[][]>(indexes, 'Autosomal', { task: 'scan', kind: 'Autosomal', request }, 2, byIndex)).toEqual(whole);
  }, 120_000);

  it("a kinship scan's tables made in shares of the query's markers, one per thread, joined, give every slice the whole answer to the bit", async () => {
    const request = { analysis: toWireAnalysis(fullSiblings), query, queryRole: 0 as const, population: matchPopulation, minMarkers: 6 };
    const whole = runSearch({ task: 'scan', kind: 'Autosomal', request }, indexes) as AnalysisMatch[][];
    expect(whole.flat().length).toBeGreaterThan(20);
    const { snapshots, release } = indexes.pin('Autosomal');
    try {
      for (const of of [2, 3]) {
        const shares = Array.from({ length: of }, (_, part) => structuredClone(runSearch({ task: 'scan-prepare', kind: 'Autosomal', request, markers: { part, of } }, IndexSet.view(snapshots))) as (PlanTables | null)[]);
        // Each share holds its own markers only; joined, the query's markers in its order.
        expect(shares.map((share) => share[0]!.markers.length).reduce((a, b) => a + b)).toBe(query.size);
        const prepared = joinTables(shares);
        expect(prepared[0]!.markers.map((m) => m.marker)).toEqual([...query.keys()]);
        for (const slices of [2, 3]) expect(byIndex(parts(indexes, slices, (s) => runSearch({ task: 'scan', kind: 'Autosomal', request, prepared }, s) as AnalysisMatch[][])), `${of} shares, ${slices} slices`).toEqual(whole);
      }
    } finally {
      release();
    }
    // The pool's split search makes its tables that way, one share per thread.
    const pool = new SearchPool(2);
    expect(await pool.runParts<AnalysisMatch[][], AnalysisMatch[][]>(indexes, 'Autosomal', { task: 'scan', kind: 'Autosomal', request }, 2, byIndex)).toEqual(whole);
  }, 120_000);

  it("a mixture rule split into slices, its tables made in shares of the stain's markers, one per thread, joined: the whole search, N counted over every slice", async () => {
    // The stain held in the index among the searched profiles, in the last slice: no slice counts it in N (the chance
    // figures' searched profiles), though only the last one holds it.
    const held = database();
    const contributors = ['U1', 'U2', 'U4'].map((id) => held.indexes('Autosomal').find((i) => i.has(id))!.genotypesOf(id)!);
    const stain = { id: 'STAIN', kind: 'Autosomal' as const, chemistryId: 'kit-a', organizationId: 'A', sampleType: 'Convicted Offender', genotypes: stainOf(contributors) };
    held.upsert(stain);
    const rule = toWireRule(mixtureRule);
    const whole = searchMixture(mixtureRule, stain, held).matches;
    expect(whole.length).toBeGreaterThanOrEqual(2);
    const searched = whole[0]!.populations[0]!.chance!.searchedProfiles;
    expect(searched).toBe(searchedIndexes(held, 'Autosomal', 'A', ['Convicted Offender']).reduce((n, { index, mask }) => n + index.countInGroups(mask), 0) - 1);
    const task = { task: 'mixture-rule' as const, rule, profile: stain };
    const { snapshots, release } = held.pin('Autosomal');
    try {
      const wholeView = () => IndexSet.view(snapshots);
      for (const of of [2, 3]) {
        const plan = splitPlan(task, of)!;
        // Through a structured clone, as a worker sends its share.
        const shares = plan.prepare.map((share) => structuredClone(runSearch(share, wholeView())) as MixtureClassTables);
        // Each share holds its own markers only; joined, every marker of the stain once.
        const markers = shares.map((share) => [...share.get('Caucasian')!.keys()]);
        expect(markers.flat().sort()).toEqual([...stain.genotypes.keys()].filter((m) => mixtureRule.populations[0]!.frequencies.markers.has(m)).sort());
        expect(markers.every((m) => m.length > 0 && m.length < stain.genotypes.size)).toBe(true);
        const weighed = plan.join(shares);
        for (const slices of [1, 2, 3]) {
          const found = Array.from({ length: slices }, (_, part) => runSearch(plan.then(weighed), IndexSet.view(snapshots, { part, of: slices }), wholeView) as RuleMatch[]);
          // The hits lie in the first slice, the stain in the last: each slice's N is the whole search's.
          expect(found[0]!.length).toBeGreaterThanOrEqual(2);
          expect(byLr(found), `${of} shares, ${slices} slices`).toEqual(whole);
        }
      }
    } finally {
      release();
    }
    // The pool's split search makes its tables that way, one share per thread.
    const pool = new SearchPool(2);
    expect(await pool.runParts<RuleMatch[], RuleMatch[]>(held, 'Autosomal', task, 2, byLr)).toEqual(whole);
  }, 120_000);

  it('on the search workers: two threads, the same answer as one search here', async () => {
    const pool = new SearchPool(2);
    const whole = keyboardCandidates(indexes, input(50));
    const split = await pool.runParts<KeyboardCandidates>(indexes, 'Autosomal', { task: 'keyboard', input: input(50) }, 2, mergeKeyboardCandidates);
    expect(split).toEqual(whole);
    expect(indexes.indexes('Autosomal').map((i) => i.pinned)).toEqual([0, 0]);
  }, 60_000);
});
