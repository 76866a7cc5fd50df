/**
 * Bulk review (issue 18): several profiles approved or rejected, several hits published or rejected, in one call.
 * Each record passes the single call's checks on its own (organization, version, state, four-eyes review) and is
 * audited on its own; one refused record blocks none of the others, and the answer says what became of each.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkReviewResult } from '../../../../core/schemas/bulk-review';
import type { Profile } from '../../../../core/schemas/profiles';
import { analyses, auditLog, caseTypes, chemistries, emailOutbox, hitHistory, hits, markers, profiles, users } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

const GENOTYPES: Record<string, string[]> = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], FGA: ['21', '24'] };
type Who = 'analyst' | 'reviewer' | 'reader' | 'other';
let t: TestApp;
const tokens = {} as Record<Who, string>;
const ids = {} as Record<Who, string>;
const caseOf = {} as Record<'A' | 'B', string>;

const call = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

async function enter(who: Who, lab: 'A' | 'B', profileId: string): Promise<Profile> {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = await call(who, 'POST', '/api/profiles', { caseId: caseOf[lab], chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] });
  expect(added.statusCode, added.body).toBe(201);
  const p = (added.json() as { items: Profile[] }).items[0]!;
  const res = await call(who, 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(GENOTYPES).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles })) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Profile;
}

/** The analyst's profiles in case A, entered one after the other. */
async function enterAll(names: string[]): Promise<Profile[]> {
  const entered: Profile[] = [];
  for (const name of names) entered.push(await enter('analyst', 'A', name));
  return entered;
}

const item = (p: { id: string; version: number }) => ({ id: p.id, version: p.version });
const outcomes = (result: BulkReviewResult) => result.results.map((r) => [r.id, r.outcome, r.status]);
const auditOf = (entity: string, entityIds: string[]) =>
  t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, entity), inArray(auditLog.entityId, entityIds)));

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const labA = await createOrganization(db, 'Bulk Lab A', { fourEyesReview: true });
  const labB = await createOrganization(db, 'Bulk Lab B');
  const staff = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Hits: ['Read', 'Publish'] } });
  const readOnly = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  const made = {
    analyst: await createUser(db, { accessGroupId: staff.id, organizationIds: [labA.id] }),
    reviewer: await createUser(db, { accessGroupId: staff.id, organizationIds: [labA.id] }),
    reader: await createUser(db, { accessGroupId: readOnly.id, organizationIds: [labA.id] }),
    other: await createUser(db, { accessGroupId: staff.id, organizationIds: [labB.id] }),
  };
  for (const [who, user] of Object.entries(made) as [Who, { id: string }][]) {
    tokens[who] = t.verifier.issue(user.id);
    ids[who] = user.id;
  }
  await db.update(users).set({ firstName: 'Rita', lastName: 'Reviewer' }).where(eq(users.id, ids.reviewer));
  // Assigned to case A and told of publications: the bulk publication with notify e-mails her, as the single one does.
  const nina = await createUser(db, { email: 'nina@bulk.test', organizationIds: [labA.id] });
  await db.update(users).set({ receiveNotifications: true }).where(eq(users.id, nina.id));
  const [caseType] = await db.select().from(caseTypes).limit(1);
  for (const [lab, who, org, assigned] of [['A', 'analyst', labA.id, [nina.id]], ['B', 'other', labB.id, []]] as const) {
    const res = await call(who, 'POST', '/api/cases', { caseNumber: `BULK-${lab}`, caseTypeId: caseType!.id, organizationId: org, assignedUserIds: assigned });
    expect(res.statusCode, res.body).toBe(201);
    caseOf[lab] = res.json().id as string;
  }
}, 60_000);
afterAll(() => t.close());

describe('POST /api/profiles/bulk-review', () => {
  it('approves each pending profile it may with its stored marker values, and says why each other one was refused', async () => {
    const [first, stale, third] = [await enter('analyst', 'A', 'BULK-P1'), await enter('analyst', 'A', 'BULK-P2'), await enter('analyst', 'A', 'BULK-P3')];
    const own = await enter('reviewer', 'A', 'BULK-OWN');
    const elsewhere = await enter('other', 'B', 'BULK-B1');
    const res = await call('reviewer', 'POST', '/api/profiles/bulk-review', {
      action: 'approve',
      comments: 'Batch checked',
      items: [item(first), { id: stale.id, version: stale.version - 1 }, item(own), item(elsewhere), item(third)],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as BulkReviewResult;
    expect({ done: result.done, refused: result.refused }).toEqual({ done: 2, refused: 3 });
    expect(outcomes(result)).toEqual([
      [first.id, 'done', 200],
      [stale.id, 'refused', 409],
      [own.id, 'refused', 403],
      [elsewhere.id, 'refused', 404],
      [third.id, 'done', 200],
    ]);
    expect(result.results[2]!.message).toBe('Four-eyes review: you entered or imported profile BULK-OWN, so another person must approve it.');
    // Another organization's profile reads as unknown: its existence is not confirmed.
    expect(result.results[3]!.message).toBe(`No profile with id ${elsewhere.id}`);

    const rows = await t.database.db.select().from(profiles).where(inArray(profiles.id, [first.id, stale.id, own.id, elsewhere.id, third.id]));
    const statusOf = new Map(rows.map((r) => [r.id, r]));
    expect([first, stale, own, elsewhere, third].map((p) => statusOf.get(p.id)!.status)).toEqual(['approved', 'pending', 'pending', 'pending', 'approved']);
    expect(statusOf.get(first.id)!.reviewedBy).toBe(ids.reviewer);
    expect(statusOf.get(first.id)!.reviewComments).toBe('Batch checked');
    // Approved with the values stored, unchanged.
    const approved = (await call('reviewer', 'GET', `/api/profiles/${first.id}`)).json() as { markerValues: { marker: string; alleles: string[] }[] };
    expect(Object.fromEntries(approved.markerValues.map((v) => [v.marker, v.alleles]))).toEqual(GENOTYPES);
    // One audit row per profile decided, none for the refused ones.
    const audit = await auditOf('Profile', [first.id, stale.id, own.id, elsewhere.id, third.id]);
    expect(audit.filter((a) => a.action === 'Approved').map((a) => a.entityId).sort()).toEqual([first.id, third.id].sort());
  });

  it('rejects several with one reason; an already decided one is refused (409) and the others are still rejected', async () => {
    const a = await enter('analyst', 'A', 'BULK-R1');
    const b = await enter('analyst', 'A', 'BULK-R2');
    const decided = await enter('analyst', 'A', 'BULK-R3');
    const first = await call('reviewer', 'POST', '/api/profiles/bulk-review', { action: 'reject', reason: 'Contaminated run', items: [item(decided)] });
    expect((first.json() as BulkReviewResult).done).toBe(1);
    const res = await call('reviewer', 'POST', '/api/profiles/bulk-review', { action: 'reject', reason: 'Contaminated run', items: [item(a), item(decided), item(b)] });
    const result = res.json() as BulkReviewResult;
    expect(outcomes(result)).toEqual([
      [a.id, 'done', 200],
      [decided.id, 'refused', 409],
      [b.id, 'done', 200],
    ]);
    expect(result.results[1]!.message).toBe('Profile BULK-R3 is rejected; only a pending profile can be rejected.');
    const rows = await t.database.db.select().from(profiles).where(inArray(profiles.id, [a.id, b.id]));
    expect(rows.map((r) => [r.status, r.reviewComments])).toEqual([
      ['rejected', 'Contaminated run'],
      ['rejected', 'Contaminated run'],
    ]);
    expect((await auditOf('Profile', [a.id, b.id, decided.id])).filter((r) => r.action === 'Rejected')).toHaveLength(3);
  });

  it('refuses a rejection without a reason, more than 200 profiles, a profile named twice (400) and a user without Profiles Edit (403)', async () => {
    const p = await enter('analyst', 'A', 'BULK-BAD');
    const noReason = await call('reviewer', 'POST', '/api/profiles/bulk-review', { action: 'reject', reason: '  ', items: [item(p)] });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toEqual([{ path: '/reason', message: 'Required' }]);
    const many = Array.from({ length: 201 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, version: 1 }));
    const tooMany = await call('reviewer', 'POST', '/api/profiles/bulk-review', { action: 'approve', items: many });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().details).toEqual([{ path: '/items', message: 'At most 200 records at once' }]);
    const twice = await call('reviewer', 'POST', '/api/profiles/bulk-review', { action: 'approve', items: [item(p), item(p)] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().details).toEqual([{ path: '/items', message: 'Each record may be named once' }]);
    expect((await call('reader', 'POST', '/api/profiles/bulk-review', { action: 'approve', items: [item(p)] })).statusCode).toBe(403);
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, p.id));
    expect(row!.status).toBe('pending');
  });
});

describe('POST /api/hits/bulk-decision', () => {
  async function hitBetween(organizationId: string, a: Profile, b: Profile) {
    const db = t.database.db;
    const [identity] = await db.select().from(analyses).where(eq(analyses.name, 'Identity'));
    const [hit] = await db.transaction((tx) =>
      recordHitCandidates(tx as never, { organizationId, candidates: [{ analysisId: identity!.id, populationId: null, combinedIndex: 1e9, markerCount: 4, nonExclusionMarkerCount: null, profiles: [{ role: 'Evidence', profileId: a.id }, { role: 'Reference', profileId: b.id }] }] }),
    );
    return hit!;
  }

  it('publishes each pending hit it may, notifying as the single publication does; stale, four-eyes and other organizations’ hits are refused', async () => {
    const [stain, suspect, stain2, suspect2, stain3] = await enterAll(['H-S1', 'H-R1', 'H-S2', 'H-R2', 'H-S3']);
    const mine = await enter('reviewer', 'A', 'H-OWN');
    const [b1, b2] = [await enter('other', 'B', 'H-B1'), await enter('other', 'B', 'H-B2')];
    const [labA] = (await t.database.db.select({ org: profiles.organizationId }).from(profiles).where(eq(profiles.id, stain!.id)));
    const [labB] = (await t.database.db.select({ org: profiles.organizationId }).from(profiles).where(eq(profiles.id, b1.id)));
    const good = await hitBetween(labA!.org, stain!, suspect!);
    const stale = await hitBetween(labA!.org, stain2!, suspect2!);
    const ownHit = await hitBetween(labA!.org, stain3!, mine);
    const foreign = await hitBetween(labB!.org, b1, b2);
    const res = await call('reviewer', 'POST', '/api/hits/bulk-decision', {
      action: 'publish',
      comments: 'Confirmed in batch',
      notify: true,
      items: [item(good), { id: stale.id, version: stale.version + 1 }, item(ownHit), item(foreign)],
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as BulkReviewResult;
    expect(outcomes(result)).toEqual([
      [good.id, 'done', 200],
      [stale.id, 'refused', 409],
      [ownHit.id, 'refused', 403],
      [foreign.id, 'refused', 404],
    ]);
    expect(result.results[0]!.message).toBe('Published');
    expect(result.results[2]!.message).toBe('Four-eyes review: this hit rests on profile H-OWN, which you entered or imported, so another person must publish it.');

    const rows = await t.database.db.select().from(hits).where(inArray(hits.id, [good.id, stale.id, ownHit.id, foreign.id]));
    expect(new Map(rows.map((r) => [r.id, r.status]))).toEqual(new Map([[good.id, 'published'], [stale.id, 'pending'], [ownHit.id, 'pending'], [foreign.id, 'pending']]));
    const history = await t.database.db.select().from(hitHistory).where(eq(hitHistory.hitId, good.id));
    expect(history.at(-1)).toMatchObject({ fromStatus: 'pending', toStatus: 'published', userName: 'Rita Reviewer', comments: 'Confirmed in batch', notified: true });
    const audit = await auditOf('Hit', [good.id, stale.id, ownHit.id, foreign.id]);
    expect(audit.map((a) => [a.entityId, a.action])).toEqual([[good.id, 'Published']]);
    const mail = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'nina@bulk.test'));
    expect(mail.map((m) => [m.templateKey, m.subject])).toEqual([['hit-published', 'Hit published in case BULK-A']]);
  });

  it('rejects several hits with a reason and refuses a rejection without one (400)', async () => {
    const [s1, r1, s2, r2] = await enterAll(['HR-S1', 'HR-R1', 'HR-S2', 'HR-R2']);
    const [labA] = await t.database.db.select({ org: profiles.organizationId }).from(profiles).where(eq(profiles.id, s1!.id));
    const one = await hitBetween(labA!.org, s1!, r1!);
    const two = await hitBetween(labA!.org, s2!, r2!);
    const noReason = await call('reviewer', 'POST', '/api/hits/bulk-decision', { action: 'reject', items: [item(one)] });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toEqual([{ path: '/reason', message: 'Required' }]);
    const res = await call('reviewer', 'POST', '/api/hits/bulk-decision', { action: 'reject', reason: 'Relatives of each other', items: [item(one), item(two)] });
    expect((res.json() as BulkReviewResult).done).toBe(2);
    const rows = await t.database.db.select().from(hits).where(inArray(hits.id, [one.id, two.id]));
    expect(rows.map((r) => [r.status, r.comments])).toEqual([
      ['rejected', 'Relatives of each other'],
      ['rejected', 'Relatives of each other'],
    ]);
    expect((await auditOf('Hit', [one.id, two.id])).map((a) => a.action)).toEqual(['Rejected', 'Rejected']);
    expect((await call('reader', 'POST', '/api/hits/bulk-decision', { action: 'reject', reason: 'x', items: [item(one)] })).statusCode).toBe(403);
  });
});
