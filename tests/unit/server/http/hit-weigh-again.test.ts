/**
 * A hit no population weighed (issue 30): an identity hit found where the organization has only the synthetic
 * population (which automatic rules never use) says "N of N markers match; not weighed: …" in the lists and
 * the PDF, instead of "0/16" and a chance of 0; after frequencies are uploaded a reviewer weighs it again
 * (Hits Publish, audited, the old figures kept in its history).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import type { HitSummary, HitView } from '../../../../core/schemas/hits';
import type { SampleType } from '../../../../core/schemas/profiles';
import { auditLog, caseTypes, cases, chemistries, markers, profiles } from '../../../../server/db/schema';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { hitReportDocument } from '../../../../server/reports/hit-report';
import { createAccessGroup, createUser, osloAndBergen } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';
import { searchesDone } from '../../../helpers/searches-done';

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/frequencies/fbi2015.csv'));
const NOT_WEIGHED = /^(\d+) of \1 markers match; not weighed: no population of this organization is used by the rule$/;

let t: TestApp;
const org = { a: '', b: '' };
const tokens = {} as Record<'admin' | 'a' | 'b' | 'reader', string>;
let hitId = '';

function call<T = unknown>(who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) }).then((res) => ({ status: res.statusCode, body: res.json() as T, raw: res.body }));
}
const view = async () => (await call<HitView>('a', 'GET', `/api/hits/${hitId}`)).body;
const weigh = (who: keyof typeof tokens, version: number) => call<HitView>(who, 'POST', `/api/hits/${hitId}/weigh-again`, { version });
const pdfText = (v: HitView) => JSON.stringify(hitReportDocument(v, { organizationName: 'Oslo Lab', preparedBy: 'Rita', preparedAt: new Date('2026-03-01T10:00:00Z'), citations: [] }).content);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  // A new laboratory: only the synthetic demo population, which no automatic rule uses.
  Object.assign(org, await osloAndBergen(db));
  const admin = await createAccessGroup(db, { isAdmin: true });
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read', 'Publish', 'Reset'], Populations: ['Read'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.a = t.verifier.issue((await createUser(db, { accessGroupId: reviewer.id, organizationIds: [org.a] })).id);
  tokens.b = t.verifier.issue((await createUser(db, { accessGroupId: reviewer.id, organizationIds: [org.b] })).id);
  tokens.reader = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [org.a] })).id);
  const chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const caseId = (await db.insert(cases).values({ caseNumber: 'NEW-1', caseTypeId: caseType!.id, organizationId: org.a }).returning())[0]!.id;
  const person = profileGenerator(fbi2015Population('Caucasian'), 7)();
  for (const [name, sampleType] of [['STAIN-1', 'Forensic, Unknown'], ['OFFENDER-1', 'Convicted Offender']] as [string, SampleType][]) {
    const [row] = await db.insert(profiles).values({ profileId: name, caseId, organizationId: org.a, kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
    const markerValues = [...person].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
    await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
    const approved = await call('admin', 'POST', `/api/profiles/${row!.id}/approve`, { markerValues, comments: '', version: row!.version });
    expect(approved.status, approved.raw).toBe(200);
  }
  await searchesDone(t.app, tokens.admin);
  const listed = await call<{ items: HitSummary[] }>('a', 'GET', `/api/organizations/${org.a}/pending-hits`);
  expect(listed.body.items).toHaveLength(1);
  hitId = listed.body.items[0]!.id;
}, 120_000);
afterAll(() => t.close());

describe('a hit no population weighed', () => {
  it('says how many markers match and that nothing weighed them, in the list and the PDF, never "0/16" or a chance of 0', async () => {
    const listed = await call<{ items: HitSummary[] }>('a', 'GET', `/api/organizations/${org.a}/pending-hits`);
    const hit = listed.body.items[0]!;
    expect(hit.matchKind).toBe('identity');
    expect(hit.probability).toMatch(NOT_WEIGHED);
    expect(hit.populationName).toBeNull();
    const pdf = pdfText(await view());
    expect(pdf).toContain(`${hit.probability}.`);
    expect(pdf).toContain('Not weighed: no population of this organization is used by the rule');
    expect(pdf).not.toMatch(/\d+\/\d+/);
  });

  it('is refused to a reader (403), to another organization (404) and with a stale version (409)', async () => {
    const { version } = (await view()).hit;
    expect((await weigh('reader', version)).status).toBe(403);
    expect((await weigh('b', version)).status).toBe(404);
    expect((await weigh('a', version + 1)).status).toBe(409);
  });

  it('is weighed again once frequencies are uploaded: the LR and chance figures appear, the old figures stay in the history and the audit trail', async () => {
    const created = (await call<{ id: string; version: number }>('admin', 'POST', '/api/populations', { name: 'FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [org.a] })).body;
    const form = await multipartBody({ version: String(created.version), population: 'Caucasian' }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
    const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${created.id}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.admin}` } });
    expect(saved.statusCode, saved.body).toBe(200);

    const before = await view();
    // Uploading alone changes nothing: the hit keeps what it was found with until weighed again.
    expect(before.hit.probability).toMatch(NOT_WEIGHED);
    // The pair is weighed on a search worker (its chance distributions), not on the request thread.
    const { pool } = t.app.searchRuntime;
    const tasks: string[] = [];
    const run = pool.run.bind(pool);
    pool.run = ((indexes, kind, task, options) => (tasks.push(task.task), run(indexes, kind, task, options))) as typeof pool.run;
    const res = await weigh('a', before.hit.version);
    pool.run = run;
    expect(res.status, res.raw).toBe(200);
    expect(tasks).toEqual(['stringency-weigh']);
    const after = res.body;
    expect(after.hit.populationName).toBe('FBI 2015 Caucasian');
    expect(after.hit.combinedIndex).toBeGreaterThan(1e15);
    expect(after.hit.probability).toMatch(/^99\.99% \(CI \d\.\d\de\+\d+\)$/);
    expect(after.hit.figures!.stringency!.probability).toBeGreaterThan(0);
    expect(after.hit.status).toBe('pending');
    const last = after.history.at(-1)!;
    expect([last.from, last.to]).toEqual(['pending', 'pending']);
    expect(last.comments).toContain(`Before: ${before.hit.probability}.`);
    expect(last.comments).toContain('FBI 2015 Caucasian');
    expect(pdfText(after)).toContain('Weighed again with the current populations');
    const [audit] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, hitId), eq(auditLog.action, 'WeighedAgain')));
    expect(audit).toMatchObject({ entity: 'Hit', organizationId: org.a });
    expect(audit!.before).toMatchObject({ combinedIndex: null, probability: before.hit.probability });
    expect(audit!.after).toMatchObject({ populationId: created.id, probability: after.hit.probability });
  });

  it('leaves a published hit’s figures as they were published (409)', async () => {
    const { version } = (await view()).hit;
    const published = await call<HitView>('a', 'POST', `/api/hits/${hitId}/publish`, { version, comments: '', notify: false });
    expect(published.status, published.raw).toBe(200);
    expect((await weigh('a', published.body.hit.version)).status).toBe(409);
  });
});
