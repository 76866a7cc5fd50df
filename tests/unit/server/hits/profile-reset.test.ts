import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile, ProfileWithMarkers } from '../../../../core/schemas/profiles';
import { analyses, auditLog, caseTypes, chemistries, hits, markers } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

// ARCHITECTURE.md "States": reset takes a profile out of the database and withdraws its pending hits;
// reset-delete also deletes every hit that names it, whatever the hit's state.
let t: TestApp;
let token: string;
let orgId: string;
let caseId: string;
let exclusionId: string;
const VALUES = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'] };

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

/** A profile added, typed and approved through the API. */
async function approvedProfile(name: string): Promise<ProfileWithMarkers> {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const markerValues = Object.entries(VALUES).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles }));
  const added = (await call('POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: name, markerValues: [] }] })).json() as { items: Profile[] };
  const typed = await call('PUT', `/api/profiles/${added.items[0]!.id}/markers`, { version: added.items[0]!.version, markerValues });
  expect(typed.statusCode, typed.body).toBe(200);
  const approved = await call('POST', `/api/profiles/${added.items[0]!.id}/approve`, { version: (typed.json() as ProfileWithMarkers).version, comments: '', markerValues });
  expect(approved.statusCode, approved.body).toBe(200);
  return approved.json() as ProfileWithMarkers;
}

async function hitBetween(a: string, b: string, status: 'pending' | 'published' | 'rejected') {
  const [hit] = await t.database.db.transaction((tx) =>
    recordHitCandidates(tx as never, { organizationId: orgId, candidates: [{ analysisId: exclusionId, populationId: null, profiles: [{ role: 'Child', profileId: a }, { role: 'Parent', profileId: b }], combinedIndex: null, markerCount: 3, nonExclusionMarkerCount: 3 }] }),
  );
  await t.database.db.update(hits).set({ status }).where(eq(hits.id, hit!.id));
  return hit!.id;
}

const existing = async (ids: string[]) => (await t.database.db.select({ id: hits.id }).from(hits).where(inArray(hits.id, ids))).map((h) => h.id).sort();

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db)).id;
  const role = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit', 'Reset'], Hits: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: role.id, organizationIds: [orgId] })).id);
  exclusionId = (await db.select().from(analyses).where(eq(analyses.name, 'Parent–child exclusion')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await call('POST', '/api/cases', { caseNumber: 'RESET-1', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] })).json().id;
}, 60_000);
afterAll(() => t.close());

describe('hits when a profile is reset', () => {
  it('withdraws the profile’s pending hits on reset and keeps its decided ones and others’', async () => {
    const [child, parent, other] = [await approvedProfile('CHILD-R1'), await approvedProfile('PARENT-R1'), await approvedProfile('OTHER-R1')];
    const pending = await hitBetween(child.id, parent.id, 'pending');
    const published = await hitBetween(parent.id, child.id, 'published');
    const unrelated = await hitBetween(other.id, parent.id, 'pending');
    const res = await call('POST', `/api/profiles/${child.id}/reset`, { version: child.version, comments: 'Re-typing' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await existing([pending, published, unrelated])).toEqual([published, unrelated].sort());
    const audit = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'Hit'), eq(auditLog.entityId, pending)));
    expect(audit.map((a) => a.action)).toEqual(['Withdrawn (profile reset)']);
  });

  it('deletes every hit naming the profile on reset-delete, whatever its state', async () => {
    const [child, parent] = [await approvedProfile('CHILD-R2'), await approvedProfile('PARENT-R2')];
    const named = [await hitBetween(child.id, parent.id, 'pending'), await hitBetween(parent.id, child.id, 'published'), await hitBetween(child.id, child.id, 'rejected')];
    const unrelated = await hitBetween(parent.id, parent.id, 'rejected');
    const res = await call('POST', `/api/profiles/${child.id}/reset-delete`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await existing([...named, unrelated])).toEqual([unrelated]);
    expect((await call('GET', `/api/profiles/${child.id}/hits`)).json()).toEqual({ items: [], count: 0 });
  });
});
