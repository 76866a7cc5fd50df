/**
 * Retraction of a published hit (issue 18): resetting a published hit needs a reason, kept in the hit's history, and
 * e-mails a retraction to the people its publication notified (hit-retracted template), naming the hit, the case, who
 * retracted it and why. A rejected hit resets with optional comments and e-mails nobody.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRACTION_REASON_REQUIRED } from '../../../../core/hit-retraction';
import type { HitView } from '../../../../core/schemas/hits';
import type { Profile } from '../../../../core/schemas/profiles';
import { analyses, auditLog, caseAssignedUsers, caseTypes, chemistries, emailOutbox, emailTemplates, markers, users } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

const GENOTYPES: Record<string, string[]> = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], FGA: ['21', '24'] };
type Who = 'reviewer' | 'reader';
let t: TestApp;
let orgId: string;
let caseId: string;
let identityId: string;
const tokens = {} as Record<Who, string>;
const people = {} as Record<'nina' | 'moved' | 'quiet' | 'late', string>;
const profileIds: string[] = [];

const call = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
const view = async (hitId: string) => (await call('reviewer', 'GET', `/api/hits/${hitId}`)).json() as HitView;
const mailOf = (hook: string) => t.database.db.select().from(emailOutbox).where(eq(emailOutbox.templateKey, hook)).orderBy(emailOutbox.to);

async function addProfile(profileId: string) {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = await call('reviewer', 'POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] });
  expect(added.statusCode, added.body).toBe(201);
  const p = (added.json() as { items: Profile[] }).items[0]!;
  const res = await call('reviewer', 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(GENOTYPES).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles })) });
  expect(res.statusCode, res.body).toBe(200);
  return p.id;
}

/** A new identity hit between the case's stain and reference, pending. */
async function newHit(): Promise<string> {
  const db = t.database.db;
  const [identity] = await db.select().from(analyses).where(eq(analyses.name, 'Identity'));
  const [hit] = await db.transaction((tx) =>
    recordHitCandidates(tx as never, {
      organizationId: orgId,
      candidates: [{ analysisId: identity!.id, populationId: null, combinedIndex: 1e9 + profileIds.length, markerCount: 4, nonExclusionMarkerCount: null, profiles: [{ role: 'Evidence', profileId: profileIds[0]! }, { role: 'Reference', profileId: profileIds[1]! }] }],
    }),
  );
  return hit!.id;
}

const publish = async (hitId: string, notify: boolean) => {
  const res = await call('reviewer', 'POST', `/api/hits/${hitId}/publish`, { version: (await view(hitId)).hit.version, comments: 'Same source', notify });
  expect(res.statusCode, res.body).toBe(200);
};
const reset = async (hitId: string, comments: string) => call('reviewer', 'POST', `/api/hits/${hitId}/reset`, { version: (await view(hitId)).hit.version, comments });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Retraction Lab')).id;
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Hits: ['Read', 'Publish', 'Reset'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Hits: ['Read'] } });
  const reviewerUser = await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgId] });
  await db.update(users).set({ firstName: 'Rita', lastName: 'Reviewer' }).where(eq(users.id, reviewerUser.id));
  tokens.reviewer = t.verifier.issue(reviewerUser.id);
  tokens.reader = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [orgId] })).id);
  for (const [key, receive] of [['nina', true], ['moved', true], ['quiet', false], ['late', true]] as const) {
    const user = await createUser(db, { email: `${key}@retraction.test`, organizationIds: [orgId] });
    await db.update(users).set({ firstName: key[0]!.toUpperCase() + key.slice(1), lastName: 'Analyst', receiveNotifications: receive }).where(eq(users.id, user.id));
    people[key] = user.id;
  }
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const made = await call('reviewer', 'POST', '/api/cases', { caseNumber: 'CASE-RETRACT-1', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [people.nina, people.moved, people.quiet] });
  expect(made.statusCode, made.body).toBe(201);
  caseId = made.json().id as string;
  profileIds.push(await addProfile('STAIN-7'), await addProfile('REF-3'));
  identityId = await newHit();
}, 60_000);
afterAll(() => t.close());

describe('retracting a published hit', () => {
  it('refuses a reset of a published hit without a reason: 400 naming the field, nothing changed, nobody e-mailed', async () => {
    await publish(identityId, true);
    expect((await mailOf('hit-published')).map((m) => m.to)).toEqual(['moved@retraction.test', 'nina@retraction.test']);
    const before = await view(identityId);
    for (const comments of ['', '   \n']) {
      const refused = await reset(identityId, comments);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: RETRACTION_REASON_REQUIRED, details: [{ path: '/comments', message: RETRACTION_REASON_REQUIRED }] });
    }
    const after = await view(identityId);
    expect(after.hit).toMatchObject({ status: 'published', version: before.hit.version });
    expect(after.history).toHaveLength(before.history.length);
    expect(await mailOf('hit-retracted')).toEqual([]);
  });

  it('keeps the reason in the history and e-mails the retraction to whoever the publication notified, with the hit, the case, who and why', async () => {
    // Since the publication: one notified user left the case, another joined it.
    await t.database.db.delete(caseAssignedUsers).where(and(eq(caseAssignedUsers.caseId, caseId), eq(caseAssignedUsers.userId, people.moved)));
    await t.database.db.insert(caseAssignedUsers).values({ caseId, userId: people.late });
    expect((await call('reader', 'POST', `/api/hits/${identityId}/reset`, { version: (await view(identityId)).hit.version, comments: 'Wrong reference' })).statusCode).toBe(403);

    const res = await reset(identityId, 'The reference was collected from the wrong person.');
    expect(res.statusCode, res.body).toBe(200);
    const changed = res.json() as HitView;
    expect(changed.hit).toMatchObject({ status: 'pending', comments: 'The reference was collected from the wrong person.' });
    expect(changed.history.at(-1)).toMatchObject({ from: 'published', to: 'pending', userName: 'Rita Reviewer', comments: 'The reference was collected from the wrong person.', notified: true });

    const mail = await mailOf('hit-retracted');
    expect(mail.map((m) => m.to)).toEqual(['moved@retraction.test', 'nina@retraction.test']);
    const nina = mail[1]!;
    expect(nina).toMatchObject({ subject: 'Hit retracted in case CASE-RETRACT-1', sentAt: null });
    expect(nina.text).toContain('Dear Nina Analyst');
    expect(nina.text).toContain('Rita Reviewer retracted a hit in case CASE-RETRACT-1 that you were notified of');
    expect(nina.text).toContain('Profiles: Evidence: STAIN-7, Reference: REF-3');
    expect(nina.text).toContain('Analysis: Identity');
    expect(nina.text).toContain('Reason: The reference was collected from the wrong person.');
    expect(nina.text).toContain(`http://localhost:8080/${orgId}/hits/${identityId}`);
    expect(nina.html).toContain('Reason: The reference was collected from the wrong person.');

    const audit = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'Hit'), eq(auditLog.entityId, identityId), eq(auditLog.action, 'Reset')));
    expect(audit.map((a) => a.after)).toEqual([expect.objectContaining({ status: 'pending', comments: 'The reference was collected from the wrong person.', notify: true })]);
  });

  it('resets a rejected hit without comments and e-mails nobody', async () => {
    const { hit } = await view(identityId);
    expect((await call('reviewer', 'POST', `/api/hits/${identityId}/reject`, { version: hit.version, reason: 'Adventitious' })).statusCode).toBe(200);
    const back = await reset(identityId, '');
    expect(back.statusCode, back.body).toBe(200);
    expect((back.json() as HitView).history.at(-1)).toMatchObject({ from: 'rejected', to: 'pending', comments: '', notified: false });
    expect(await mailOf('hit-retracted')).toHaveLength(2);
  });

  it('e-mails nobody when the publication notified nobody, though the reason is still required and kept', async () => {
    await publish(identityId, false);
    expect((await reset(identityId, '')).statusCode).toBe(400);
    const res = await reset(identityId, 'Published without the second reading');
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as HitView).history.at(-1)).toMatchObject({ from: 'published', comments: 'Published without the second reading', notified: false });
    expect(await mailOf('hit-retracted')).toHaveLength(2);
  });

  it('uses the template as the administrator worded it', async () => {
    await t.database.db.insert(emailTemplates).values({ hook: 'hit-retracted', subject: 'RETRACTED {caseId} by {retractedBy}', body: '{profiles} withdrawn: {reason}' });
    await publish(identityId, true);
    expect((await reset(identityId, 'Contamination in the extraction batch')).statusCode).toBe(200);
    const latest = (await mailOf('hit-retracted')).filter((m) => m.subject.startsWith('RETRACTED'));
    // The users this publication notified: the case's assignment as it now stands.
    expect(latest.map((m) => [m.to, m.subject, m.text])).toEqual([
      ['late@retraction.test', 'RETRACTED CASE-RETRACT-1 by Rita Reviewer', 'Evidence: STAIN-7, Reference: REF-3 withdrawn: Contamination in the extraction batch'],
      ['nina@retraction.test', 'RETRACTED CASE-RETRACT-1 by Rita Reviewer', 'Evidence: STAIN-7, Reference: REF-3 withdrawn: Contamination in the extraction batch'],
    ]);
  });
});
