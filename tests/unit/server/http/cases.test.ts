import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../core/schemas/audit';
import type { AgencyFile, Case, InvolvedParty, PhysicalItem } from '../../../../core/schemas/cases';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import { verifyAuditChain } from '../../../../server/audit/audit-trail';
import { caseTypes } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';

let t: TestApp;
let orgA: string;
let orgB: string;
let caseTypeId: string;
const users = {} as Record<'analystA', string>;
const tokens = {} as Record<'adminAll' | 'analystA' | 'readerA' | 'analystB' | 'noAuditA', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  caseTypeId = (await db.insert(caseTypes).values({ name: 'Homicide' }).returning())[0]!.id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit', 'Delete', 'ChangeSettings', 'ViewAudit'] } });
  const noAudit = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  const analystA = await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA], email: 'ann.analyst@oslo.test' });
  users.analystA = analystA.id;
  tokens.adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analystA = t.verifier.issue(analystA.id);
  tokens.readerA = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [orgA] })).id);
  tokens.noAuditA = t.verifier.issue((await createUser(db, { accessGroupId: noAudit.id, organizationIds: [orgA] })).id);
  tokens.analystB = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB] })).id);
}, 60_000);
afterAll(() => t.close());

const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

async function addCase(caseNumber: string, organizationId = orgA, who: keyof typeof tokens = 'analystA') {
  const res = await call(who, 'POST', '/api/cases', { caseNumber, caseTypeId, organizationId, assignedUserIds: [] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Case;
}

describe('cases API', () => {
  it('adds a case with its type, organization and assigned users, and reads it back', async () => {
    const res = await call('analystA', 'POST', '/api/cases', { caseNumber: '2026-0042', caseTypeId, organizationId: orgA, assignedUserIds: [users.analystA] });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Case;
    expect(created).toMatchObject({ caseNumber: '2026-0042', caseTypeName: 'Homicide', organizationName: 'Oslo Lab', status: 'Open', version: 1, profileCount: 0 });
    expect(created.assignedUsers.map((u) => u.email)).toEqual(['ann.analyst@oslo.test']);
    expect((await call('readerA', 'GET', `/api/cases/${created.id}`)).json()).toMatchObject({ caseNumber: '2026-0042' });
  });

  it('says "Required" for an empty case number and refuses a duplicate number in the same organization', async () => {
    const empty = await call('analystA', 'POST', '/api/cases', { caseNumber: '  ', caseTypeId, organizationId: orgA, assignedUserIds: [] });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json().details)).toContain('Required');
    await addCase('DUP-1');
    const dup = await call('analystA', 'POST', '/api/cases', { caseNumber: 'dup-1', caseTypeId, organizationId: orgA, assignedUserIds: [] });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().error).toBe('A case dup-1 already exists in this organization');
    // Another organization may use the same number.
    expect((await call('analystB', 'POST', '/api/cases', { caseNumber: 'DUP-1', caseTypeId, organizationId: orgB, assignedUserIds: [] })).statusCode).toBe(201);
  });

  it('keeps each organization to its own cases: lists, reads and writes', async () => {
    const secret = await addCase('SECRET-A');
    const listB = await call('analystB', 'GET', '/api/cases?pageSize=500');
    expect(listB.body).not.toContain(secret.id);
    expect((await call('analystB', 'GET', `/api/cases/${secret.id}`)).statusCode).toBe(404);
    expect((await call('analystB', 'GET', `/api/organizations/${orgA}/cases`)).statusCode).toBe(403);
    expect((await call('analystB', 'POST', '/api/cases', { caseNumber: 'X', caseTypeId, organizationId: orgA, assignedUserIds: [] })).statusCode).toBe(403);
    expect((await call('analystB', 'DELETE', `/api/cases/${secret.id}`)).statusCode).toBe(404);
    const all = (await call('adminAll', 'GET', '/api/organizations/all/cases?pageSize=500')).json() as { items: Case[] };
    expect(all.items.map((c) => c.organizationName)).toEqual(expect.arrayContaining(['Oslo Lab', 'Bergen Lab']));
  });

  it('refuses to assign a user of another organization', async () => {
    const res = await call('analystB', 'POST', '/api/cases', { caseNumber: 'B-ASSIGN', caseTypeId, organizationId: orgB, assignedUserIds: [users.analystA] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Only users of the case’s organization can be assigned to it');
  });

  it('pages, sorts and filters the list on the server', async () => {
    for (const n of ['SORT-C', 'SORT-A', 'SORT-B']) await addCase(n);
    const res = await call('analystA', 'GET', `/api/cases?sort=caseNumber:asc&filter=${encodeURIComponent(JSON.stringify({ caseNumber: 'sort-' }))}&pageSize=2`);
    const body = res.json() as { items: Case[]; count: number };
    expect(body.count).toBe(3);
    expect(body.items.map((c) => c.caseNumber)).toEqual(['SORT-A', 'SORT-B']);
  });

  it('searches the list by any column: the number in part, the case type, the organization and the status', async () => {
    const burglary = (await t.database.db.insert(caseTypes).values({ name: 'Burglary' }).returning())[0]!.id;
    const found = await call('analystB', 'POST', '/api/cases', { caseNumber: 'FIND-770', caseTypeId: burglary, organizationId: orgB, assignedUserIds: [] });
    expect(found.statusCode, found.body).toBe(201);
    const closed = await addCase('FIND-CLOSED');
    expect((await call('analystA', 'PUT', `/api/cases/${closed.id}/settings`, { status: 'Closed', notes: '', version: 1 })).statusCode).toBe(200);
    const search = async (text: string) => {
      const res = await call('adminAll', 'GET', `/api/organizations/all/cases?pageSize=500&search=${encodeURIComponent(text)}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { items: Case[]; count: number };
      expect(body.count).toBe(body.items.length);
      return body.items;
    };
    expect((await search('nd-77')).map((c) => c.caseNumber)).toEqual(['FIND-770']);
    expect((await search('BURGL')).map((c) => c.caseNumber)).toEqual(['FIND-770']);
    const bergen = await search('bergen');
    expect(bergen.map((c) => c.caseNumber)).toContain('FIND-770');
    expect(bergen.every((c) => c.organizationName === 'Bergen Lab')).toBe(true);
    expect((await search('closed')).map((c) => c.caseNumber)).toContain('FIND-CLOSED');
    expect((await search('closed')).every((c) => c.status === 'Closed')).toBe(true);
    expect(await search('find-7%')).toEqual([]);
  });

  it('refuses a stale edit with 409 and the record-changed message', async () => {
    const c = await addCase('STALE-1');
    const body = { caseNumber: 'STALE-1b', caseTypeId, organizationId: orgA, assignedUserIds: [], version: 1 };
    expect((await call('analystA', 'PUT', `/api/cases/${c.id}`, body)).statusCode).toBe(200);
    const stale = await call('analystA', 'PUT', `/api/cases/${c.id}`, { ...body, caseNumber: 'STALE-1c' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(STALE_RECORD_MESSAGE);
  });

  it('changes settings only with ChangeSettings', async () => {
    const c = await addCase('SETTINGS-1');
    expect((await call('noAuditA', 'PUT', `/api/cases/${c.id}/settings`, { status: 'Closed', notes: '', version: 1 })).statusCode).toBe(403);
    const res = await call('analystA', 'PUT', `/api/cases/${c.id}/settings`, { status: 'Closed', notes: 'Report sent 2026-11-20', version: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'Closed', notes: 'Report sent 2026-11-20', version: 2 });
  });

  it('keeps involved parties and items inside their case, with Cases Edit to change them', async () => {
    const c = await addCase('PARTS-1');
    expect((await call('readerA', 'POST', `/api/cases/${c.id}/involved-parties`, { title: 'Victim', role: 'victim', name: '', identifiers: [], description: '' })).statusCode).toBe(403);
    const party = (await call('analystA', 'POST', `/api/cases/${c.id}/involved-parties`, { title: 'Victim', role: 'victim', name: 'Jane Doe', identifiers: [], description: '' })).json() as InvolvedParty;
    expect(party).toMatchObject({ title: 'Victim', caseId: c.id });
    const renamed = await call('analystA', 'PUT', `/api/cases/${c.id}/involved-parties/${party.id}`, { title: 'Victim 1', role: 'victim', name: 'Jane Doe', identifiers: [], description: '', version: 1 });
    expect(renamed.json()).toMatchObject({ title: 'Victim 1', version: 2 });
    const item = await call('analystA', 'POST', `/api/cases/${c.id}/physical-items`, { itemId: 'ITEM-01', description: 'Knife, handle swab', collectedAt: null, collectionPlace: '', collectedBy: '' });
    expect(item.statusCode).toBe(201);
    const dup = await call('analystA', 'POST', `/api/cases/${c.id}/physical-items`, { itemId: 'item-01', description: '', collectedAt: null, collectionPlace: '', collectedBy: '' });
    expect(dup.json().error).toBe('Item item-01 already exists in this case');
    const items = (await call('readerA', 'GET', `/api/cases/${c.id}/physical-items`)).json() as { items: PhysicalItem[] };
    expect(items.items.map((i) => [i.itemId, i.description])).toEqual([['ITEM-01', 'Knife, handle swab']]);
    // The same party id under another case is not found.
    const other = await addCase('PARTS-2');
    expect((await call('analystA', 'GET', `/api/cases/${other.id}/involved-parties/${party.id}`)).statusCode).toBe(404);
    expect((await call('analystA', 'DELETE', `/api/cases/${c.id}/involved-parties/${party.id}`)).statusCode).toBe(204);
  });

  it('uploads, lists, downloads and deletes agency files', async () => {
    const c = await addCase('FILES-1');
    const form = await multipartBody({}, { name: 'request letter.pdf', bytes: Buffer.from('%PDF-1.4 request') });
    const up = await t.app.inject({ method: 'POST', url: `/api/cases/${c.id}/agency-files`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.analystA}` } });
    expect(up.statusCode, up.body).toBe(201);
    const file = up.json() as AgencyFile;
    expect(file).toMatchObject({ fileName: 'request letter.pdf', contentType: 'application/pdf', fileSize: 16, uploadedBy: 'Test User' });
    const down = await call('readerA', 'GET', `/api/cases/${c.id}/agency-files/${file.id}/download`);
    expect(down.statusCode).toBe(200);
    expect(down.headers['content-disposition']).toContain('request letter.pdf');
    expect(down.body).toBe('%PDF-1.4 request');
    expect((await call('analystB', 'GET', `/api/cases/${c.id}/agency-files/${file.id}/download`)).statusCode).toBe(404);
    expect((await call('analystA', 'DELETE', `/api/cases/${c.id}/agency-files/${file.id}`)).statusCode).toBe(204);
    expect(((await call('readerA', 'GET', `/api/cases/${c.id}/agency-files`)).json() as { count: number }).count).toBe(0);
  });

  it('records every write in the case audit trail, readable with ViewAudit, in an unbroken hash chain', async () => {
    const c = await addCase('AUDIT-1');
    await call('analystA', 'POST', `/api/cases/${c.id}/involved-parties`, { title: 'Suspect', role: 'suspect', name: '', identifiers: [], description: '' });
    await call('analystA', 'PUT', `/api/cases/${c.id}/settings`, { status: 'Open', notes: 'urgent', version: 1 });
    expect((await call('noAuditA', 'GET', `/api/cases/${c.id}/audit`)).statusCode).toBe(403);
    const audit = (await call('analystA', 'GET', `/api/cases/${c.id}/audit`)).json() as { items: AuditEntry[] };
    expect(audit.items.map((a) => [a.entity, a.action])).toEqual([
      ['Case', 'Settings changed'],
      ['InvolvedParty', 'Added'],
      ['Case', 'Added'],
    ]);
    expect(audit.items[0]).toMatchObject({ userName: 'Test User', before: { notes: '' }, after: { notes: 'urgent' } });
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ brokenAt: null });
  });

  it('deletes an empty case with Cases Delete', async () => {
    const c = await addCase('DELETE-1');
    expect((await call('readerA', 'DELETE', `/api/cases/${c.id}`)).statusCode).toBe(403);
    expect((await call('analystA', 'DELETE', `/api/cases/${c.id}`)).statusCode).toBe(204);
    expect((await call('analystA', 'GET', `/api/cases/${c.id}`)).statusCode).toBe(404);
  });

  it('offers the case form its case types, reachable organizations and assignable users', async () => {
    const res = await call('analystA', 'GET', `/api/cases/form-options?organizationId=${orgA}`);
    const options = res.json() as { caseTypes: { name: string }[]; organizations: { name: string }[]; users: { email: string }[] };
    expect(options.caseTypes.map((c) => c.name)).toContain('Homicide');
    expect(options.organizations.map((o) => o.name)).toEqual(['Oslo Lab']);
    expect(options.users.map((u) => u.email)).toContain('ann.analyst@oslo.test');
    expect((await call('readerA', 'GET', '/api/cases/form-options')).statusCode).toBe(403);
  });
});
