import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord, UserSummary } from '../../../../core/schemas/users';
import { passwordLinks, users } from '../../../../server/db/schema';
import { LAST_ADMINISTRATOR_MESSAGE } from '../../../../server/http/users/administrators';
import { EXTERNAL_PASSWORDS, WRONG_CURRENT_PASSWORD } from '../../../../server/http/users/password-routes';
import {
  ADMIN_ACCOUNT_NEEDS_ADMIN,
  CANNOT_DELETE_SELF,
  CANNOT_DROP_OWN_ADMIN,
  CANNOT_LOCK_SELF,
  LOCKOUT_NEEDS_ADMIN,
  NEW_USER_NEEDS_ORGANIZATION,
  NOTIFICATIONS_NEED_ADMIN,
  ORGANIZATIONS_NEED_EDIT_ALL,
  OWN_ORGANIZATIONS_ONLY,
  ROLE_NEEDS_ADMIN,
  SCOPE_ALL_ACCOUNT_NEEDS_ADMIN_ALL,
  SCOPE_ALL_ACCOUNT_NEEDS_SCOPE_ALL,
  SCOPE_ALL_NEEDS_ADMIN_ALL,
} from '../../../../server/http/users/user-rules';
import { verifyPassword } from '../../../../server/identity/password';
import { passwordLinkAccount } from '../../../../server/identity/password-links';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, testConfig, type TestApp } from '../../../helpers/app';

let t: TestApp;
const ids: Record<string, string> = {};
const tokens: Record<string, string> = {};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

/** A complete user body; tests override what they are about. */
const body = (patch: Record<string, unknown> = {}) => ({
  email: `new-${Math.random().toString(36).slice(2, 8)}@lab.test`,
  firstName: 'Nora',
  lastName: 'New',
  scope: 'Organization',
  organizationIds: [ids.orgA],
  accessGroupId: null,
  lockedOut: false,
  receiveNotifications: false,
  ...patch,
});

/** The body that saves `record` unchanged, plus `patch`. */
const unchanged = (record: UserRecord, patch: Record<string, unknown> = {}) => ({
  email: record.email,
  firstName: record.firstName,
  lastName: record.lastName,
  scope: record.scope,
  organizationIds: record.organizations.map((o) => o.id),
  accessGroupId: record.role?.id ?? null,
  lockedOut: record.lockedOut,
  receiveNotifications: record.receiveNotifications,
  version: record.version,
  ...patch,
});

const read = async (id: string) => (await call('admin', 'GET', `/api/users/${id}`)).json() as UserRecord;
const emails = (items: UserSummary[]) => items.map((u) => u.email);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  ids.orgA = (await createOrganization(db, 'Alpha Lab')).id;
  ids.orgB = (await createOrganization(db, 'Beta Lab')).id;
  ids.adminRole = (await createAccessGroup(db, { name: 'Administrator', isAdmin: true })).id;
  ids.analystRole = (await createAccessGroup(db, { name: 'Analyst', grants: { Cases: ['Read'] } })).id;
  const managerRole = (await createAccessGroup(db, { name: 'User manager', grants: { Users: ['Read', 'Add', 'Edit'] } })).id;
  const people: [string, Parameters<typeof createUser>[1]][] = [
    ['admin', { email: 'admin@lab.test', scope: 'All', accessGroupId: ids.adminRole, organizationIds: [ids.orgA] }],
    ['orgAdmin', { email: 'org.admin@lab.test', scope: 'Organization', accessGroupId: ids.adminRole, organizationIds: [ids.orgA] }],
    ['managerAll', { email: 'manager.all@lab.test', scope: 'All', accessGroupId: managerRole, organizationIds: [ids.orgB] }],
    ['managerA', { email: 'manager.a@lab.test', scope: 'Organization', accessGroupId: managerRole, organizationIds: [ids.orgA] }],
    ['alice', { email: 'alice@lab.test', scope: 'Organization', accessGroupId: ids.analystRole, organizationIds: [ids.orgA] }],
    ['bob', { email: 'bob@lab.test', scope: 'Organization', accessGroupId: ids.analystRole, organizationIds: [ids.orgB] }],
  ];
  for (const [name, opts] of people) {
    ids[name] = (await createUser(db, opts)).id;
    tokens[name] = t.verifier.issue(ids[name]!);
  }
}, 60_000);
afterAll(() => t.close());

describe('listing users', () => {
  it('gives an administrator every user with the table columns: e-mail, names, scope, organizations and role', async () => {
    const res = await call('admin', 'GET', '/api/users?pageSize=100');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { items: UserSummary[]; count: number };
    expect(list.count).toBe(6);
    expect(list.items.find((u) => u.email === 'alice@lab.test')).toEqual({
      id: ids.alice,
      email: 'alice@lab.test',
      firstName: 'Test',
      lastName: 'User',
      scope: 'Organization',
      organizations: [{ id: ids.orgA, name: 'Alpha Lab' }],
      role: { id: ids.analystRole, name: 'Analyst' },
    });
  });

  it('sorts by e-mail by default and by role on request, and searches e-mail and names', async () => {
    const byEmail = (await call('admin', 'GET', '/api/users?pageSize=100')).json() as { items: UserSummary[] };
    expect(emails(byEmail.items)).toEqual([...emails(byEmail.items)].sort());
    const byRole = (await call('admin', 'GET', '/api/users?pageSize=100&sort=role:desc')).json() as { items: UserSummary[] };
    expect(byRole.items[0]!.role?.name).toBe('User manager');
    const search = (await call('admin', 'GET', '/api/users?search=ALICE')).json() as { items: UserSummary[] };
    expect(emails(search.items)).toEqual(['alice@lab.test']);
    expect((await call('admin', 'GET', '/api/users?sort=password:asc')).json()).toEqual({ error: 'Cannot sort by "password"' });
  });

  it("shows a user with organization scope only the users of their organizations; others' answer 404", async () => {
    const list = (await call('managerA', 'GET', '/api/users?pageSize=100')).json() as { items: UserSummary[] };
    expect(emails(list.items)).toContain('alice@lab.test');
    expect(emails(list.items)).not.toContain('bob@lab.test');
    expect(emails(list.items)).not.toContain('manager.all@lab.test');
    for (const [method, payload] of [['GET'], ['PUT', { ...body(), version: 1 }]] as const) {
      const res = await call('managerA', method, `/api/users/${ids.bob}`, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: `No user with id ${ids.bob}` });
    }
  });

  it("lists one organization's users under /organizations/{orgId}/users, and refuses an organization out of reach", async () => {
    const beta = (await call('admin', 'GET', `/api/organizations/${ids.orgB}/users`)).json() as { items: UserSummary[] };
    expect(emails(beta.items).sort()).toEqual(['bob@lab.test', 'manager.all@lab.test']);
    const all = (await call('admin', 'GET', '/api/organizations/all/users?pageSize=100')).json() as { count: number };
    expect(all.count).toBeGreaterThanOrEqual(6);
    expect((await call('managerA', 'GET', `/api/organizations/${ids.orgA}/users`)).statusCode).toBe(200);
    expect((await call('managerA', 'GET', `/api/organizations/${ids.orgB}/users`)).statusCode).toBe(403);
    expect((await call('managerA', 'GET', '/api/organizations/all/users')).statusCode).toBe(403);
  });

  it('refuses a user whose role does not grant Users Read (403)', async () => {
    expect((await call('alice', 'GET', '/api/users')).statusCode).toBe(403);
  });
});

describe('adding a user', () => {
  it('adds a user with organizations and a role; the e-mail is unique regardless of case', async () => {
    const res = await call('admin', 'POST', '/api/users', body({ email: 'carol@lab.test', organizationIds: [ids.orgA, ids.orgB], accessGroupId: ids.analystRole }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: 'carol@lab.test',
      scope: 'Organization',
      organizations: [
        { id: ids.orgA, name: 'Alpha Lab' },
        { id: ids.orgB, name: 'Beta Lab' },
      ],
      role: { id: ids.analystRole, name: 'Analyst' },
      lockedOut: false,
      hasPassword: false,
      version: 1,
    });
    const again = await call('admin', 'POST', '/api/users', body({ email: 'CAROL@lab.test' }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'A user with e-mail CAROL@lab.test already exists' });
  });

  it('says Required for an empty e-mail and names a malformed one', async () => {
    const empty = await call('admin', 'POST', '/api/users', body({ email: '  ' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([{ path: '/email', message: 'Required' }]);
    const malformed = await call('admin', 'POST', '/api/users', body({ email: 'not-an-address' }));
    expect(malformed.json().details).toEqual([{ path: '/email', message: 'Enter a valid e-mail address' }]);
  });

  it('refuses a role or an organization that does not exist (400)', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await call('admin', 'POST', '/api/users', body({ accessGroupId: missing }))).json()).toEqual({ error: `There is no role with id ${missing}` });
    expect((await call('admin', 'POST', '/api/users', body({ organizationIds: [missing] }))).json()).toEqual({ error: `There is no organization with id ${missing}` });
  });

  it('lets a non-administrator with Users Add add a user to their own organization, without role', async () => {
    const res = await call('managerA', 'POST', '/api/users', body({ email: 'dora@lab.test' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ organizations: [{ id: ids.orgA }], role: null });
  });

  it.each([
    ['a role', { accessGroupId: 'analystRole' }, 403, ROLE_NEEDS_ADMIN],
    ['lockout', { lockedOut: true }, 403, LOCKOUT_NEEDS_ADMIN],
    ['notifications', { receiveNotifications: true }, 403, NOTIFICATIONS_NEED_ADMIN],
    ['scope All', { scope: 'All' }, 403, SCOPE_ALL_NEEDS_ADMIN_ALL],
    ['another organization', { organizationIds: ['orgB'] }, 403, OWN_ORGANIZATIONS_ONLY],
    ['no organization', { organizationIds: [] }, 400, NEW_USER_NEEDS_ORGANIZATION],
  ])('refuses a non-administrator who sets %s on a new user', async (_what, patch, status, message) => {
    const resolved = Object.fromEntries(
      Object.entries(patch).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => ids[x]) : typeof v === 'string' && ids[v] ? ids[v] : v]),
    );
    const res = await call('managerA', 'POST', '/api/users', body(resolved));
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({ error: message });
  });
});

describe('changing a user', () => {
  it('saves a change with the version read, and refuses a stale version (409)', async () => {
    const before = await read(ids.alice!);
    const saved = await call('managerA', 'PUT', `/api/users/${ids.alice}`, unchanged(before, { firstName: 'Alice' }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ firstName: 'Alice', version: before.version + 1 });
    const stale = await call('managerA', 'PUT', `/api/users/${ids.alice}`, unchanged(before, { firstName: 'Alicia' }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toContain('changed by someone else');
  });

  it('lets only a user with Users Edit and scope All change organizations', async () => {
    const before = await read(ids.alice!);
    const moved = unchanged(before, { organizationIds: [ids.orgA, ids.orgB] });
    for (const who of ['managerA', 'orgAdmin']) {
      const res = await call(who, 'PUT', `/api/users/${ids.alice}`, moved);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: ORGANIZATIONS_NEED_EDIT_ALL });
    }
    const res = await call('managerAll', 'PUT', `/api/users/${ids.alice}`, moved);
    expect(res.statusCode).toBe(200);
    expect((res.json() as UserRecord).organizations.map((o) => o.name)).toEqual(['Alpha Lab', 'Beta Lab']);
  });

  it('lets only administrators change role, lockout and notifications', async () => {
    const before = await read(ids.alice!);
    const attempts = [
      [{ accessGroupId: null }, ROLE_NEEDS_ADMIN],
      [{ lockedOut: true }, LOCKOUT_NEEDS_ADMIN],
      [{ receiveNotifications: true }, NOTIFICATIONS_NEED_ADMIN],
    ] as const;
    for (const [patch, message] of attempts) {
      const res = await call('managerAll', 'PUT', `/api/users/${ids.alice}`, unchanged(before, patch));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: message });
    }
    const res = await call('orgAdmin', 'PUT', `/api/users/${ids.alice}`, unchanged(before, { receiveNotifications: true, accessGroupId: ids.adminRole }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ receiveNotifications: true, role: { name: 'Administrator' } });
    // Back to analyst for the tests below.
    await call('admin', 'PUT', `/api/users/${ids.alice}`, unchanged(await read(ids.alice!), { accessGroupId: ids.analystRole }));
  });

  it("keeps a non-administrator out of an administrator's account", async () => {
    const res = await call('managerA', 'PUT', `/api/users/${ids.orgAdmin}`, unchanged(await read(ids.orgAdmin!), { firstName: 'Mallory' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: ADMIN_ACCOUNT_NEEDS_ADMIN });
  });

  it('lets only an administrator with scope All give scope All', async () => {
    const before = await read(ids.alice!);
    for (const who of ['orgAdmin', 'managerAll']) {
      const res = await call(who, 'PUT', `/api/users/${ids.alice}`, unchanged(before, { scope: 'All' }));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: SCOPE_ALL_NEEDS_ADMIN_ALL });
    }
    const res = await call('admin', 'PUT', `/api/users/${ids.alice}`, unchanged(before, { scope: 'All' }));
    expect(res.json()).toMatchObject({ scope: 'All' });
    await call('admin', 'PUT', `/api/users/${ids.alice}`, unchanged(await read(ids.alice!), { scope: 'Organization' }));
  });

  it('locks a user out, which ends their access at once, and lets them back in', async () => {
    const locked = await call('admin', 'PUT', `/api/users/${ids.alice}`, unchanged(await read(ids.alice!), { lockedOut: true }));
    expect(locked.json()).toMatchObject({ lockedOut: true });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, ids.alice!));
    expect(row!.lockedAt).toBeInstanceOf(Date);
    expect((await call('alice', 'GET', '/api/me')).statusCode).toBe(401);
    const unlocked = await call('admin', 'PUT', `/api/users/${ids.alice}`, unchanged(await read(ids.alice!), { lockedOut: false }));
    expect(unlocked.json()).toMatchObject({ lockedOut: false });
    expect((await call('alice', 'GET', '/api/me')).statusCode).toBe(200);
  });

  it('refuses to let anyone lock themselves out or drop their own administrator role (409)', async () => {
    const self = await read(ids.orgAdmin!);
    const lock = await call('orgAdmin', 'PUT', `/api/users/${ids.orgAdmin}`, unchanged(self, { lockedOut: true }));
    expect(lock.statusCode).toBe(409);
    expect(lock.json()).toEqual({ error: CANNOT_LOCK_SELF });
    const demote = await call('orgAdmin', 'PUT', `/api/users/${ids.orgAdmin}`, unchanged(self, { accessGroupId: ids.analystRole }));
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ error: CANNOT_DROP_OWN_ADMIN });
  });

  it('keeps every change, lockout, password and deletion of a user with scope All from an administrator of one organization', async () => {
    const admin = await read(ids.admin!);
    const attempts = [
      ['PUT', `/api/users/${ids.admin}`, unchanged(admin, { accessGroupId: ids.analystRole })],
      ['PUT', `/api/users/${ids.admin}`, unchanged(admin, { lockedOut: true })],
      ['PUT', `/api/users/${ids.admin}`, unchanged(admin, { scope: 'Organization' })],
      ['DELETE', `/api/users/${ids.admin}`],
      ['POST', `/api/users/${ids.admin}/password`, { password: 'a long enough passphrase' }],
      ['POST', `/api/users/${ids.admin}/password-link`],
      // A new e-mail would lock the administrator out (or hand their account to whoever reads it).
      ['PUT', `/api/users/${ids.admin}`, unchanged(admin, { email: 'mallory@lab.test' })],
      ['PUT', `/api/users/${ids.admin}`, unchanged(admin, { firstName: 'Mallory' })],
    ] as const;
    for (const [method, url, payload] of attempts) {
      const res = await call('orgAdmin', method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ error: SCOPE_ALL_ACCOUNT_NEEDS_SCOPE_ALL });
    }
    expect(await read(ids.admin!)).toEqual(admin);
  });

  it('keeps scope and role of a user with scope All with administrators with scope All, and their account with administrators', async () => {
    const manager = await read(ids.managerAll!);
    const narrowed = await call('managerAll', 'PUT', `/api/users/${ids.managerAll}`, unchanged(manager, { scope: 'Organization' }));
    expect(narrowed.statusCode).toBe(403);
    expect(narrowed.json()).toEqual({ error: SCOPE_ALL_ACCOUNT_NEEDS_ADMIN_ALL });
    const admin = await read(ids.admin!);
    const res = await call('managerAll', 'PUT', `/api/users/${ids.admin}`, unchanged(admin, { email: 'mallory@lab.test' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: ADMIN_ACCOUNT_NEEDS_ADMIN });
    const renamed = await call('admin', 'PUT', `/api/users/${ids.managerAll}`, unchanged(manager, { firstName: 'Maja' }));
    expect(renamed.statusCode).toBe(200);
  });

  it('refuses a change that leaves no unlocked administrator with scope All (409), and writes nothing', async () => {
    const admin = await read(ids.admin!);
    const res = await call('admin', 'PUT', `/api/users/${ids.admin}`, unchanged(admin, { scope: 'Organization' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: LAST_ADMINISTRATOR_MESSAGE });
    expect(await read(ids.admin!)).toEqual(admin);
  });
});

describe('deleting a user', () => {
  it('is for administrators only, never oneself, and only for users they can see', async () => {
    const victim = (await (await call('admin', 'POST', '/api/users', body())).json()) as UserRecord;
    expect((await call('managerAll', 'DELETE', `/api/users/${victim.id}`)).statusCode).toBe(403);
    expect((await call('orgAdmin', 'DELETE', `/api/users/${ids.bob}`)).statusCode).toBe(404);
    const self = await call('admin', 'DELETE', `/api/users/${ids.admin}`);
    expect(self.statusCode).toBe(409);
    expect(self.json()).toEqual({ error: CANNOT_DELETE_SELF });
    expect((await call('orgAdmin', 'DELETE', `/api/users/${victim.id}`)).statusCode).toBe(204);
    expect((await call('admin', 'GET', `/api/users/${victim.id}`)).statusCode).toBe(404);
  });
});

describe('form options', () => {
  it('offers roles to administrators only, and every organization only to Users Edit with scope All', async () => {
    const admin = (await call('orgAdmin', 'GET', '/api/users/form-options')).json();
    expect(admin.roles.map((r: { name: string }) => r.name)).toEqual(['Administrator', 'Analyst', 'User manager']);
    expect(admin.organizations).toEqual([{ id: ids.orgA, name: 'Alpha Lab' }]);
    expect(admin.passwordsManagedHere).toBe(true);
    const manager = (await call('managerAll', 'GET', '/api/users/form-options')).json();
    expect(manager.roles).toEqual([]);
    expect(manager.organizations.map((o: { name: string }) => o.name)).toEqual(['Alpha Lab', 'Beta Lab']);
  });
});

describe('passwords (embedded provider)', () => {
  it('lets an administrator set a password of at least 12 characters', async () => {
    const short = await call('admin', 'POST', `/api/users/${ids.bob}/password`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().details).toEqual([{ path: '/password', message: 'At least 12 characters' }]);
    expect((await call('admin', 'POST', `/api/users/${ids.bob}/password`, { password: 'a long enough passphrase' })).statusCode).toBe(204);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, ids.bob!));
    expect(await verifyPassword('a long enough passphrase', row!.passwordHash)).toBe(true);
    expect((await read(ids.bob!)).hasPassword).toBe(true);
  });

  it('refuses password calls from non-administrators (403) and for users out of reach (404)', async () => {
    expect((await call('managerAll', 'POST', `/api/users/${ids.bob}/password`, { password: 'a long enough passphrase' })).statusCode).toBe(403);
    expect((await call('managerAll', 'POST', `/api/users/${ids.bob}/password-link`)).statusCode).toBe(403);
    expect((await call('orgAdmin', 'POST', `/api/users/${ids.bob}/password-link`)).statusCode).toBe(404);
  });

  it('issues a one-time link valid for 72 hours, keeps only its hash, and retires the previous link', async () => {
    const first = await call('admin', 'POST', `/api/users/${ids.bob}/password-link`);
    expect(first.statusCode).toBe(201);
    const { url, expiresAt } = first.json() as { url: string; expiresAt: string };
    expect(url).toMatch(/^http:\/\/localhost:8080\/oidc\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(71.9 * 3600_000);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(72 * 3600_000);
    const token = new URL(url).searchParams.get('token')!;
    const stored = await t.database.db.select().from(passwordLinks).where(eq(passwordLinks.userId, ids.bob!));
    expect(stored.map((s) => s.tokenHash)).toEqual([createHash('sha256').update(token).digest('base64url')]);
    expect(await passwordLinkAccount(t.database.db, { now: () => new Date() }, token)).toBe('bob@lab.test');

    const second = (await call('admin', 'POST', `/api/users/${ids.bob}/password-link`)).json() as { url: string };
    expect(await passwordLinkAccount(t.database.db, { now: () => new Date() }, token)).toBeUndefined();
    expect(await passwordLinkAccount(t.database.db, { now: () => new Date() }, new URL(second.url).searchParams.get('token')!)).toBe('bob@lab.test');
  });

  it('lets a user change their own password after giving the current one', async () => {
    const wrong = await call('bob', 'PUT', '/api/me/password', { currentPassword: 'not it at all', newPassword: 'another long passphrase' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: WRONG_CURRENT_PASSWORD });
    const short = await call('bob', 'PUT', '/api/me/password', { currentPassword: 'a long enough passphrase', newPassword: 'short' });
    expect(short.statusCode).toBe(400);
    const ok = await call('bob', 'PUT', '/api/me/password', { currentPassword: 'a long enough passphrase', newPassword: 'another long passphrase' });
    expect(ok.statusCode).toBe(204);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, ids.bob!));
    expect(await verifyPassword('another long passphrase', row!.passwordHash)).toBe(true);
  });
});

describe('passwords under an external identity provider', () => {
  it('answers every password call with 409: the provider manages them', async () => {
    const external = await createTestApp({
      config: testConfig({ OIDC_ISSUER: 'https://id.example.org/realms/lab', OIDC_CLIENT_ID: 'locus', OIDC_AUDIENCE: 'locus-api' }),
    });
    try {
      const db = external.database.db;
      const admin = await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id });
      // The external provider's subject is bound to the user by e-mail on first use.
      const headers = { authorization: `Bearer ${external.verifier.issue('external-subject-1', { email: admin.email })}` };
      const calls = [
        { method: 'POST', url: `/api/users/${admin.id}/password`, payload: { password: 'a long enough passphrase' } },
        { method: 'POST', url: `/api/users/${admin.id}/password-link` },
        { method: 'PUT', url: '/api/me/password', payload: { currentPassword: 'whatever it is', newPassword: 'a long enough passphrase' } },
      ] as const;
      for (const c of calls) {
        const res = await external.app.inject({ ...c, headers });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ error: EXTERNAL_PASSWORDS });
      }
    } finally {
      await external.close();
    }
  });
});
