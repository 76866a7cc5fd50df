import type { ProfileStatus } from '../../../../core/schemas/profiles';
/**
 * Database self-comparison (issue 15): a user with Profiles Read and Edit starts the comparison of an
 * organization's approved profiles of one chemistry, follows its progress, pages the report and
 * downloads it as CSV; another organization's profiles are never compared nor listed.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import type { SelfComparisonJob, SelfComparisonPair } from '../../../../core/schemas/self-comparison';
import { auditLog, caseTypes, cases, chemistries, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { freshPglite } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
const org = { a: '', b: '' };
const tokens = {} as Record<'admin' | 'a' | 'reader', string>;
let chemistryId = '';

function call<T = unknown>(who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) }).then((res) => ({ status: res.statusCode, body: (String(res.headers['content-type']).includes('json') ? res.json() : null) as T, raw: res.body, headers: res.headers }));
}

/** Starts a comparison (once the index has loaded) and waits for it to settle. */
async function runToEnd(who: keyof typeof tokens, orgId: string, body: object): Promise<SelfComparisonJob> {
  for (let i = 0; i < 200; i++) {
    const started = await call<SelfComparisonJob>(who, 'POST', `/api/organizations/${orgId}/self-comparison`, body);
    if (started.status === 503) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    expect(started.status, started.raw).toBe(202);
    break;
  }
  for (let i = 0; i < 400; i++) {
    const job = (await call<SelfComparisonJob>(who, 'GET', `/api/organizations/${orgId}/self-comparison`)).body;
    if (job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('self-comparison did not finish');
}

const names = (pairs: SelfComparisonPair[]) => pairs.map((p) => [p.first.sampleName, p.second.sampleName].sort().join(' = ')).sort();

beforeAll(async () => {
  const database = await freshPglite();
  const db = database.db;
  org.a = (await createOrganization(db, 'Oslo Lab')).id;
  org.b = (await createOrganization(db, 'Bergen Lab')).id;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [org.a] }));
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const caseOf = async (who: 'a' | 'b') => (await db.insert(cases).values({ caseNumber: `QA-${who}`, caseTypeId: caseType!.id, organizationId: org[who] }).returning())[0]!.id;
  const caseIds = { a: await caseOf('a'), b: await caseOf('b') };
  const add = async (who: 'a' | 'b', name: string, genotypes: ReadonlyMap<string, readonly string[]>, status: ProfileStatus = 'approved') => {
    const [row] = await db.insert(profiles).values({ profileId: name, caseId: caseIds[who], organizationId: org[who], kind: 'Autosomal', chemistryId, sampleType: 'Convicted Offender', status }).returning();
    await writeMarkerValues(db, row!.id, [...genotypes].map(([m, alleles], position) => ({ markerId: markerIds.get(m)!, alleles: [...alleles], position })));
  };
  const next = profileGenerator(fbi2015Population('Caucasian'), 7);
  for (let i = 0; i < 20; i++) await add('a', `OFF-${i}`, next());
  const twice = next();
  await add('a', 'SMITH-JOHN', twice);
  await add('a', 'JONES-PETER', twice);
  const near = new Map(twice);
  near.set('TH01', ['5', '10']);
  await add('a', 'NEAR-ONE', near);
  await add('a', 'PENDING-COPY', twice, 'pending');
  // The same person in Bergen: Oslo's comparison never sees it.
  await add('b', 'BERGEN-COPY', twice);

  t = await createTestApp({ database });
  const admin = await createAccessGroup(db, { isAdmin: true });
  const editor = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read', 'Edit'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.a = t.verifier.issue((await createUser(db, { accessGroupId: editor.id, organizationIds: [org.a] })).id);
  tokens.reader = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [org.a] })).id);
}, 120_000);
afterAll(() => t.close());

describe('self-comparison of an organization', () => {
  it('lists the duplicates and near-duplicates of the organization’s approved profiles only, with their cases and the differing markers', async () => {
    const job = await runToEnd('a', org.a, { chemistryId });
    expect(job).toMatchObject({ state: 'done', phase: 'finished', chemistryName: 'GlobalFiler', duplicateCount: 1, nearDuplicateCount: 2, profilesCompared: 23, mixturesLeftOut: 0 });
    const page = await call<{ items: SelfComparisonPair[]; count: number }>('a', 'GET', `/api/organizations/${org.a}/self-comparison/pairs`);
    expect(page.status, page.raw).toBe(200);
    expect(page.body.count).toBe(3);
    expect(names(page.body.items)).toEqual(['JONES-PETER = NEAR-ONE', 'JONES-PETER = SMITH-JOHN', 'NEAR-ONE = SMITH-JOHN']);
    expect(page.body.items[0]).toMatchObject({ kind: 'duplicate', equalMarkers: 20, differences: [] });
    const nearPair = page.body.items[1]!;
    expect(nearPair.first.caseNumber).toBe('QA-a');
    expect(nearPair.differences).toHaveLength(1);
    expect(nearPair.differences[0]!.marker).toBe('TH01');
    expect([nearPair.differences[0]!.first, nearPair.differences[0]!.second]).toContainEqual(['5', '10']);
    const duplicatesOnly = await call<{ count: number }>('a', 'GET', `/api/organizations/${org.a}/self-comparison/pairs?kind=duplicate`);
    expect(duplicatesOnly.body.count).toBe(1);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'SelfComparison'));
    expect(audit.map((a) => [a.action, a.organizationId])).toContainEqual(['Run', org.a]);
  });

  it('downloads the report as CSV naming both profiles and the differing genotypes', async () => {
    const res = await call('a', 'GET', `/api/organizations/${org.a}/self-comparison/pairs.csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('self-comparison-GlobalFiler');
    const lines = res.raw.trim().split('\r\n');
    expect(lines[0]).toBe('Kind,Case 1,Sample 1,Sample type 1,Case 2,Sample 2,Sample type 2,Equal markers,Differences,Differing markers');
    expect(lines).toHaveLength(4);
    expect(res.raw).toContain('TH01: ');
    expect(res.raw).not.toContain('BERGEN');
  });

  it('with scope All over every organization, finds the same person in two organizations', async () => {
    const job = await runToEnd('admin', 'all', { chemistryId, maxDifferences: 0 });
    expect(job.duplicateCount).toBe(3);
    const page = await call<{ items: SelfComparisonPair[] }>('admin', 'GET', '/api/organizations/all/self-comparison/pairs');
    expect(names(page.body.items)).toContain('BERGEN-COPY = SMITH-JOHN');
  });

  it('runs one comparison at a time per organization: a second start meanwhile is refused (409)', async () => {
    const [one, two] = await Promise.all([0, 1].map(() => call<SelfComparisonJob>('a', 'POST', `/api/organizations/${org.a}/self-comparison`, { chemistryId })));
    expect([one!.status, two!.status].sort()).toEqual([202, 409]);
    for (let i = 0; i < 200; i++) {
      if ((await call<SelfComparisonJob>('a', 'GET', `/api/organizations/${org.a}/self-comparison`)).body.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect((await call<{ count: number }>('a', 'GET', `/api/organizations/${org.a}/self-comparison/pairs`)).body.count).toBe(3);
  });

  it('refuses users without Profiles Edit, another organization, and `all` without scope All', async () => {
    expect((await call('reader', 'POST', `/api/organizations/${org.a}/self-comparison`, { chemistryId })).status).toBe(403);
    expect((await call('reader', 'GET', `/api/organizations/${org.a}/self-comparison/pairs`)).status).toBe(403);
    expect((await call('a', 'GET', `/api/organizations/${org.b}/self-comparison`)).status).toBe(403);
    expect((await call('a', 'POST', '/api/organizations/all/self-comparison', { chemistryId })).status).toBe(403);
  });

  it('answers null before any run (no error for the screen to show), 409 for a cancel with nothing running, 400 for parameters out of range', async () => {
    const none = await call('admin', 'GET', `/api/organizations/${org.b}/self-comparison`);
    expect(none.status).toBe(200);
    expect(none.raw).toBe('null');
    expect((await call('a', 'POST', `/api/organizations/${org.a}/self-comparison/cancel`)).status).toBe(409);
    const bad = await call('a', 'POST', `/api/organizations/${org.a}/self-comparison`, { chemistryId, maxDifferences: 4 });
    expect(bad.status).toBe(400);
  });
});
