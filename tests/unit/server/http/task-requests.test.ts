import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import type { OrganizationMember, TaskRequest } from '../../../../core/schemas/task-requests';
import { verifyAuditChain } from '../../../../server/audit/audit-trail';
import { auditLog, cases, caseTypes } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let orgA: string;
let orgB: string;
let caseA: string;
let caseB: string;
const ids = {} as Record<'analystA' | 'colleagueA' | 'lockedA' | 'analystB', string>;
const tokens = {} as Record<'adminAll' | 'analystA' | 'readerA' | 'analystB' | 'noTasksA', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const [type] = await db.insert(caseTypes).values({ name: 'Burglary' }).returning();
  caseA = (await db.insert(cases).values({ caseNumber: 'OSL-1', caseTypeId: type!.id, organizationId: orgA }).returning())[0]!.id;
  caseB = (await db.insert(cases).values({ caseNumber: 'BRG-1', caseTypeId: type!.id, organizationId: orgB }).returning())[0]!.id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { TaskRequests: ['Read', 'Add', 'Edit', 'Delete'] } });
  const reader = await createAccessGroup(db, { grants: { TaskRequests: ['Read'] } });
  const noTasks = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  const analystA = await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA], email: 'ann@oslo.test' });
  const colleagueA = await createUser(db, { accessGroupId: reader.id, organizationIds: [orgA], email: 'colin@oslo.test' });
  const lockedA = await createUser(db, { accessGroupId: reader.id, organizationIds: [orgA], email: 'locked@oslo.test', lockedAt: new Date() });
  const analystB = await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB], email: 'bo@bergen.test' });
  Object.assign(ids, { analystA: analystA.id, colleagueA: colleagueA.id, lockedA: lockedA.id, analystB: analystB.id });
  tokens.adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analystA = t.verifier.issue(analystA.id);
  tokens.readerA = t.verifier.issue(colleagueA.id);
  tokens.analystB = t.verifier.issue(analystB.id);
  tokens.noTasksA = t.verifier.issue((await createUser(db, { accessGroupId: noTasks.id, organizationIds: [orgA] })).id);
}, 60_000);
afterAll(() => t.close());

const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

const task = (overrides: object = {}) => ({ organizationId: orgA, title: 'Re-run sample 7', description: 'Low signal', assignedToId: null, caseId: null, dueDate: null, ...overrides });

async function addTask(overrides: object = {}, who: keyof typeof tokens = 'analystA'): Promise<TaskRequest> {
  const res = await call(who, 'POST', '/api/task-requests', task(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TaskRequest;
}

const moveTo = (record: TaskRequest, status: string, version = record.version) => call('analystA', 'PUT', `/api/task-requests/${record.id}/status`, { status, version });

describe('task requests API', () => {
  it('adds an open task assigned to a colleague on a case, naming requester, assignee and case', async () => {
    const created = await addTask({ assignedToId: ids.colleagueA, caseId: caseA, dueDate: '2026-03-01' });
    expect(created).toMatchObject({
      title: 'Re-run sample 7',
      status: 'open',
      version: 1,
      organizationName: 'Oslo Lab',
      requestedBy: { id: ids.analystA },
      assignedTo: { id: ids.colleagueA },
      case: { id: caseA, caseNumber: 'OSL-1' },
      dueDate: '2026-03-01',
    });
    expect((await call('readerA', 'GET', `/api/task-requests/${created.id}`)).json()).toMatchObject({ title: 'Re-run sample 7' });
  });

  it('says "Required" for an empty title', async () => {
    const res = await call('analystA', 'POST', '/api/task-requests', task({ title: ' ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toContainEqual(expect.objectContaining({ path: '/title', message: 'Required' }));
  });

  it('assigns only active users of the task’s organization and links only its cases, field by field', async () => {
    const res = await call('analystA', 'POST', '/api/task-requests', task({ assignedToId: ids.analystB, caseId: caseB }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { path: '/assignedToId', message: 'Choose a user of the task’s organization' },
      { path: '/caseId', message: 'Choose a case of the task’s organization' },
    ]);
    const locked = await call('analystA', 'POST', '/api/task-requests', task({ assignedToId: ids.lockedA }));
    expect(locked.statusCode).toBe(400);
    const created = await addTask();
    const edit = await call('analystA', 'PUT', `/api/task-requests/${created.id}`, { ...task({ assignedToId: ids.analystB }), organizationId: undefined, version: 1 });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().details).toEqual([{ path: '/assignedToId', message: 'Choose a user of the task’s organization' }]);
  });

  it('moves a task open → in-progress → done, and refuses every other transition with 409 and the reason', async () => {
    const created = await addTask();
    const skip = await moveTo(created, 'done');
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error).toBe('A task that is Open cannot become Done: it can only become In progress.');
    const started = await moveTo(created, 'in-progress');
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'in-progress', version: 2 });
    const back = await moveTo(started.json(), 'open');
    expect(back.statusCode).toBe(409);
    const done = await moveTo(started.json(), 'done');
    expect(done.json()).toMatchObject({ status: 'done', version: 3 });
    const reopened = await moveTo(done.json(), 'in-progress');
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().error).toBe('A task that is Done cannot become In progress: it is finished and cannot change any more.');
  });

  it('cancels a task in progress', async () => {
    const started = (await moveTo(await addTask(), 'in-progress')).json() as TaskRequest;
    expect((await moveTo(started, 'cancelled')).json()).toMatchObject({ status: 'cancelled' });
  });

  it('refuses a stale edit or status change with 409 and keeps the newer one', async () => {
    const created = await addTask({ title: 'Original' });
    const first = await call('analystA', 'PUT', `/api/task-requests/${created.id}`, { title: 'First', description: '', assignedToId: null, caseId: null, dueDate: null, version: 1 });
    expect(first.json()).toMatchObject({ title: 'First', version: 2 });
    const stale = await call('analystA', 'PUT', `/api/task-requests/${created.id}`, { title: 'Second', description: '', assignedToId: null, caseId: null, dueDate: null, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(STALE_RECORD_MESSAGE);
    const staleMove = await moveTo(created, 'in-progress', 1);
    expect(staleMove.statusCode).toBe(409);
    expect(staleMove.json().error).toBe(STALE_RECORD_MESSAGE);
    expect((await call('analystA', 'GET', `/api/task-requests/${created.id}`)).json()).toMatchObject({ title: 'First', status: 'open' });
  });

  it('keeps each organization to its own tasks: lists, reads, edits, moves and deletes', async () => {
    const secret = await addTask({ title: 'Oslo only' });
    const listB = await call('analystB', 'GET', '/api/task-requests?pageSize=500');
    expect(listB.statusCode).toBe(200);
    expect(listB.body).not.toContain(secret.id);
    expect((await call('analystB', 'GET', `/api/task-requests/${secret.id}`)).statusCode).toBe(404);
    expect((await call('analystB', 'PUT', `/api/task-requests/${secret.id}`, { title: 'x', description: '', assignedToId: null, caseId: null, dueDate: null, version: 1 })).statusCode).toBe(404);
    expect((await call('analystB', 'PUT', `/api/task-requests/${secret.id}/status`, { status: 'in-progress', version: 1 })).statusCode).toBe(404);
    expect((await call('analystB', 'DELETE', `/api/task-requests/${secret.id}`)).statusCode).toBe(404);
    expect((await call('analystB', 'GET', `/api/organizations/${orgA}/task-requests`)).statusCode).toBe(403);
    expect((await call('analystB', 'GET', `/api/organizations/${orgA}/members`)).statusCode).toBe(403);
    expect((await call('analystB', 'POST', '/api/task-requests', task())).statusCode).toBe(403);
    const all = (await call('adminAll', 'GET', '/api/organizations/all/task-requests?pageSize=500')).json() as { items: TaskRequest[] };
    expect(all.items.map((i) => i.id)).toContain(secret.id);
  });

  it('lists an organization’s open and in-progress tasks only, when asked, newest change first', async () => {
    const open = await addTask({ title: 'Still open' });
    const moving = (await moveTo(await addTask({ title: 'Under way' }), 'in-progress')).json() as TaskRequest;
    const res = await call('readerA', 'GET', `/api/organizations/${orgA}/task-requests?status=open,in-progress&pageSize=500`);
    const items = (res.json() as { items: TaskRequest[] }).items;
    expect(items.every((i) => i.status === 'open' || i.status === 'in-progress')).toBe(true);
    expect(items.slice(0, 2).map((i) => i.id)).toEqual([moving.id, open.id]);
    expect((await call('readerA', 'GET', `/api/organizations/${orgA}/task-requests?status=closed`)).statusCode).toBe(400);
  });

  it('lists the organization’s active members by name, without locked-out users', async () => {
    const res = await call('readerA', 'GET', `/api/organizations/${orgA}/members`);
    const emails = (res.json() as { items: OrganizationMember[] }).items.map((m) => m.email);
    expect(emails).toEqual(expect.arrayContaining(['ann@oslo.test', 'colin@oslo.test']));
    expect(emails).not.toContain('locked@oslo.test');
    expect(emails).not.toContain('bo@bergen.test');
  });

  it('needs the TaskRequests rights: read, add, edit and delete', async () => {
    const created = await addTask();
    expect((await call('noTasksA', 'GET', `/api/organizations/${orgA}/task-requests`)).statusCode).toBe(403);
    expect((await call('readerA', 'POST', '/api/task-requests', task())).statusCode).toBe(403);
    expect((await call('readerA', 'PUT', `/api/task-requests/${created.id}/status`, { status: 'in-progress', version: 1 })).statusCode).toBe(403);
    expect((await call('readerA', 'DELETE', `/api/task-requests/${created.id}`)).statusCode).toBe(403);
    expect((await call('analystA', 'DELETE', `/api/task-requests/${created.id}`)).statusCode).toBe(204);
    expect((await call('analystA', 'GET', `/api/task-requests/${created.id}`)).statusCode).toBe(404);
  });

  it('records every write in the audit trail, with who and the state before and after', async () => {
    const created = await addTask({ title: 'Audited' });
    await moveTo(created, 'in-progress');
    await call('analystA', 'DELETE', `/api/task-requests/${created.id}`);
    const rows = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'TaskRequest'), eq(auditLog.entityId, created.id))).orderBy(auditLog.seq);
    expect(rows.map((r) => r.action)).toEqual(['Added', 'Status open → in-progress', 'Deleted']);
    expect(rows[1]).toMatchObject({ userId: ids.analystA, organizationId: orgA, before: expect.objectContaining({ status: 'open' }), after: expect.objectContaining({ status: 'in-progress' }) });
    expect((await verifyAuditChain(t.database.db)).brokenAt).toBeNull();
  });
});
