/**
 * The search threads warm up before users search (issue 29): a fresh thread's first keyboard search at 1M took up to
 * 1.5 s against 0.2 s after, so the server has every thread run one warm-up search once the index is loaded. A pool
 * hands a task to whichever thread is free first, so the warm-ups meet before they run: each thread must get one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fullSiblings, matchPopulation } from '../../../../bench/engine-fixtures';
import { mixtureRule } from '../../../../bench/mixture-table';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { closeWorkerPools } from '../../../../server/jobs/worker-pool';
import { IndexSet } from '../../../../server/matching/index-set';
import { SearchPool } from '../../../../server/search/search-pool';
import { runWarmTask } from '../../../../server/search/search-worker';
import { warmUp } from '../../../../server/search/warm-up';
import { stainOf, type RunTask } from '../../../../server/search/warm-up-rounds';

const population = fbi2015Population('Caucasian');
/** A warm-up's task run as a search thread runs it. */
const run: RunTask = runWarmTask;

function database(n: number) {
  const generate = profileGenerator(population, 53);
  const set = new IndexSet();
  for (let i = 0; i < n; i++) set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'A', sampleType: 'Convicted Offender', genotypes: generate() });
  return set;
}

afterAll(() => closeWorkerPools());

describe('warming up the search threads', () => {
  it('runs one warm-up search on every thread of the pool, over the whole index', async () => {
    const set = database(2000);
    const pool = new SearchPool(2);
    const threads = await pool.warm(set);
    expect(threads).toHaveLength(2);
    expect(new Set(threads).size).toBe(2);
  });

  it('gives every thread a warm-up even while one is busy (a free thread would otherwise take them all)', async () => {
    const pool = new SearchPool(2);
    // A long task on one thread: a warm-up of its own over a large index, meeting nobody.
    const busy = pool.run<{ threadId: number }>(database(100_000), 'Autosomal', { task: 'warm-up', arrived: new Int32Array(new SharedArrayBuffer(4)), threads: 1 });
    const threads = await pool.warm(database(2000));
    expect(new Set(threads).size).toBe(2);
    expect(threads).toContain((await busy).threadId);
  });

  it('runs rounds of the identity, kinship and mixture searches over slices of the index, within its budget', () => {
    // Issue 29: a search's per-search code reaches V8's optimized code only after dozens of searches, compiled on the
    // helper threads that two searches at a time need the second core from; the warm-up runs them before users do.
    const set = database(45_000);
    const slices: string[] = [];
    const { rounds } = warmUp(set, run, (part, of) => (slices.push(`${part}/${of}`), set), { cpuMs: 300, wallMs: 20_000 });
    expect(rounds).toBeGreaterThan(0);
    expect(slices.slice(0, 3)).toEqual(['0/2', '1/2', '0/2'].slice(0, Math.min(3, rounds)));
    expect(warmUp(set, run, undefined, { cpuMs: 0, wallMs: 0 }).rounds).toBe(0);
  });

  it("runs a kinship scan and a mixture rule as a split search's slice (tables made in shares, crossing as messages) to the whole search's answer there", () => {
    const set = database(3000);
    const slice = IndexSet.view(set.pin('Autosomal').snapshots, { part: 0, of: 2 });
    const [a, b, c] = [0, 1, 2].map((i) => set.indexes('Autosomal')[0]!.genotypesOf(`P${i * 100}`)!);
    const scan = { task: 'scan', kind: 'Autosomal', request: { analysis: fullSiblings, query: siblingOf(a!, population, 7), queryRole: 0, population: matchPopulation, minMarkers: 6 } } as const;
    const mixture = { task: 'mixture-rule', rule: { ...mixtureRule, searchedSampleTypes: ['Convicted Offender'] }, profile: { id: 'stain', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'A', sampleType: 'Forensic Mixture', genotypes: stainOf([a!, b!, c!]) } } as const;
    for (const task of [scan, mixture]) expect(runWarmTask(task, slice, set, 2)).toEqual(runWarmTask(task, slice, set));
    expect((runWarmTask(scan, slice, set, 2) as unknown[][])[0]!.length).toBeGreaterThan(0);
  });

  it('searches the largest index with its first profile as the query, and an empty set without failing', () => {
    const set = database(500);
    expect(warmUp(set, run).searched).toBe(500);
    expect(warmUp(new IndexSet(), run).searched).toBe(0);
  });
});
