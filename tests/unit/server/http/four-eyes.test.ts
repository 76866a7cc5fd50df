/**
 * Four-eyes review (issue 18): who entered or imported a profile cannot approve it, nor publish a hit resting on a
 * profile they entered; a second person can, and is recorded. Per organization, on by default; the server decides.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../core/schemas/profiles';
import { analyses, auditLog, caseTypes, chemistries, markers, organizations, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

const GENOTYPES: Record<string, string[]> = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], FGA: ['21', '24'] };
type Who = 'admin' | 'analyst' | 'reviewer';
let t: TestApp;
let orgId: string;
let caseId: string;
const tokens = {} as Record<Who, string>;
const ids = {} as Record<Who, string>;

const call = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

async function enter(who: Who, profileId: string): Promise<Profile> {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = await call(who, 'POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] });
  expect(added.statusCode, added.body).toBe(201);
  const p = (added.json() as { items: Profile[] }).items[0]!;
  const res = await call(who, 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(GENOTYPES).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles })) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Profile;
}

const approve = (who: Who, p: Profile & { markerValues?: { markerId: string; alleles: string[] }[] }) =>
  call(who, 'POST', `/api/profiles/${p.id}/approve`, { version: p.version, comments: 'Checked', markerValues: p.markerValues!.map((v) => ({ markerId: v.markerId, alleles: v.alleles })) });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  // As the product makes an organization: four-eyes review on by default (the column's default).
  const [org] = await db.insert(organizations).values({ name: 'Four Eyes Lab' }).returning();
  expect(org!.fourEyesReview).toBe(true);
  orgId = org!.id;
  const staff = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Hits: ['Read', 'Publish'] } });
  const admin = await createAccessGroup(db, { isAdmin: true });
  const made = {
    admin: await createUser(db, { scope: 'All', accessGroupId: admin.id }),
    analyst: await createUser(db, { accessGroupId: staff.id, organizationIds: [orgId] }),
    reviewer: await createUser(db, { accessGroupId: staff.id, organizationIds: [orgId] }),
  };
  for (const [who, user] of Object.entries(made) as [Who, { id: string }][]) {
    tokens[who] = t.verifier.issue(user.id);
    ids[who] = user.id;
  }
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const made2 = await call('analyst', 'POST', '/api/cases', { caseNumber: 'FOUR-EYES-1', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] });
  caseId = made2.json().id as string;
});
afterAll(() => t.close());

describe('four-eyes review', () => {
  it('refuses the approval of one’s own profile and records the second person who approves it', async () => {
    const own = await enter('analyst', 'FE-REF-1');
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, own.id));
    expect(row!.enteredBy).toBe(ids.analyst);
    const refused = await approve('analyst', own);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Four-eyes review: you entered or imported profile FE-REF-1, so another person must approve it.' });
    const approved = await approve('reviewer', own);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved' });
    const [after] = await t.database.db.select().from(profiles).where(eq(profiles.id, own.id));
    expect(after!.reviewedBy).toBe(ids.reviewer);
  });

  it('refuses to publish a hit resting on a profile one entered; another reviewer publishes it', async () => {
    const db = t.database.db;
    const mine = await enter('analyst', 'FE-STAIN');
    const theirs = await enter('reviewer', 'FE-SUSPECT');
    const [identity] = await db.select().from(analyses).where(eq(analyses.name, 'Identity'));
    const [hit] = await db.transaction((tx) =>
      recordHitCandidates(tx as never, { organizationId: orgId, candidates: [{ analysisId: identity!.id, populationId: null, combinedIndex: 1e9, markerCount: 4, nonExclusionMarkerCount: null, profiles: [{ role: 'Evidence', profileId: mine.id }, { role: 'Reference', profileId: theirs.id }] }] }),
    );
    const view = (await call('reviewer', 'GET', `/api/hits/${hit!.id}`)).json() as { hit: { version: number } };
    const publish = (who: Who) => call(who, 'POST', `/api/hits/${hit!.id}/publish`, { version: view.hit.version, comments: 'Confirmed', notify: false });
    for (const who of ['analyst', 'reviewer'] as const) {
      const refused = await publish(who);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe(`Four-eyes review: this hit rests on profile ${who === 'analyst' ? 'FE-STAIN' : 'FE-SUSPECT'}, which you entered or imported, so another person must publish it.`);
    }
    const byAdmin = await publish('admin');
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('is the organization’s setting: turned off by its administrator (audited), the analyst approves their own profile', async () => {
    expect((await call('analyst', 'GET', `/api/organizations/${orgId}/review-settings`)).statusCode).toBe(403);
    const read = (await call('admin', 'GET', `/api/organizations/${orgId}/review-settings`)).json() as { fourEyesReview: boolean; version: number };
    expect(read).toEqual({ fourEyesReview: true, version: expect.any(Number) });
    const off = await call('admin', 'PUT', `/api/organizations/${orgId}/review-settings`, { fourEyesReview: false, version: read.version });
    expect(off.json()).toEqual({ fourEyesReview: false, version: read.version + 1 });
    // A second administrator's change from the version read before: refused, nothing changed.
    const stale = await call('admin', 'PUT', `/api/organizations/${orgId}/review-settings`, { fourEyesReview: true, version: read.version });
    expect(stale.statusCode).toBe(409);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, orgId));
    expect(audit.map((a) => [a.action, a.before, a.after])).toContainEqual(['Edited (review-settings)', { fourEyesReview: true, version: read.version }, { fourEyesReview: false, version: read.version + 1 }]);
    expect(audit.filter((a) => a.action === 'Edited (review-settings)')).toHaveLength(1);
    const own = await enter('analyst', 'FE-REF-2');
    expect((await approve('analyst', own)).statusCode).toBe(200);
    await call('admin', 'PUT', `/api/organizations/${orgId}/review-settings`, { fourEyesReview: true, version: read.version + 1 });
    const again = await enter('analyst', 'FE-REF-3');
    expect((await approve('analyst', again)).statusCode).toBe(403);
  });
});
