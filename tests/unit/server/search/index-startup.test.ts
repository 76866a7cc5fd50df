/**
 * Start-up with a large database (issue 15): the matching index loads in the background from the packed
 * genotypes, page by page; the server answers meanwhile, health reports the load, and searches answer
 * 503 until it is ready. What is loaded equals what the database holds.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../../server/app';
import { systemClock } from '../../../../server/clock';
import type { Database, Db } from '../../../../server/db/database';
import { encodeGenotype } from '../../../../server/db/genotype-codec';
import { caseTypes, cases, chemistries, chemistryMarkers, markers } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { IndexSet } from '../../../../server/matching/index-set';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import { loadMatchIndexes, PAGE, TURN_MS } from '../../../../server/matching/load-indexes';
import { MatchingService } from '../../../../server/matching/matching-service';
import { IndexSync } from '../../../../server/search/index-sync';
import { SearchPool } from '../../../../server/search/search-pool';
import { SearchQueue } from '../../../../server/search/search-queue';
import type { MatchProfile } from '../../../../server/matching/types';
import { databaseEngines, freshPglite, freshPostgres, postgresReachable } from '../../../helpers/database';
import { FakeVerifier, testConfig } from '../../../helpers/app';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { seededRandom } from '../../../../core/seeded-random';

const engines = await databaseEngines();


interface Planted {
  id: string;
  status: 'approved' | 'pending';
  sampleType: string;
  genotypes: Map<string, string[]>;
}

/**
 * `approved` + `pending` GlobalFiler profiles written straight to the database (as an import would, packed),
 * with varied genotypes: two alleles, homozygotes, microvariants, a six-allele mixture marker, markings.
 */
async function plantProfiles(db: Db, approved: number, pending: number): Promise<{ planted: Planted[]; organizationId: string; chemistryId: string }> {
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const organization = await createOrganization(db, 'National database');
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const [kase] = await db.insert(cases).values({ caseNumber: 'NDB-1', caseTypeId: caseType!.id, organizationId: organization.id }).returning();
  const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const kit = await db
    .select({ name: markers.name, code: markers.code })
    .from(chemistryMarkers)
    .innerJoin(markers, eq(markers.id, chemistryMarkers.markerId))
    // The kit's autosomal markers (GlobalFiler's DYS391 and Yindel take one allele).
    .where(and(eq(chemistryMarkers.chemistryId, chemistry!.id), eq(markers.kind, 'Autosomal')))
    .orderBy(asc(chemistryMarkers.position));
  const random = seededRandom(15);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const alleles = ['8', '9', '9.3', '10', '11', '12', '13', '14', '15', '16', '17', '17.3', '22.2', '29', '30.2', 'OL', '<8'];
  const planted: Planted[] = [];
  for (let i = 0; i < approved + pending; i++) {
    const mixture = i % 50 === 7;
    const genotypes = new Map<string, string[]>();
    for (const marker of kit) {
      if (random() < 0.05) continue;
      if (/amelogenin/i.test(marker.name)) genotypes.set(marker.name, random() < 0.5 ? ['X'] : ['X', 'Y']);
      else if (mixture && random() < 0.3) genotypes.set(marker.name, ['10', '11', '12', '13', '14', '15']);
      else genotypes.set(marker.name, [...new Set([pick(alleles), pick(alleles)])]);
    }
    planted.push({ id: randomUUID(), status: i < approved ? 'approved' : 'pending', sampleType: mixture ? 'Forensic Mixture' : 'Convicted Offender', genotypes });
  }
  // Shuffled ids: the pages of the primary key hold approved and pending profiles alike.
  const codes = new Map(kit.map((m) => [m.name, m.code]));
  for (let i = 0; i < planted.length; i += 5000) {
    const rows = planted.slice(i, i + 5000).map((p, j) => ({
      id: p.id,
      name: `P-${i + j}`,
      status: p.status,
      sample_type: p.sampleType,
      genotype: Buffer.from(encodeGenotype([...p.genotypes].map(([name, a]) => ({ code: codes.get(name)!, alleles: a })))).toString('hex'),
    }));
    await db.execute(sql`
      insert into profiles (id, profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, genotype)
      select r.id, r.name, ${kase!.id}::uuid, ${organization.id}::uuid, 'Autosomal', ${chemistry!.id}::uuid, r.sample_type, r.status, decode(r.genotype, 'hex')
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(id uuid, name text, status profile_status, sample_type sample_type, genotype text)`);
  }
  return { planted, organizationId: organization.id, chemistryId: chemistry!.id };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('loading the matching index', () => {
  it.each(engines)('reads every approved profile, and only those, exactly as stored, page by page on $name', async ({ name, open }) => {
    const database = await open();
    try {
      const { planted, chemistryId, organizationId } = await plantProfiles(database.db, 41_000, 1_500);
      const upserted: MatchProfile[] = [];
      const upsert = IndexSet.prototype.upsert;
      vi.spyOn(IndexSet.prototype, 'upsert').mockImplementation(function (this: IndexSet, profile: MatchProfile) {
        upserted.push(profile);
        upsert.call(this, profile);
      });
      const progress: number[] = [];
      const totals: number[] = [];
      const set = await loadMatchIndexes(database.db, (loaded, total) => (progress.push(loaded), totals.push(total)));
      // Before the first page, then pages of 500 of the primary key on either engine, so that a health probe waits for
      // a short page (issue 29); the last one short, or empty after a full one. The denominator is the approved
      // profiles' count throughout.
      const page = 500;
      expect(PAGE).toBe(page);
      expect(progress).toEqual([0, ...Array.from({ length: Math.floor(41_000 / page) }, (_, k) => page * (k + 1)), 41_000]);
      expect(new Set(totals)).toEqual(new Set([41_000]));
      const approved = planted.filter((p) => p.status === 'approved');
      expect(upserted.map((p) => p.id).sort()).toEqual(approved.map((p) => p.id).sort());
      const byId = new Map(upserted.map((p) => [p.id, p]));
      for (const p of approved) {
        const loaded = byId.get(p.id)!;
        expect({ kind: loaded.kind, chemistryId: loaded.chemistryId, organizationId: loaded.organizationId, sampleType: loaded.sampleType }).toEqual({
          kind: 'Autosomal',
          chemistryId,
          organizationId,
          sampleType: p.sampleType,
        });
        // Same markers, same alleles, same order.
        expect([...loaded.genotypes]).toEqual([...p.genotypes]);
        expect(set.find(p.id)).toBeDefined();
      }
      for (const p of planted.filter((x) => x.status === 'pending').slice(0, 100)) expect(set.find(p.id)).toBeUndefined();
    } finally {
      await database.close();
    }
  }, 120_000);

  it('turns the event loop after each TURN_MS of indexing, into room made once before the first profile', async () => {
    const database = await freshPglite();
    try {
      await plantProfiles(database.db, 3_000, 10);
      // What happened, in order: each upsert, each change of an index's room, and each turn of the event loop (a turn asked
      // for at an upsert is recorded when it comes: a request arriving then is answered at that turn). Each upsert here takes
      // a quarter of TURN_MS, as a cold or slow host's might.
      const events: string[] = [];
      let awaiting = false;
      const upsert = IndexSet.prototype.upsert;
      vi.spyOn(IndexSet.prototype, 'upsert').mockImplementation(function (this: IndexSet, profile: MatchProfile) {
        if (!awaiting) {
          awaiting = true;
          setImmediate(() => ((awaiting = false), events.push('turn')));
        }
        events.push('upsert');
        upsert.call(this, profile);
        for (const until = performance.now() + TURN_MS / 4; performance.now() < until; );
      });
      const room = ProfileIndex.prototype as unknown as { setCapacity(capacity: number): void };
      const setCapacity = room.setCapacity;
      vi.spyOn(room, 'setCapacity').mockImplementation(function (this: unknown, capacity: number) {
        events.push('room');
        setCapacity.call(this, capacity);
      });
      await loadMatchIndexes(database.db);
      // The request thread turns once TURN_MS of indexing has passed, whatever the number of profiles (issue 29: turns every
      // 500 profiles held /api/health 67-165 ms at 1M).
      const runs = events.join(' ').split('turn').map((between) => between.split(' ').filter((e) => e === 'upsert').length);
      expect(Math.max(...runs)).toBeLessThanOrEqual(4);
      expect(runs.filter((n) => n > 0).length).toBeGreaterThanOrEqual(3_000 / 4);
      // Room for every approved profile before the first upsert, none made while they go in (a growth copies every column on
      // the request thread: 170 ms at 1M); the trim after the last may give some back.
      const first = events.indexOf('upsert');
      const last = events.lastIndexOf('upsert');
      expect(events.slice(0, first)).toContain('room');
      expect(events.slice(first, last).filter((e) => e === 'room')).toEqual([]);
      expect(events.filter((e) => e === 'upsert')).toHaveLength(3_000);
    } finally {
      await database.close();
    }
  }, 120_000);
});

/** Holds an exclusive lock on the profiles table over a connection of its own until released: the load cannot read. */
async function lockProfiles(url: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query('lock table profiles in access exclusive mode');
  return async () => {
    await client.query('rollback');
    await client.end();
  };
}

describe.runIf(await postgresReachable())('start-up while the matching index loads (PostgreSQL)', () => {
  let database: (Database & { url: string }) | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('listens at once: health reports the load, searches answer 503 until the index is ready, then find the profiles', async () => {
    database = await freshPostgres();
    const { db } = database;
    const { planted, organizationId, chemistryId } = await plantProfiles(db, 2_500, 100);
    const admin = await createAccessGroup(db, { isAdmin: true });
    const user = await createUser(db, { scope: 'All', accessGroupId: admin.id });
    const release = await lockProfiles(database.url);
    let released = false;
    const verifier = new FakeVerifier();
    const app = await buildApp({ database, config: testConfig(), verifier, redirectToPublicUrl: false, waitForMatchIndex: false });
    try {
      await app.ready();
      const token = verifier.issue(user.id);
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode, health.body).toBe(200);
      expect(health.json()).toEqual({ status: 'ok', database: 'postgres', index: { state: 'loading', loaded: 0, total: 0 }, searches: { threads: expect.any(Number), running: 0, queued: 0 }, uploads: { waiting: 0, retrying: 0, failed: 0, oldestWaitingSeconds: null } });

      const target = planted.find((p) => p.status === 'approved')!;
      const markerIds = new Map((await db.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.name, m.id]));
      const body = { organizationId, chemistryId, markerValues: [...target.genotypes].map(([name, alleles]) => ({ markerId: markerIds.get(name)!, alleles })), populationIds: [] };
      const search = () => app.inject({ method: 'POST', url: '/api/profiles/get-all-possible-hits', headers: { authorization: `Bearer ${token}` }, payload: body });
      const early = await search();
      expect(early.statusCode, early.body).toBe(503);
      expect(early.json().error).toMatch(/^The matching index is still loading.*; try again in a minute\.$/);

      await release();
      released = true;
      let state = health.json().index as { state: string; loaded: number; total: number };
      for (let i = 0; i < 400 && state.state !== 'ready'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        state = (await app.inject({ method: 'GET', url: '/api/health' })).json().index;
      }
      expect(state).toEqual({ state: 'ready', loaded: 2_500, total: 2_500 });
      const found = await search();
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json().candidates.map((c: { profileId: string }) => c.profileId)).toContain(target.id);
    } finally {
      if (!released) await release();
      await app.close();
    }
  }, 120_000);

  it('a stop during the load ends it, and the server closes', async () => {
    database = await freshPostgres();
    await plantProfiles(database.db, 100, 0);
    const release = await lockProfiles(database.url);
    const app = await buildApp({ database, config: testConfig(), verifier: new FakeVerifier(), redirectToPublicUrl: false, waitForMatchIndex: false });
    await app.ready();
    const closing = app.close();
    await release();
    await closing;
  }, 60_000);
});

describe('the search queue while the index loads', () => {
  it('keeps searches queued until the index is loaded, and leaves them queued when the server stops first', async () => {
    const database = await freshPglite();
    try {
      const queueWith = (waitForIndex: () => Promise<void>) =>
        new SearchQueue({ db: database.db, clock: systemClock, matching: new MatchingService(new IndexSet()), record: async () => 0, waitForIndex });
      let loaded!: () => void;
      const ready = new Promise<void>((resolve) => (loaded = resolve));
      const queue = queueWith(() => ready);
      const job = queue.enqueue({ id: randomUUID(), profileId: 'P-1', organizationId: randomUUID() });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(queue.list(null)[0]!.status).toBe('queued');
      loaded();
      await queue.idle();
      expect(queue.list(null).find((j) => j.id === job.id)!.status).not.toBe('queued');

      const stopped = queueWith(() => Promise.reject(new Error('stopped')));
      stopped.enqueue({ id: randomUUID(), profileId: 'P-2', organizationId: randomUUID() });
      await stopped.idle();
      expect(stopped.list(null)[0]!.status).toBe('queued');
    } finally {
      await database.close();
    }
  });
});

describe('the search threads at start-up', () => {
  it('start before the index load reads anything, counted as no search, and the load follows', async () => {
    const database = await freshPglite();
    await plantProfiles(database.db, 40, 0);
    // Starting a thread loads its modules (about a second of CPU): held here, to see what waits for it.
    let threadsUp!: () => void;
    const starting = new Promise<void>((resolve) => (threadsUp = resolve));
    const start = vi.spyOn(SearchPool.prototype, 'start').mockImplementation(async () => {
      await starting;
      return [];
    });
    const rebuild = vi.spyOn(IndexSync.prototype, 'listenAndRebuild');
    const app = await buildApp({ database, config: testConfig(), verifier: new FakeVerifier(), redirectToPublicUrl: false, waitForMatchIndex: false });
    try {
      await app.ready();
      expect(start).toHaveBeenCalledOnce();
      const health = async () => (await app.inject({ method: 'GET', url: '/api/health' })).json() as { index: unknown; searches: { running: number } };
      expect(await health()).toMatchObject({ index: { state: 'loading', loaded: 0, total: 0 }, searches: { running: 0 } });
      expect(rebuild).not.toHaveBeenCalled();
      threadsUp();
      await vi.waitFor(async () => expect((await health()).index).toEqual({ state: 'ready', loaded: 40, total: 40 }), { timeout: 30_000, interval: 50 });
      expect(rebuild).toHaveBeenCalledOnce();
    } finally {
      await app.close();
      await database.close();
    }
  }, 60_000);
});
