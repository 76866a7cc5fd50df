import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessGroup, AccessGroupSummary } from '../../../../core/schemas/access-groups';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
const tokens: Record<string, string> = {};
let adminRoleId: string;
let analystRoleId: string;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db, 'Gamma Lab');
  adminRoleId = (await createAccessGroup(db, { name: 'Administrator', isAdmin: true })).id;
  analystRoleId = (await createAccessGroup(db, { name: 'Analyst', grants: { Cases: ['Read'] } })).id;
  const auditorRole = (await createAccessGroup(db, { name: 'Auditor', grants: { AccessGroups: ['Read'] } })).id;
  const people: [string, Parameters<typeof createUser>[1]][] = [
    ['admin', { email: 'admin@gamma.test', scope: 'All', accessGroupId: adminRoleId, organizationIds: [org.id] }],
    ['orgAdmin', { email: 'org.admin@gamma.test', scope: 'Organization', accessGroupId: adminRoleId, organizationIds: [org.id] }],
    ['auditor', { email: 'auditor@gamma.test', scope: 'Organization', accessGroupId: auditorRole, organizationIds: [org.id] }],
  ];
  for (const [name, opts] of people) tokens[name] = t.verifier.issue((await createUser(db, opts)).id);
  for (const email of ['c@gamma.test', 'a@gamma.test', 'b@gamma.test']) {
    await createUser(db, { email, accessGroupId: analystRoleId, organizationIds: [org.id] });
  }
}, 60_000);
afterAll(() => t.close());

describe('reading roles', () => {
  it('lists roles with Name and Admin, sorted by name, and sorts by Admin on request', async () => {
    const res = await call('admin', 'GET', '/api/access-groups');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { items: AccessGroupSummary[]; count: number };
    expect(list.items.map((r) => [r.name, r.isAdmin])).toEqual([
      ['Administrator', true],
      ['Analyst', false],
      ['Auditor', false],
    ]);
    const byAdmin = (await call('admin', 'GET', '/api/access-groups?sort=isAdmin:desc')).json() as { items: AccessGroupSummary[] };
    expect(byAdmin.items[0]!.name).toBe('Administrator');
    const search = (await call('admin', 'GET', '/api/access-groups?search=audi')).json() as { items: AccessGroupSummary[] };
    expect(search.items.map((r) => r.name)).toEqual(['Auditor']);
  });

  it('is refused to an administrator whose scope is not All, and allowed by an AccessGroups Read grant', async () => {
    expect((await call('orgAdmin', 'GET', '/api/access-groups')).statusCode).toBe(403);
    expect((await call('orgAdmin', 'GET', `/api/access-groups/${analystRoleId}`)).statusCode).toBe(403);
    expect((await call('auditor', 'GET', `/api/access-groups/${analystRoleId}`)).json()).toMatchObject({ name: 'Analyst', permissions: { Cases: ['Read'] } });
  });

  it('lets only an administrator with scope All add, change or delete roles', async () => {
    const payload = { name: 'Sneaky', isAdmin: true, permissions: {} };
    for (const who of ['orgAdmin', 'auditor']) {
      expect((await call(who, 'POST', '/api/access-groups', payload)).statusCode).toBe(403);
      expect((await call(who, 'PUT', `/api/access-groups/${analystRoleId}`, { ...payload, version: 1 })).statusCode).toBe(403);
      expect((await call(who, 'DELETE', `/api/access-groups/${analystRoleId}`)).statusCode).toBe(403);
    }
  });
});

describe('adding and changing roles', () => {
  it('adds a role with a permission matrix and returns it in matrix order, without duplicates', async () => {
    const res = await call('admin', 'POST', '/api/access-groups', {
      name: 'Reviewer',
      isAdmin: false,
      permissions: { Hits: ['Publish', 'Read', 'Read'], Cases: ['ViewAudit', 'Read'], Markers: [] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Reviewer', isAdmin: false, version: 1, permissions: { Cases: ['Read', 'ViewAudit'], Hits: ['Read', 'Publish'] } });
    expect(Object.keys((res.json() as AccessGroup).permissions)).toEqual(['Cases', 'Hits']);
  });

  it('refuses an unknown entity or verb with a message naming it (400)', async () => {
    const entity = await call('admin', 'POST', '/api/access-groups', { name: 'Odd', isAdmin: false, permissions: { Spaceships: ['Read'] } });
    expect(entity.statusCode).toBe(400);
    expect(JSON.stringify(entity.json().details)).toContain('Unknown entity \\"Spaceships\\"');
    const verb = await call('admin', 'POST', '/api/access-groups', { name: 'Odd', isAdmin: false, permissions: { Cases: ['Read', 'Fly'] } });
    expect(verb.statusCode).toBe(400);
    expect(verb.json().details).toEqual([{ path: '/permissions/Cases/1', message: expect.stringContaining('Unknown verb "Fly"') }]);
  });

  it('says Required for an empty name and refuses a duplicate name regardless of case (409)', async () => {
    const empty = await call('admin', 'POST', '/api/access-groups', { name: ' ', isAdmin: false, permissions: {} });
    expect(empty.json().details).toEqual([{ path: '/name', message: 'Required' }]);
    const duplicate = await call('admin', 'POST', '/api/access-groups', { name: 'analyst', isAdmin: false, permissions: {} });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'A role named "analyst" already exists' });
  });

  it('replaces the matrix on save, applies it to the role holders at once, and refuses a stale version', async () => {
    const created = (await call('admin', 'POST', '/api/access-groups', { name: 'Typist', isAdmin: false, permissions: { Profiles: ['Read', 'Add'] } })).json() as AccessGroup;
    const db = t.database.db;
    const typist = t.verifier.issue((await createUser(db, { accessGroupId: created.id, organizationIds: [] })).id);
    const saved = await call('admin', 'PUT', `/api/access-groups/${created.id}`, { name: 'Typist', isAdmin: false, permissions: { Profiles: ['Read'] }, version: 1 });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2, permissions: { Profiles: ['Read'] } });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${typist}` } });
    expect(me.json()).toMatchObject({ roleName: 'Typist', permissions: { Profiles: ['Read'] } });
    const stale = await call('admin', 'PUT', `/api/access-groups/${created.id}`, { name: 'Typist 2', isAdmin: false, permissions: {}, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toContain('changed by someone else');
  });

  it('refuses taking administrator rights from the role the administrator holds (409)', async () => {
    const res = await call('admin', 'PUT', `/api/access-groups/${adminRoleId}`, { name: 'Administrator', isAdmin: false, permissions: {}, version: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'You cannot take administrator rights away from your own role "Administrator"; another administrator must do it.' });
    expect((await call('admin', 'GET', `/api/access-groups/${adminRoleId}`)).json()).toMatchObject({ isAdmin: true, version: 1 });
  });
});

describe('deleting roles', () => {
  it('refuses a role still assigned to users, naming them (409)', async () => {
    const res = await call('admin', 'DELETE', `/api/access-groups/${analystRoleId}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'Role "Analyst" is assigned to 3 users: a@gamma.test, b@gamma.test, c@gamma.test. Give them another role first.' });
  });

  it('deletes a role nobody has', async () => {
    const created = (await call('admin', 'POST', '/api/access-groups', { name: 'Unused', isAdmin: false, permissions: { Cases: ['Read'] } })).json() as AccessGroup;
    expect((await call('admin', 'DELETE', `/api/access-groups/${created.id}`)).statusCode).toBe(204);
    expect((await call('admin', 'GET', `/api/access-groups/${created.id}`)).statusCode).toBe(404);
  });
});
