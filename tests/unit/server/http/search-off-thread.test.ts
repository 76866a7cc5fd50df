/**
 * Nothing heavy on the request thread (issue 29, ARCHITECTURE.md "Using every core"): a keyboard search over a large
 * index runs on a search worker, so `/api/health` sent while it scans is answered first; a second search waits for a
 * thread, not the server. 200,000 synthetic profiles are indexed in memory (the scan reads the index, not the database).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import type { KeyboardSearchAnswer } from '../../../../core/schemas/keyboard-search';
import { analyses, chemistries, markers } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createTestApp, testConfig, type TestApp } from '../../../helpers/app';
import { uploadFbiPopulation } from '../../../helpers/calculator-fixtures';
import { freshPglite } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

const PROFILES = 200_000;

let t: TestApp;
let token: string;
let body: object;

beforeAll(async () => {
  const database = await freshPglite();
  const db = database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const orgId = (await createOrganization(db, 'Oslo Lab')).id;
  // One search thread: the second search below must wait for it.
  t = await createTestApp({ database, config: testConfig({ SEARCH_THREADS: '1' }) });
  const admin = await createAccessGroup(db, { isAdmin: true });
  const adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Populations: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  const populationId = await uploadFbiPopulation(t, adminToken, [orgId]);
  const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const analysisIds = new Map((await db.select().from(analyses)).map((a) => [a.name, a.id]));
  const generate = profileGenerator(fbi2015Population(), 29);
  const { indexes } = t.app.searchRuntime.service;
  for (let i = 0; i < PROFILES; i++) indexes.upsert({ id: randomUUID(), kind: 'Autosomal', chemistryId: chemistry!.id, organizationId: orgId, sampleType: 'Convicted Offender', genotypes: generate() });
  const query = generate();
  body = {
    organizationId: orgId,
    chemistryId: chemistry!.id,
    markerValues: [...query].filter(([m]) => markerIds.has(m)).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles })),
    populationIds: [populationId],
    // Kinship scans every profile with an LR per marker: the slow search a user may tick.
    analysisIds: ['Identity', 'Full siblings', 'Parent–child', 'Half siblings / second degree'].map((name) => analysisIds.get(name)),
  };
}, 300_000);
afterAll(() => t?.close());

const keyboardSearch = () => t.app.inject({ method: 'POST', url: '/api/profiles/get-all-possible-hits', headers: { authorization: `Bearer ${token}` }, payload: body });

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('searches run off the request thread', () => {
  it('answers /api/health while a keyboard search scans, and a second search waits its turn for the thread', async () => {
    const { pool } = t.app.searchRuntime;
    // What the pool is asked, in order: a task's name when asked, and a scan's end. The chance figures are one of the
    // tasks (not the request thread's work), asked beside the scan, not after it.
    const events: string[] = [];
    const run = pool.run.bind(pool);
    pool.run = ((indexes, kind, task, options) => (events.push(task.task), run(indexes, kind, task, options))) as typeof pool.run;
    const runParts = pool.runParts.bind(pool);
    pool.runParts = (async (indexes, kind, task, parts, merge) => {
      events.push(`${task.task} scan`);
      const merged = await runParts(indexes, kind, task, parts, merge);
      events.push(`${task.task} scan answered`);
      return merged;
    }) as typeof pool.runParts;
    const answered: string[] = [];
    const first = keyboardSearch().then((res) => (answered.push('first search'), res));
    // The first search's scan takes the one thread; its chance figures wait for it.
    await until(() => pool.state.running === 2);
    expect(pool.state.queued).toBe(1);
    const second = keyboardSearch().then((res) => (answered.push('second search'), res));
    await until(() => pool.state.running === 4);
    // The second's two tasks are queued behind the first's (one thread) while the first scans.
    expect(pool.state.queued).toBe(3);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    answered.push('health');
    expect(health.statusCode).toBe(200);
    // The probe says how busy the search threads are.
    expect(health.json()).toMatchObject({ status: 'ok', searches: { threads: 1, running: 4, queued: 3 } });
    const [a, b] = await Promise.all([first, second]);
    expect(answered).toEqual(['health', 'first search', 'second search']);
    expect(a.statusCode, a.body).toBe(200);
    // The same search twice: the same answer.
    expect((b.json() as KeyboardSearchAnswer).candidates).toEqual((a.json() as KeyboardSearchAnswer).candidates);
    expect((a.json() as KeyboardSearchAnswer).searchedProfiles).toBe(PROFILES);
    // The first found a free thread; the second came after the first's scan and chance figures, and says so.
    expect((a.json() as KeyboardSearchAnswer).queuePosition).toBe(0);
    expect((b.json() as KeyboardSearchAnswer).queuePosition).toBe(2);
    // Each search asked for its chance figures with its scan, before the scan answered.
    expect(events).toEqual(['keyboard scan', 'keyboard-chance', 'keyboard scan', 'keyboard-chance', 'keyboard scan answered', 'keyboard scan answered']);
  }, 120_000);

  it("answers /api/health while the search threads warm up on a large index (the start-up's rounds of searches run on the threads)", async () => {
    const { pool, service } = t.app.searchRuntime;
    const answered: string[] = [];
    // What the runtime does once a large index is loaded (search-runtime.ts): every thread runs its warm-up rounds.
    const warming = pool.warm(service.indexes).then((threads) => (answered.push('warm-up'), threads));
    await until(() => pool.state.running === 1);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    answered.push('health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', searches: { threads: 1, running: 1 } });
    expect(await warming).toHaveLength(1);
    expect(answered).toEqual(['health', 'warm-up']);
    expect(pool.state.running).toBe(0);
  }, 120_000);
});
