import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTHETIC_LABEL } from '../../../../core/chance-display';
import type { AnalysisResult } from '../../../../core/schemas/analyses';
import type { HitSummary, HitView } from '../../../../core/schemas/hits';
import type { Profile } from '../../../../core/schemas/profiles';
import { analyses, auditLog, caseTypes, chemistries, emailOutbox, markers, users } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { hitReportDocument } from '../../../../server/reports/hit-report';
import { formatScientific } from '../../../../core/scientific-display';
import type { HitCandidate } from '../../../../server/matching/types';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { asIdentityRuleHit, FORENSIC_RULE } from '../../../helpers/hit-figures';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';
import { expectNoExponentForm } from '../../../helpers/exponent-form';

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/frequencies/fbi2015.csv'));
const GENOTYPES: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'],
};

type Who = 'admin' | 'reviewerA' | 'readerA' | 'reviewerB';
let t: TestApp;
let orgA: string;
let orgB: string;
let caseA: string;
let caseB: string;
let populationId: string;
const analysisIds = {} as Record<string, string>;
const tokens = {} as Record<Who, string>;
const userIds = {} as Record<Who | 'nina' | 'quiet' | 'locked', string>;
/** Hits seeded per test case, by name. */
const hitIds = {} as Record<'identity' | 'exclusion' | 'ofB' | 'crossOrg', string>;
const profileIds = {} as Record<string, string>;

function call(who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
}

async function named(email: string, firstName: string, lastName: string, extra: Partial<typeof users.$inferInsert> = {}) {
  const db = t.database.db;
  const [row] = await db.update(users).set({ firstName, lastName, ...extra }).where(eq(users.email, email)).returning();
  return row!;
}

async function addProfile(who: Who, caseId: string, profileId: string, genotypes: Record<string, string[]>) {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = await call(who, 'POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] });
  expect(added.statusCode, added.body).toBe(201);
  const p = (added.json() as { items: Profile[] }).items[0]!;
  const res = await call(who, 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(genotypes).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles })) });
  expect(res.statusCode, res.body).toBe(200);
  profileIds[profileId] = p.id;
  return p.id;
}

async function record(organizationId: string, candidate: HitCandidate): Promise<string> {
  const [hit] = await t.database.db.transaction((tx) => recordHitCandidates(tx as never, { organizationId, candidates: [candidate] }));
  return hit!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'], Hits: ['Read', 'Publish', 'Reset'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  const made = {
    admin: await createUser(db, { scope: 'All', accessGroupId: admin.id }),
    reviewerA: await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgA] }),
    readerA: await createUser(db, { accessGroupId: reader.id, organizationIds: [orgA] }),
    reviewerB: await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgB] }),
  };
  for (const [who, user] of Object.entries(made) as [Who, { id: string }][]) {
    tokens[who] = t.verifier.issue(user.id);
    userIds[who] = user.id;
  }
  await named(made.reviewerA.email, 'Rita', 'Reviewer');
  // Assigned to case A: one who receives notifications, one who does not, one locked out.
  for (const [key, opts] of [
    ['nina', { receiveNotifications: true }],
    ['quiet', { receiveNotifications: false }],
    ['locked', { receiveNotifications: true, lockedAt: new Date() }],
  ] as const) {
    const user = await createUser(db, { email: `${key}@oslo.test`, organizationIds: [orgA] });
    await named(user.email, key[0]!.toUpperCase() + key.slice(1), 'Analyst', opts);
    userIds[key] = user.id;
  }
  for (const a of await db.select().from(analyses)) analysisIds[a.name] = a.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const newCase = async (who: Who, caseNumber: string, organizationId: string, assignedUserIds: string[]) => {
    const res = await call(who, 'POST', '/api/cases', { caseNumber, caseTypeId: caseType!.id, organizationId, assignedUserIds });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  caseA = await newCase('reviewerA', 'CASE-HITS-1', orgA, [userIds.nina, userIds.quiet, userIds.locked]);
  caseB = await newCase('reviewerB', 'CASE-B-1', orgB, []);
  const pop = (await call('admin', 'POST', '/api/populations', { name: 'FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [orgA, orgB] })).json();
  populationId = pop.id;
  const form = await multipartBody({ version: String(pop.version), population: 'Caucasian' }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${populationId}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.admin}` } });
  expect(saved.statusCode, saved.body).toBe(200);

  const evidence = await addProfile('admin', caseA, 'EVIDENCE-1', GENOTYPES);
  const reference = await addProfile('admin', caseA, 'REFERENCE-1', GENOTYPES);
  const child = await addProfile('admin', caseA, 'CHILD-1', { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'] });
  const parent = await addProfile('admin', caseA, 'PARENT-1', { D3S1358: ['16', '18'], vWA: ['17'], TH01: ['8', '10'] });
  const stainB = await addProfile('admin', caseB, 'STAIN-B', GENOTYPES);

  const analyzed = (await call('reviewerA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [evidence, reference], populationIds: [populationId] })).json() as AnalysisResult;
  const identity = { analysisId: analysisIds.Identity!, populationId, combinedIndex: analyzed.populations[0]!.combinedIndex, markerCount: 13, nonExclusionMarkerCount: null };
  hitIds.identity = await record(orgA, { ...identity, profiles: [{ role: 'Evidence', profileId: evidence }, { role: 'Reference', profileId: reference }] });
  hitIds.exclusion = await record(orgA, {
    analysisId: analysisIds['Parent–child exclusion']!,
    populationId: null,
    combinedIndex: null,
    markerCount: 3,
    nonExclusionMarkerCount: 2,
    profiles: [{ role: 'Child', profileId: child }, { role: 'Parent', profileId: parent }],
  });
  hitIds.ofB = await record(orgB, { ...identity, profiles: [{ role: 'Evidence', profileId: stainB }, { role: 'Reference', profileId: stainB }] });
  // Organization B's search found organization A's reference: the hit is B's, so A does not see it.
  hitIds.crossOrg = await record(orgB, { ...identity, profiles: [{ role: 'Evidence', profileId: stainB }, { role: 'Reference', profileId: reference }] });
}, 60_000);
afterAll(() => t.close());

const ids = (res: { json(): unknown }) => (res.json() as { items: HitSummary[] }).items.map((h) => h.id);

describe('hit lists', () => {
  it('shows the Review list with Date, Analysis, Probability (spec 4), Population and Profiles', async () => {
    const res = await call('reviewerA', 'GET', `/api/organizations/${orgA}/pending-hits?sort=analysisName:asc`);
    expect(res.statusCode, res.body).toBe(200);
    const { items, count } = res.json() as { items: HitSummary[]; count: number };
    expect(count).toBe(2);
    const [identity, exclusion] = [items.find((h) => h.id === hitIds.identity)!, items.find((h) => h.id === hitIds.exclusion)!];
    expect(identity).toMatchObject({ analysisName: 'Identity', populationName: 'FBI 2015 Caucasian', status: 'pending' });
    expect(identity.probability).toMatch(/^99\.99% \(CI \d\.\d\de\+\d+\)$/);
    expect(identity.profiles.map((p) => [p.role, p.sampleName, p.caseNumber])).toEqual([['Evidence', 'EVIDENCE-1', 'CASE-HITS-1'], ['Reference', 'REFERENCE-1', 'CASE-HITS-1']]);
    expect(exclusion).toMatchObject({ analysisName: 'Parent–child exclusion', populationName: null, probability: '2/3' });
    expect(new Date(identity.date).getTime()).toBeGreaterThan(0);
  });

  it('needs Hits Publish for Review, Published and Rejected; Hits Read for All', async () => {
    for (const collection of ['pending-hits', 'published-hits', 'rejected-hits']) {
      expect((await call('readerA', 'GET', `/api/organizations/${orgA}/${collection}`)).statusCode).toBe(403);
      expect((await call('readerA', 'GET', `/api/cases/${caseA}/${collection}`)).statusCode).toBe(403);
    }
    const all = await call('readerA', 'GET', `/api/organizations/${orgA}/hits`);
    expect(all.statusCode).toBe(200);
    expect(ids(all).sort()).toEqual([hitIds.identity, hitIds.exclusion].sort());
  });

  it('filters by the profiles’ names, by analysis, and sorts by probability', async () => {
    expect(ids(await call('reviewerA', 'GET', `/api/organizations/${orgA}/hits?search=child-1`))).toEqual([hitIds.exclusion]);
    const filter = encodeURIComponent(JSON.stringify({ analysisName: 'identity' }));
    expect(ids(await call('reviewerA', 'GET', `/api/organizations/${orgA}/hits?filter=${filter}`))).toEqual([hitIds.identity]);
    expect(ids(await call('reviewerA', 'GET', `/api/organizations/${orgA}/hits?sort=probability:desc`))).toEqual([hitIds.identity, hitIds.exclusion]);
    expect((await call('reviewerA', 'GET', `/api/organizations/${orgA}/hits?sort=nonsense:asc`)).statusCode).toBe(400);
  });

  it('lists a case’s and a profile’s hits, only those of an organization the user reaches', async () => {
    expect(ids(await call('reviewerA', 'GET', `/api/cases/${caseA}/hits`)).sort()).toEqual([hitIds.identity, hitIds.exclusion].sort());
    expect(ids(await call('reviewerA', 'GET', `/api/profiles/${profileIds['REFERENCE-1']}/hits`))).toEqual([hitIds.identity]);
    expect(ids(await call('reviewerA', 'GET', `/api/profiles/${profileIds['CHILD-1']}/pending-hits`))).toEqual([hitIds.exclusion]);
    // Organization B's hit names B's stain: B sees it on its case and profile.
    expect(ids(await call('reviewerB', 'GET', `/api/cases/${caseB}/hits`)).sort()).toEqual([hitIds.ofB, hitIds.crossOrg].sort());
  });

  it('draws from every organization for `all` with scope All', async () => {
    const all = ids(await call('admin', 'GET', `/api/organizations/all/hits`));
    expect(all.sort()).toEqual(Object.values(hitIds).sort());
    expect(ids(await call('admin', 'GET', `/api/organizations/${orgB}/pending-hits`)).sort()).toEqual([hitIds.ofB, hitIds.crossOrg].sort());
  });
});

describe('tenancy: an organization-scoped user never sees another organization’s hits', () => {
  it('keeps organization A’s hits out of every list of organization B’s user', async () => {
    const seen = [
      ...ids(await call('reviewerB', 'GET', `/api/organizations/${orgB}/hits`)),
      ...ids(await call('reviewerB', 'GET', `/api/organizations/${orgB}/pending-hits`)),
      ...ids(await call('reviewerB', 'GET', `/api/profiles/${profileIds['STAIN-B']}/hits`)),
    ];
    expect(seen).not.toContain(hitIds.identity);
    expect(seen).not.toContain(hitIds.exclusion);
    expect((await call('reviewerB', 'GET', `/api/organizations/${orgA}/hits`)).statusCode).toBe(403);
    expect((await call('reviewerB', 'GET', `/api/organizations/all/hits`)).statusCode).toBe(403);
    expect((await call('reviewerB', 'GET', `/api/cases/${caseA}/hits`)).statusCode).toBe(404);
    expect((await call('reviewerB', 'GET', `/api/profiles/${profileIds['EVIDENCE-1']}/hits`)).statusCode).toBe(404);
  });

  it('answers 404 for another organization’s hit by id, download or decision', async () => {
    expect((await call('reviewerB', 'GET', `/api/hits/${hitIds.identity}`)).statusCode).toBe(404);
    expect((await call('reviewerB', 'GET', `/api/hits/${hitIds.identity}/download`)).statusCode).toBe(404);
    expect((await call('reviewerB', 'POST', `/api/hits/${hitIds.identity}/publish`, { version: 1, comments: '', notify: false })).statusCode).toBe(404);
    expect((await call('reviewerB', 'POST', `/api/hits/${hitIds.identity}/reject`, { version: 1, reason: 'not ours' })).statusCode).toBe(404);
    // A hit is its organization's, even when it names a profile of the user's own case.
    expect((await call('reviewerA', 'GET', `/api/hits/${hitIds.crossOrg}`)).statusCode).toBe(404);
    expect(ids(await call('reviewerA', 'GET', `/api/profiles/${profileIds['REFERENCE-1']}/hits`))).not.toContain(hitIds.crossOrg);
  });
});

describe('HitView', () => {
  it('shows the profiles side by side per marker with the calculator’s patterns, formulae and values', async () => {
    const res = await call('reviewerA', 'GET', `/api/hits/${hitIds.identity}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as HitView;
    const calculator = (await call('reviewerA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [profileIds['EVIDENCE-1'], profileIds['REFERENCE-1']], populationIds: [populationId] })).json() as AnalysisResult;
    const population = calculator.populations[0]!;
    expect(view.markers).toEqual(population.markers);
    expect(view.evaluation).toMatchObject({ combinedIndex: population.combinedIndex, log10: population.log10, probability: population.probability });
    expect(view.hit.combinedIndex).toBe(population.combinedIndex);
    expect(view.analysis).toMatchObject({ name: 'Identity', kind: 'Computational', analysisGroupId: expect.any(String) });
    expect(view.population).toMatchObject({ name: 'FBI 2015 Caucasian' });
    expect(view.markers.find((m) => m.marker === 'TPOX')).toMatchObject({ genotypes: [['8'], ['8']], pattern: 'PP-PP', latex: expect.stringContaining('\\theta') });
    expect(view.constants).toEqual([{ name: 'theta', notation: '\\theta', value: 0.01 }]);
    expect(view.history).toEqual([expect.objectContaining({ from: null, to: 'pending', userName: 'Database search' })]);
  });

  it('shows an exclusion hit with its per-marker decisions and counts', async () => {
    const view = (await call('reviewerA', 'GET', `/api/hits/${hitIds.exclusion}`)).json() as HitView;
    expect(view.population).toBeNull();
    expect(view.evaluation).toMatchObject({ markerCount: 3, nonExclusionMarkerCount: 2, probability: '2/3' });
    expect(view.markers.map((m) => m.isExclusion)).toEqual([false, false, true]);
  });
});

describe('the hit workflow', () => {
  it('publishes with notify: one e-mail in the outbox per assigned user who receives notifications, history with names', async () => {
    const before = (await call('reviewerA', 'GET', `/api/hits/${hitIds.identity}`)).json() as HitView;
    const res = await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/publish`, { version: before.hit.version, comments: 'Confirmed by second reading', notify: true });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as HitView;
    expect(view.hit).toMatchObject({ status: 'published', comments: 'Confirmed by second reading', version: before.hit.version + 1 });
    expect(view.history.at(-1)).toMatchObject({ from: 'pending', to: 'published', userName: 'Rita Reviewer', userId: userIds.reviewerA, comments: 'Confirmed by second reading', notified: true });

    const mail = await t.database.db.select().from(emailOutbox);
    expect(mail.map((m) => m.to)).toEqual(['nina@oslo.test']);
    expect(mail[0]).toMatchObject({ subject: 'Hit published in case CASE-HITS-1', templateKey: 'hit-published', sentAt: null });
    expect(mail[0]!.text).toContain('Dear Nina Analyst');
    expect(mail[0]!.text).toContain('Rita Reviewer published a hit in case CASE-HITS-1');
    expect(mail[0]!.text).toContain(`http://localhost:8080/${orgA}/hits/${hitIds.identity}`);
    expect(mail[0]!.text).toContain(view.hit.probability);

    const outbox = await call('admin', 'GET', '/api/email-outbox');
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json().items[0]).toMatchObject({ to: 'nina@oslo.test', subject: 'Hit published in case CASE-HITS-1', sentAt: null });
    expect((await call('reviewerA', 'GET', '/api/email-outbox')).statusCode).toBe(403);

    const audit = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'Hit'), eq(auditLog.entityId, hitIds.identity)));
    expect(audit.map((a) => [a.action, a.userName, a.caseId])).toEqual([['Published', 'Rita Reviewer', caseA]]);
    expect(ids(await call('reviewerA', 'GET', `/api/organizations/${orgA}/published-hits`))).toEqual([hitIds.identity]);
  });

  it('refuses to publish or reject a published hit (409), and a stale version (409)', async () => {
    const { hit } = (await call('reviewerA', 'GET', `/api/hits/${hitIds.identity}`)).json() as HitView;
    const again = await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/publish`, { version: hit.version, comments: '', notify: false });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This hit is published; only a pending hit can be published.');
    expect((await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reject`, { version: hit.version, reason: 'late' })).statusCode).toBe(409);
    const stale = await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reset`, { version: hit.version - 1, comments: 'Wrong reference' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatch(/changed by someone else/);
  });

  it('resets a published hit to pending (Hits Reset), then rejects it with a required reason, then resets it again', async () => {
    let { hit } = (await call('reviewerA', 'GET', `/api/hits/${hitIds.identity}`)).json() as HitView;
    expect((await call('readerA', 'POST', `/api/hits/${hitIds.identity}/reset`, { version: hit.version, comments: '' })).statusCode).toBe(403);
    const reset = await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reset`, { version: hit.version, comments: 'Wrong reference' });
    expect(reset.statusCode, reset.body).toBe(200);
    hit = (reset.json() as HitView).hit;
    expect(hit.status).toBe('pending');
    expect((await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reset`, { version: hit.version, comments: '' })).statusCode).toBe(409);

    const noReason = await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reject`, { version: hit.version, reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details[0].message).toBe('Required');
    const rejected = await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reject`, { version: hit.version, reason: 'Adventitious match' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const view = rejected.json() as HitView;
    expect(view.hit).toMatchObject({ status: 'rejected', comments: 'Adventitious match' });
    expect(ids(await call('reviewerA', 'GET', `/api/organizations/${orgA}/rejected-hits`))).toEqual([hitIds.identity]);
    expect((await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/publish`, { version: view.hit.version, comments: '', notify: false })).statusCode).toBe(409);

    const back = (await call('reviewerA', 'POST', `/api/hits/${hitIds.identity}/reset`, { version: view.hit.version, comments: 'Second look' })).json() as HitView;
    expect(back.history.map((h) => [h.from, h.to, h.userName, h.comments])).toEqual([
      [null, 'pending', 'Database search', ''],
      ['pending', 'published', 'Rita Reviewer', 'Confirmed by second reading'],
      ['published', 'pending', 'Rita Reviewer', 'Wrong reference'],
      ['pending', 'rejected', 'Rita Reviewer', 'Adventitious match'],
      ['rejected', 'pending', 'Rita Reviewer', 'Second look'],
    ]);
    // The publish with notify e-mailed Nina; the reset of that publication sent her the retraction (hit-retraction.test.ts).
    expect((await t.database.db.select().from(emailOutbox)).map((m) => [m.to, m.templateKey]).sort()).toEqual([
      ['nina@oslo.test', 'hit-published'],
      ['nina@oslo.test', 'hit-retracted'],
    ]);
  });

  it('lets only the first of two reviewers decide a hit they opened at the same version', async () => {
    const { hit } = (await call('reviewerA', 'GET', `/api/hits/${hitIds.exclusion}`)).json() as HitView;
    const [first, second] = await Promise.all([
      call('reviewerA', 'POST', `/api/hits/${hitIds.exclusion}/reject`, { version: hit.version, reason: 'Excluded at one marker' }),
      call('admin', 'POST', `/api/hits/${hitIds.exclusion}/reject`, { version: hit.version, reason: 'Rejected by a second reviewer' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const view = (await call('reviewerA', 'GET', `/api/hits/${hitIds.exclusion}`)).json() as HitView;
    expect(view.history).toHaveLength(2);
  });
});

describe('hit download', () => {
  it('downloads the hit as a PDF report named after the analysis and profiles', async () => {
    const res = await call('reviewerA', 'GET', `/api/hits/${hitIds.identity}/download`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('Hit_Identity_EVIDENCE-1_REFERENCE-1.pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.length).toBeGreaterThan(2000);
  });

  it('files the case, profiles, population and source, formulae, constants, result, decisions and citations', async () => {
    const view = (await call('reviewerA', 'GET', `/api/hits/${hitIds.identity}`)).json() as HitView;
    const document = hitReportDocument(view, { organizationName: 'Oslo Lab', preparedBy: 'Rita Reviewer', preparedAt: new Date('2026-03-01T10:00:00Z'), citations: ['NRC II (1996)'] });
    // The laboratory is named in every page's header.
    const header = (document.header as (page: number, pages: number, size: { width: number }) => unknown)(1, 2, { width: 595 });
    const text = JSON.stringify(document) + JSON.stringify(header);
    for (const expected of ['Oslo Lab', 'CASE-HITS-1', 'EVIDENCE-1', 'REFERENCE-1', 'FBI 2015 Caucasian', 'Formulae used', 'PP-PP', 'θ', formatScientific(view.hit.combinedIndex!), 'Adventitious match', 'Rita Reviewer', 'NRC II (1996)', '2026-03-01 10:00 UTC']) {
      expect(text).toContain(expected);
    }
    // Never JavaScript's exponent form (1.18e+1): a court reads it as a typo.
    expectNoExponentForm(text);
  });

  it('files a rule hit’s rule, every population side by side, the stringency, the chance hits expected and the p-value, each synthetic figure labelled', async () => {
    await asIdentityRuleHit(t.database.db, hitIds.ofB, populationId);
    const view = (await call('admin', 'GET', `/api/hits/${hitIds.ofB}`)).json() as HitView;
    const document = hitReportDocument(view, { organizationName: 'Bergen Lab', preparedBy: 'Admin', preparedAt: new Date('2026-03-01T10:00:00Z'), citations: [] });
    const text = JSON.stringify(document);
    for (const expected of [
      FORENSIC_RULE,
      'Identity (the same source)',
      'Search statistics per population',
      'FBI 2015 Caucasian',
      ' (reported)',
      'Synthetic demo population (not for casework)',
      'p ≤ 1.2 × 10⁻²⁰', // the reported population's p-value…
      'between 1.2 × 10⁻²⁰ and 1.2 × 10⁻²⁰', // …and its bracket
      'p ≤ 4.5 × 10⁻²²',
      // 1,000,000 profiles × P(an unrelated profile meets the stringency) 3e-10 = 0.0003
      'in 1,000,000 profiles, 3.0 × 10⁻⁴ chance hits expected at this threshold',
      'in 1,000,000 profiles, 2.0 × 10⁻⁴ chance hits expected at this threshold',
      'Moderate',
      '13 (at least 8 required)',
      '0 (at most 0 allowed)',
      '3.0 × 10⁻¹⁰',
    ]) {
      expect(text).toContain(expected);
    }
    // The synthetic population's conclusion and row, the stringency's chance and expected chance hits, and the result's expected
    // chance hits (the stringency's, the synthetic population among those it came from); FBI's LR and p-value are not synthetic.
    expect(text.split(SYNTHETIC_LABEL)).toHaveLength(6);
    expect(text).toContain('{"text":"p-value: ","bold":true},"p ≤ 1.2 × 10⁻²⁰"]');
  });
});

describe('what hits name', () => {
  it('keeps an analysis or population that hits were computed with (409)', async () => {
    const analysis = await call('admin', 'DELETE', `/api/analyses/${analysisIds.Identity}`);
    expect(analysis.statusCode).toBe(409);
    expect(analysis.json().error).toBe('Analysis Identity cannot be deleted: 3 hits still use it. Deactivate it instead.');
    const population = await call('admin', 'DELETE', `/api/populations/${populationId}`);
    expect(population.statusCode).toBe(409);
    expect(population.json().error).toContain('3 hits still use it');
  });

  it('deletes the hits naming a profile when the profile is deleted', async () => {
    const res = await call('admin', 'DELETE', `/api/profiles/${profileIds['STAIN-B']}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(ids(await call('admin', 'GET', `/api/organizations/all/hits`)).sort()).toEqual([hitIds.identity, hitIds.exclusion].sort());
  });
});
