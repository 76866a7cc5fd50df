/**
 * Several API processes over one PostgreSQL (ARCHITECTURE.md "Scaling past one machine"): each holds
 * its own matching index, kept current with LISTEN/NOTIFY. Two apps over one database stand for two
 * processes: a decision made through one must reach the other's searches, even when the other's
 * listening connection was lost meanwhile.
 */
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyboardSearchAnswer } from '../../../../core/schemas/keyboard-search';
import type { ProfileWithMarkers } from '../../../../core/schemas/profiles';
import { openPostgres } from '../../../../server/db/database';
import { caseTypes, chemistries, markers, profiles } from '../../../../server/db/schema';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { freshPostgres, postgresReachable } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

const PLANTED: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'],
};

describe.runIf(await postgresReachable())('the matching index of two processes over one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgres>>;
  let first: TestApp;
  let second: TestApp;
  const token = { first: '', second: '' };
  let orgId = '';
  let chemistryId = '';
  let profileId = '';
  const markerIds = new Map<string, string>();
  const values = () => Object.entries(PLANTED).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles }));

  const call = (app: 'first' | 'second', method: 'GET' | 'POST', url: string, payload?: object) =>
    (app === 'first' ? first : second).app.inject({ method, url, headers: { authorization: `Bearer ${token[app]}` }, ...(payload ? { payload } : {}) });

  /** Whether the second process's keyboard search finds the planted profile. */
  const secondFinds = async () => {
    const res = await call('second', 'POST', '/api/profiles/get-all-possible-hits', { organizationId: orgId, chemistryId, markerValues: values(), populationIds: [] });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as KeyboardSearchAnswer).candidates.some((c) => c.profileId === profileId);
  };
  const until = async (expected: boolean) => {
    for (let i = 0; i < 200 && (await secondFinds()) !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    return secondFinds();
  };
  const current = async () => (await call('first', 'GET', `/api/profiles/${profileId}`)).json() as ProfileWithMarkers;
  const approve = async () => {
    const res = await call('first', 'POST', `/api/profiles/${profileId}/approve`, { version: (await current()).version, comments: '', markerValues: values() });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    database = await freshPostgres();
    first = await createTestApp({ database });
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    orgId = (await createOrganization(db, 'Oslo Lab')).id;
    const admin = await createAccessGroup(db, { isAdmin: true });
    const user = await createUser(db, { scope: 'All', accessGroupId: admin.id });
    for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);
    chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
    const [caseType] = await db.select().from(caseTypes).limit(1);
    token.first = first.verifier.issue(user.id);
    const caseId = (await call('first', 'POST', '/api/cases', { caseNumber: 'SYNC-1', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] })).json().id as string;
    const [row] = await db.insert(profiles).values({ profileId: 'REF-SYNC', caseId, organizationId: orgId, kind: 'Autosomal', chemistryId, sampleType: 'Reference' }).returning();
    await writeMarkerValues(db, row!.id, values().map((v, position) => ({ ...v, position })));
    profileId = row!.id;
    // The second process starts before any approval: only what it hears can put the profile in its index.
    second = await createTestApp({ database: await openPostgres(database.url) });
    token.second = second.verifier.issue(user.id);
  }, 90_000);

  afterAll(async () => {
    await second?.close();
    await first?.app.close();
    await database?.close();
  });

  it('an approval made through one process is searched by the other, and a reset withdraws it there', async () => {
    expect(await secondFinds()).toBe(false);
    await approve();
    expect(await until(true)).toBe(true);

    const reset = await call('first', 'POST', `/api/profiles/${profileId}/reset`, { version: (await current()).version, comments: 'Re-typed' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await until(false)).toBe(false);
  });

  it('after losing its listening connection, a process rebuilds its index and misses nothing decided meanwhile', async () => {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const { rowCount } = await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'");
      expect(rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // Decided while nobody listens: no announcement reaches the second process.
    await approve();
    expect(await until(true)).toBe(true);
  });
});
