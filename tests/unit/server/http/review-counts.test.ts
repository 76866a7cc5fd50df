/**
 * GET organizations/{orgId}/review-counts (issue 18): the dashboard and the navigation say how many
 * profiles and hits wait for review. Each figure only for those who may see that review list, and
 * only of the organizations the user reaches (`all`: scope All).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../core/schemas/profiles';
import type { ReviewCounts } from '../../../../core/schemas/review-counts';
import { analyses, caseTypes, chemistries, hits, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

type Who = 'admin' | 'reviewerA' | 'profileReaderA' | 'hitReviewerA' | 'hitReaderA' | 'reviewerB';
let t: TestApp;
let orgA: string;
let orgB: string;
const tokens = {} as Record<Who, string>;

const get = (who: Who, orgId: string) => t.app.inject({ method: 'GET', url: `/api/organizations/${orgId}/review-counts`, headers: { authorization: `Bearer ${tokens[who]}` } });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add'], Profiles: ['Read', 'Add'], Hits: ['Read', 'Publish'] } });
  const profileReader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  const hitReviewer = await createAccessGroup(db, { grants: { Hits: ['Read', 'Publish'] } });
  const hitReader = await createAccessGroup(db, { grants: { Hits: ['Read'] } });
  const made: Record<Who, { id: string }> = {
    admin: await createUser(db, { scope: 'All', accessGroupId: admin.id }),
    reviewerA: await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgA] }),
    profileReaderA: await createUser(db, { accessGroupId: profileReader.id, organizationIds: [orgA] }),
    hitReviewerA: await createUser(db, { accessGroupId: hitReviewer.id, organizationIds: [orgA] }),
    hitReaderA: await createUser(db, { accessGroupId: hitReader.id, organizationIds: [orgA] }),
    reviewerB: await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgB] }),
  };
  for (const [who, user] of Object.entries(made) as [Who, { id: string }][]) tokens[who] = t.verifier.issue(user.id);

  const [caseType] = await db.select().from(caseTypes).limit(1);
  const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const [analysis] = await db.select().from(analyses).limit(1);
  const addProfiles = async (organizationId: string, caseNumber: string, names: string[]) => {
    const made = await t.app.inject({ method: 'POST', url: '/api/cases', headers: { authorization: `Bearer ${tokens.admin}` }, payload: { caseNumber, caseTypeId: caseType!.id, organizationId, assignedUserIds: [] } });
    expect(made.statusCode, made.body).toBe(201);
    const ids: string[] = [];
    for (const profileId of names) {
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/profiles',
        headers: { authorization: `Bearer ${tokens.admin}` },
        payload: { caseId: made.json().id, chemistryId: chemistry!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] },
      });
      expect(added.statusCode, added.body).toBe(201);
      ids.push((added.json() as { items: Profile[] }).items[0]!.id);
    }
    return ids;
  };
  // Oslo: two profiles wait, one was rejected; two hits wait, one was published. Bergen: one of each waits.
  const oslo = await addProfiles(orgA, 'OSLO-1', ['A-1', 'A-2', 'A-3']);
  await db.update(profiles).set({ status: 'rejected' }).where(eq(profiles.id, oslo[2]!));
  await addProfiles(orgB, 'BERGEN-1', ['B-1']);
  const hit = (organizationId: string, key: string, status = 'pending') => ({ organizationId, analysisId: analysis!.id, markerCount: 13, dedupeKey: key, status });
  await db.insert(hits).values([hit(orgA, 'a1'), hit(orgA, 'a2'), hit(orgA, 'a3', 'published'), hit(orgB, 'b1')]);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('GET organizations/{orgId}/review-counts', () => {
  it('counts the pending profiles and hits of the organization for a reviewer', async () => {
    const res = await get('reviewerA', orgA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ReviewCounts>()).toEqual({ profilesPending: 2, hitsPending: 2 });
  });

  it('counts every organization at `all` for scope All, and refuses `all` to an organization’s user', async () => {
    expect((await get('reviewerA', 'all')).statusCode).toBe(403);
    expect((await get('admin', 'all')).json<ReviewCounts>()).toEqual({ profilesPending: 3, hitsPending: 3 });
    expect((await get('admin', orgB)).json<ReviewCounts>()).toEqual({ profilesPending: 1, hitsPending: 1 });
  });

  it('refuses another organization', async () => {
    expect((await get('reviewerA', orgB)).statusCode).toBe(403);
    expect((await get('reviewerB', orgA)).statusCode).toBe(403);
  });

  it('gives each figure only to those who may review it', async () => {
    // Profiles Read without Hits Publish: the hit figure is not theirs (the hit Review list needs Publish).
    expect((await get('profileReaderA', orgA)).json<ReviewCounts>()).toEqual({ profilesPending: 2, hitsPending: null });
    expect((await get('hitReviewerA', orgA)).json<ReviewCounts>()).toEqual({ profilesPending: null, hitsPending: 2 });
    // Neither review list: refused.
    expect((await get('hitReaderA', orgA)).statusCode).toBe(403);
  });
});
