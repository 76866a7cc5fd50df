import type { ProfileStatus } from '../../../../core/schemas/profiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stats } from '../../../../core/schemas/stats';
import { analyses, analysisGroups, cases, caseTypes, chemistries, hits, profiles, taskRequests } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let orgA: string;
let orgB: string;
const tokens = {} as Record<'adminAll' | 'analystA' | 'analystAB' | 'casesOnlyA', string>;

/**
 * Seeded counts. Oslo: 2 pending + 1 approved autosomal, 1 rejected Y-STR profile; 2 open cases and
 * 1 closed; hits: week 2026-W02 one pending and one published, 2026-W03 one rejected; tasks: 2 open,
 * 1 done. Bergen: 1 approved autosomal profile, 1 open case, 1 pending hit in 2026-W03, 1 open task.
 */
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const [type] = await db.insert(caseTypes).values({ name: 'Burglary' }).returning();
  const [autosomal] = await db.insert(chemistries).values({ name: 'GlobalFiler', kind: 'Autosomal' }).returning();
  const [yKit] = await db.insert(chemistries).values({ name: 'Yfiler', kind: 'YStr' }).returning();
  const [group] = await db.insert(analysisGroups).values({ name: 'Paternity' }).returning();
  const [analysis] = await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Trio', kind: 'Computational' }).returning();
  const caseRows = await db
    .insert(cases)
    .values([
      { caseNumber: 'A-1', caseTypeId: type!.id, organizationId: orgA },
      { caseNumber: 'A-2', caseTypeId: type!.id, organizationId: orgA },
      { caseNumber: 'A-3', caseTypeId: type!.id, organizationId: orgA, status: 'Closed' },
      { caseNumber: 'B-1', caseTypeId: type!.id, organizationId: orgB },
    ])
    .returning();
  const [a1, , , b1] = caseRows;
  const profile = (n: number, caseRow: typeof a1, kind: 'Autosomal' | 'YStr', status: ProfileStatus) => ({
    profileId: `P-${n}`,
    caseId: caseRow!.id,
    organizationId: caseRow!.organizationId,
    kind,
    chemistryId: (kind === 'YStr' ? yKit : autosomal)!.id,
    sampleType: 'Reference' as const,
    status,
  });
  await db
    .insert(profiles)
    .values([profile(1, a1, 'Autosomal', 'pending'), profile(2, a1, 'Autosomal', 'pending'), profile(3, a1, 'Autosomal', 'approved'), profile(4, a1, 'YStr', 'rejected'), profile(5, b1, 'Autosomal', 'approved')]);
  const hit = (n: number, organizationId: string, status: string, createdAt: string) => ({
    organizationId,
    analysisId: analysis!.id,
    markerCount: 20,
    status,
    dedupeKey: `stats-${n}`,
    createdAt: new Date(createdAt),
  });
  await db.insert(hits).values([
    // 2026-01-05 is the Monday of ISO week 2026-W02; 2026-01-12 the Monday of W03.
    hit(1, orgA, 'pending', '2026-01-05T08:00:00Z'),
    hit(2, orgA, 'published', '2026-01-11T23:30:00Z'),
    hit(3, orgA, 'rejected', '2026-01-12T00:10:00Z'),
    hit(4, orgB, 'pending', '2026-01-14T12:00:00Z'),
  ]);
  await db.insert(taskRequests).values([
    { organizationId: orgA, title: 'One' },
    { organizationId: orgA, title: 'Two' },
    { organizationId: orgA, title: 'Three', status: 'done' },
    { organizationId: orgB, title: 'Four' },
  ]);
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Profiles: ['Read'], Hits: ['Read'], Cases: ['Read'], TaskRequests: ['Read'] } });
  const casesOnly = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  tokens.adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analystA = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA] })).id);
  tokens.analystAB = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA, orgB] })).id);
  tokens.casesOnlyA = t.verifier.issue((await createUser(db, { accessGroupId: casesOnly.id, organizationIds: [orgA] })).id);
}, 60_000);
afterAll(() => t.close());

const get = (who: keyof typeof tokens, url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens[who]}` } });

async function stats(who: keyof typeof tokens, key: string, orgId?: string): Promise<Stats> {
  const res = await get(who, `/api/stats/${key}${orgId ? `?orgId=${orgId}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Stats;
}

/** `{ row label: { series: count } }`, easier to read in an assertion. */
const table = (s: Stats) => Object.fromEntries(s.rows.map((r) => [r.label, r.counts]));

describe('GET /api/stats/:key', () => {
  it('counts profiles per kind and status in the user’s organization only', async () => {
    const s = await stats('analystA', 'profiles-by-kind-status');
    expect(s.series).toEqual(['pending', 'approved', 'rejected']);
    expect(table(s)).toEqual({ Autosomal: { pending: 2, approved: 1, rejected: 0 }, 'Y-STR': { pending: 0, approved: 0, rejected: 1 } });
  });

  it('counts hits per ISO week (UTC) and status, oldest week first', async () => {
    const s = await stats('analystA', 'hits-by-status-over-time');
    expect(s.rows).toEqual([
      { label: '2026-W02', counts: { pending: 1, published: 1, rejected: 0 } },
      { label: '2026-W03', counts: { pending: 0, published: 0, rejected: 1 } },
    ]);
  });

  it('counts cases and task requests per status', async () => {
    expect(table(await stats('analystA', 'cases-by-status'))).toEqual({ Cases: { Open: 2, Closed: 1 } });
    expect(table(await stats('analystA', 'task-requests-by-status'))).toEqual({ 'Task requests': { open: 2, 'in-progress': 0, done: 1, cancelled: 0 } });
  });

  it('adds up every reachable organization by default, or one when orgId names it', async () => {
    expect(table(await stats('analystAB', 'cases-by-status'))).toEqual({ Cases: { Open: 3, Closed: 1 } });
    expect(table(await stats('analystAB', 'cases-by-status', orgB))).toEqual({ Cases: { Open: 1, Closed: 0 } });
    expect(table(await stats('adminAll', 'hits-by-status-over-time', 'all'))['2026-W03']).toEqual({ pending: 1, published: 0, rejected: 1 });
  });

  it('refuses an organization the user does not reach with 403', async () => {
    expect((await get('analystA', `/api/stats/cases-by-status?orgId=${orgB}`)).statusCode).toBe(403);
  });

  it('needs Read of the entity a statistic counts', async () => {
    expect((await get('casesOnlyA', '/api/stats/cases-by-status')).statusCode).toBe(200);
    for (const key of ['profiles-by-kind-status', 'hits-by-status-over-time', 'task-requests-by-status']) {
      expect((await get('casesOnlyA', `/api/stats/${key}`)).statusCode, key).toBe(403);
    }
  });

  it('answers an unknown key with 404 naming the statistics there are', async () => {
    const res = await get('analystA', '/api/stats/everything');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('No statistic "everything". The statistics are: profiles-by-kind-status, hits-by-status-over-time, cases-by-status, task-requests-by-status.');
  });
});
