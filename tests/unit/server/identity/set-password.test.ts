import Fastify, { type FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { users } from '../../../../server/db/schema';
import { verifyPassword } from '../../../../server/identity/password';
import { issuePasswordLink } from '../../../../server/identity/password-links';
import { LINK_NOT_VALID, PASSWORDS_DIFFER, SET_PASSWORD_TITLE, setPasswordRoutes } from '../../../../server/identity/set-password';
import { freshPglite } from '../../../helpers/database';
import { createUser } from '../../../helpers/factories';

const ISSUER = 'http://localhost:8080/oidc';
const PASSWORD = 'four unrelated words here';

let database: Database;
let app: FastifyInstance;
let now = new Date('2026-03-02T09:00:00Z');
const clock = { now: () => now };

beforeAll(async () => {
  database = await freshPglite();
  // The page as the embedded provider mounts it (server/identity/index.ts), without the provider.
  app = Fastify();
  await app.register(setPasswordRoutes, { db: database.db, clock, paths: { base: '/oidc', appUrl: 'http://localhost:8080' }, mount: '/oidc' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

async function newLink(email: string) {
  const user = await createUser(database.db, { email, scope: 'All' });
  const { url } = await issuePasswordLink(database.db, clock, user.id, ISSUER);
  return { user, token: new URL(url).searchParams.get('token')!, path: new URL(url).pathname + new URL(url).search };
}

const submit = (fields: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/oidc/set-password', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });

const storedHash = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!.passwordHash;

describe('the set-password page a one-time link opens', () => {
  it('shows a script-free form for the account, with labelled password fields and the token hidden', async () => {
    const { token, path } = await newLink('erin@lab.test');
    const page = await app.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain(`<title>${SET_PASSWORD_TITLE}</title>`);
    expect(page.body).toContain('For erin@lab.test.');
    expect(page.body).toMatch(/<label for="password">New password<\/label>\s*<input id="password" name="password" type="password" autocomplete="new-password"/);
    expect(page.body).toMatch(/<label for="confirm">Repeat the new password<\/label>\s*<input id="confirm" name="confirm" type="password"/);
    expect(page.body).toContain(`<input type="hidden" name="token" value="${token}">`);
    expect(page.body).toContain('action="/oidc/set-password"');
    expect(page.body).not.toMatch(/<script/i);
  });

  it('says the link is not valid for an unknown token', async () => {
    for (const url of ['/oidc/set-password', '/oidc/set-password?token=nonsense', `/oidc/set-password?token=${'A'.repeat(43)}`]) {
      const page = await app.inject({ url });
      expect(page.statusCode).toBe(410);
      expect(page.body).toContain(LINK_NOT_VALID);
    }
  });

  it('refuses two different passwords or a short one, keeping the form', async () => {
    const { user, token } = await newLink('frank@lab.test');
    const differ = await submit({ token, password: PASSWORD, confirm: `${PASSWORD}!` });
    expect(differ.statusCode).toBe(400);
    expect(differ.body).toContain(PASSWORDS_DIFFER);
    expect(differ.body).not.toContain(PASSWORD);
    const short = await submit({ token, password: 'short', confirm: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('At least 12 characters');
    expect(await storedHash(user.id)).toBeNull();
  });

  it('sets the password once; the same link then no longer works', async () => {
    const { user, token, path } = await newLink('grace@lab.test');
    const done = await submit({ token, password: PASSWORD, confirm: PASSWORD });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Your password is set.');
    expect(await verifyPassword(PASSWORD, await storedHash(user.id))).toBe(true);
    expect((await submit({ token, password: 'a second password', confirm: 'a second password' })).statusCode).toBe(410);
    expect((await app.inject({ url: path })).statusCode).toBe(410);
    expect(await verifyPassword(PASSWORD, await storedHash(user.id))).toBe(true);
  });

  it('expires after 72 hours', async () => {
    const { path } = await newLink('heidi@lab.test');
    now = new Date(now.getTime() + 71 * 3600_000);
    expect((await app.inject({ url: path })).statusCode).toBe(200);
    now = new Date(now.getTime() + 2 * 3600_000);
    expect((await app.inject({ url: path })).statusCode).toBe(410);
  });
});
