/**
 * The audit trail's exports (issue 18): a case's, a profile's and a period's trail as CSV and PDF, in a
 * reader's words, with the hash chain verified over the exported rows; who may take them; and a row
 * changed behind the trail's back reported where it breaks.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../core/schemas/audit';
import type { Case, PhysicalItem } from '../../../../core/schemas/cases';
import type { Profile } from '../../../../core/schemas/profiles';
import { auditLog, caseTypes, chemistries, users } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { pdfToText } from '../../../helpers/pdf-text';

type Who = 'adminAll' | 'adminOrgA' | 'analystA' | 'noAuditA' | 'auditorA' | 'analystB';
let t: TestApp;
let orgA: string;
let theCase: Case;
let item: PhysicalItem;
let profile: Profile;
let caseTypeId: string;
const tokens = {} as Record<Who, string>;

const call = (who: Who, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  const orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const casework = { Cases: ['Read', 'Add', 'Edit', 'ChangeSettings', 'ViewAudit'], Profiles: ['Read', 'Add', 'Edit', 'ViewAudit'] } as const;
  const analyst = await createAccessGroup(db, { grants: { Cases: [...casework.Cases], Profiles: [...casework.Profiles] } });
  const noAudit = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read'] } });
  const auditor = await createAccessGroup(db, { grants: { Organizations: ['ViewAudit'] } });
  const made = {
    adminAll: await createUser(db, { scope: 'All', accessGroupId: admin.id }),
    adminOrgA: await createUser(db, { accessGroupId: admin.id, organizationIds: [orgA] }),
    analystA: await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA] }),
    noAuditA: await createUser(db, { accessGroupId: noAudit.id, organizationIds: [orgA] }),
    auditorA: await createUser(db, { accessGroupId: auditor.id, organizationIds: [orgA] }),
    analystB: await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB] }),
  };
  for (const [who, user] of Object.entries(made) as [Who, { id: string }][]) tokens[who] = t.verifier.issue(user.id);
  await db.update(users).set({ firstName: 'Ann', lastName: 'Analyst' }).where(eq(users.id, made.analystA.id));

  caseTypeId = (await db.select().from(caseTypes).where(eq(caseTypes.name, 'Homicide')))[0]?.id ?? (await db.select().from(caseTypes).limit(1))[0]!.id;
  const added = await call('analystA', 'POST', '/api/cases', { caseNumber: 'AUD-2026-1', caseTypeId, organizationId: orgA, assignedUserIds: [made.analystA.id] });
  expect(added.statusCode, added.body).toBe(201);
  theCase = added.json() as Case;
  const itemRes = await call('analystA', 'POST', `/api/cases/${theCase.id}/physical-items`, { itemId: 'ITEM-7', description: 'Knife', collectedAt: null, collectionPlace: '', collectedBy: '' });
  expect(itemRes.statusCode, itemRes.body).toBe(201);
  item = itemRes.json() as PhysicalItem;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const profileRes = await call('analystA', 'POST', '/api/profiles', {
    caseId: theCase.id,
    chemistryId: chem!.id,
    sampleType: 'Forensic, Unknown',
    sampleSourceId: null,
    physicalItemId: item.id,
    laboratoryId: null,
    comments: '',
    profiles: [{ profileId: 'S-001', markerValues: [] }],
  });
  expect(profileRes.statusCode, profileRes.body).toBe(201);
  profile = (profileRes.json() as { items: Profile[] }).items[0]!;
  const settings = await call('analystA', 'PUT', `/api/cases/${theCase.id}/settings`, { status: 'Closed', notes: 'Sent to court', version: theCase.version });
  expect(settings.statusCode, settings.body).toBe(200);
}, 60_000);
afterAll(() => t.close());

describe('a case trail in the API', () => {
  it("names each row's record and the records its ids stand for", async () => {
    const res = await call('analystA', 'GET', `/api/cases/${theCase.id}/audit?sort=at:asc`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = (res.json() as { items: AuditEntry[] }).items;
    expect(rows.map((r) => [r.entity, r.recordName])).toEqual([
      ['Case', 'AUD-2026-1'],
      ['PhysicalItem', 'ITEM-7'],
      ['Profile', 'S-001'],
      ['Case', 'AUD-2026-1'],
    ]);
    expect(rows[0]!.names[caseTypeId]).toBeDefined();
    expect(rows[2]!.names[item.id]).toBe('ITEM-7');
  });
});

describe('exporting a trail', () => {
  it("exports a case's trail as CSV in a reader's words, with the chain verified", async () => {
    const res = await call('analystA', 'GET', `/api/cases/${theCase.id}/audit/export?format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('Audit_trail_case_AUD-2026-1.csv');
    const csv = res.body;
    expect(csv).toContain('Audit trail of case AUD-2026-1');
    expect(csv).toContain('Times are in UTC');
    expect(csv).toContain('Verified: 4 rows, chain intact');
    expect(csv).toContain('Row,When (UTC),Who,Record type,Record,Action,Field,Before,After,Hash');
    // Record types, field labels and values as the screens say them; no type or field names, no GUIDs.
    expect(csv).toMatch(/,Ann Analyst,Physical item,ITEM-7,Added,Item id,—,ITEM-7,/);
    expect(csv).toMatch(/,Ann Analyst,Case,AUD-2026-1,Added,Assigned users,—,Ann Analyst,/);
    expect(csv).toMatch(/,Ann Analyst,Profile,S-001,Added,Item,—,ITEM-7,/);
    expect(csv).toMatch(/,Case,AUD-2026-1,Settings changed,Status,Open,Closed,/);
    expect(csv).not.toMatch(/PhysicalItem|caseTypeId|physicalItemId|reviewedAt/);
    expect(csv).not.toContain(item.id);
    expect(csv).not.toContain(caseTypeId);
  });

  it('prints times in the time zone the reader asks for, and refuses one that does not exist', async () => {
    const oslo = await call('analystA', 'GET', `/api/cases/${theCase.id}/audit/export?format=csv&timeZone=Europe/Oslo`);
    expect(oslo.statusCode).toBe(200);
    expect(oslo.body).toContain('Times are in Europe/Oslo');
    const bad = await call('analystA', 'GET', `/api/cases/${theCase.id}/audit/export?format=csv&timeZone=Mars/Olympus`);
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json().details)).toContain('IANA time zone');
  });

  it("exports a profile's trail as a PDF whose pages say the verdict, the rows and Page n of m", async () => {
    const res = await call('analystA', 'GET', `/api/profiles/${profile.id}/audit/export?format=pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(res.rawPayload);
    expect(text).toContain('Audit trail of profile S-001');
    expect(text).toContain('Verified: 1 row, chain intact');
    expect(text).toContain('Ann Analyst');
    expect(text).toMatch(/Item: . -> ITEM-7|Item: — → ITEM-7/);
    expect(text).toContain('Page 1 of 1');
  });

  it('records every export in the trail: who took which trail, how many rows, and the verdict', async () => {
    await call('analystA', 'GET', `/api/cases/${theCase.id}/audit/export?format=csv`);
    const [row] = await t.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(1);
    expect(row).toMatchObject({ entity: 'AuditExport', entityId: theCase.id, caseId: theCase.id, action: 'Exported (CSV)', userName: 'Ann Analyst' });
    expect(row!.after).toMatchObject({ trail: 'Case AUD-2026-1', rows: expect.any(Number), verification: expect.stringMatching(/^Verified: \d+ rows, chain intact$/) });
  });

  it("refuses whoever may not view the case's or profile's audit, and another organization's user", async () => {
    expect((await call('noAuditA', 'GET', `/api/cases/${theCase.id}/audit/export`)).statusCode).toBe(403);
    expect((await call('noAuditA', 'GET', `/api/profiles/${profile.id}/audit/export`)).statusCode).toBe(403);
    expect((await call('analystB', 'GET', `/api/cases/${theCase.id}/audit/export`)).statusCode).toBe(404);
    expect((await call('analystB', 'GET', `/api/profiles/${profile.id}/audit/export?format=pdf`)).statusCode).toBe(404);
  });
});

describe("a period's trail", () => {
  const today = new Date().toISOString().slice(0, 10);
  const period = (orgId: string, query: string) => `/api/organizations/${orgId}/audit/export?from=${today}&to=${today}&${query}`;

  it('exports the organization’s rows of the period, of one record type when asked', async () => {
    const res = await call('auditorA', 'GET', period(orgA, 'format=csv&entity=PhysicalItem'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(`Audit trail of Physical item records of Oslo Lab, ${today} to ${today} (UTC)`);
    expect(res.body).toContain('Verified: 1 row, chain intact');
    expect(res.body).toContain('ITEM-7');
    expect(res.body).not.toContain('S-001');
    const list = await call('adminOrgA', 'GET', `/api/organizations/${orgA}/audit?from=${today}&to=${today}&entity=Profile`);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { items: AuditEntry[] }).items.map((r) => r.recordName)).toEqual(['S-001']);
  });

  it('leaves out rows outside the period', async () => {
    const res = await call('adminAll', 'GET', `/api/organizations/${orgA}/audit/export?from=2020-01-01&to=2020-12-31`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Verified: 0 rows, chain intact');
  });

  it('says which field is wrong when the period ends before it starts', async () => {
    const res = await call('adminAll', 'GET', `/api/organizations/${orgA}/audit/export?from=2026-02-01&to=2026-01-01`);
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ message: 'The period ends before it starts' })]);
  });

  it('is for administrators and roles with Organizations ViewAudit, in their organizations; every organization only with scope All', async () => {
    expect((await call('analystA', 'GET', period(orgA, 'format=csv'))).statusCode).toBe(403);
    expect((await call('analystB', 'GET', period(orgA, 'format=csv'))).statusCode).toBe(403);
    expect((await call('adminOrgA', 'GET', period('all', 'format=csv'))).statusCode).toBe(403);
    expect((await call('adminOrgA', 'GET', period(orgA, 'format=pdf'))).statusCode).toBe(200);
    const all = await call('adminAll', 'GET', period('all', 'format=csv'));
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain('Audit trail of every organization');
  });
});

describe('a trail changed behind its back', () => {
  const tamper = async (statement: ReturnType<typeof sql>) => {
    const db = t.database.db;
    await db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await db.execute(statement);
    await db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
  };

  it("reports the row whose stored after-value was changed, in the CSV and the PDF", async () => {
    const [added] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'PhysicalItem'), eq(auditLog.entityId, item.id)));
    await tamper(sql`update audit_log set after = jsonb_set(after, '{description}', '"Spoon"') where seq = ${added!.seq}`);
    const csv = await call('analystA', 'GET', `/api/cases/${theCase.id}/audit/export?format=csv`);
    expect(csv.body).toContain(`NOT VERIFIED: the chain breaks at row ${added!.seq}: its content no longer matches its hash`);
    const pdf = pdfToText((await call('analystA', 'GET', `/api/cases/${theCase.id}/audit/export?format=pdf`)).rawPayload);
    expect(pdf).toContain(`NOT VERIFIED: the chain breaks at row ${added!.seq}`);
  });

  it('reports a removed row where the chain no longer links: at the row after it', async () => {
    const db = t.database.db;
    const [removed] = await db.select().from(auditLog).where(and(eq(auditLog.entity, 'Profile'), eq(auditLog.entityId, profile.id))).orderBy(auditLog.seq).limit(1);
    const [next] = await db.select().from(auditLog).where(sql`${auditLog.seq} > ${removed!.seq}`).orderBy(auditLog.seq).limit(1);
    await tamper(sql`delete from audit_log where seq = ${removed!.seq}`);
    // The case's own rows (the item's, changed above, left out): the break shows in the case row after the gap.
    const today = new Date().toISOString().slice(0, 10);
    const res = await call('adminAll', 'GET', `/api/organizations/${orgA}/audit/export?format=csv&from=${today}&to=${today}&entity=Case`);
    expect(res.body).toContain(`NOT VERIFIED: the chain breaks at row ${next!.seq}: it does not follow the row before it`);
  });
});
