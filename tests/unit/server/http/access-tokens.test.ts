/**
 * Personal access tokens (issue 18): a script or LIMS calls the API with a token its user created, shown once, acting
 * with that user's permissions as they are at each call; expiring, revocable, never kept in clear.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokens, auditLog, users } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

const clock = { current: new Date('2026-11-25T10:00:00Z'), now: () => clock.current };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

async function analyst(grants: NonNullable<Parameters<typeof createAccessGroup>[1]>['grants']) {
  const org = await createOrganization(t.database.db);
  const group = await createAccessGroup(t.database.db, { grants });
  const user = await createUser(t.database.db, { scope: 'Organization', accessGroupId: group.id, organizationIds: [org.id] });
  return { org, group, user, session: { authorization: `Bearer ${t.verifier.issue(user.id)}` } };
}

const create = (headers: Record<string, string>, body: unknown = { name: 'LIMS', expiresInDays: 30 }) => t.app.inject({ method: 'POST', url: '/api/me/access-tokens', headers, payload: body as object });

describe('personal access tokens', () => {
  it('are shown once, listed without the token, and let a script list the organization’s hits', async () => {
    const { org, session } = await analyst({ Hits: ['Read'] });
    const created = await create(session);
    expect(created.statusCode).toBe(201);
    const { token, id, prefix, expiresAt } = created.json() as { token: string; id: string; prefix: string; expiresAt: string };
    expect(token).toMatch(/^locus_pat_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(prefix)).toBe(true);
    expect(expiresAt).toBe('2026-12-25T10:00:00.000Z');
    // The database and the list keep no usable token.
    const [row] = await t.database.db.select().from(accessTokens).where(eq(accessTokens.id, id));
    expect(JSON.stringify(row)).not.toContain(token.slice(14));
    const list = await t.app.inject({ method: 'GET', url: '/api/me/access-tokens', headers: session });
    expect(list.json()).toEqual({ items: [expect.objectContaining({ id, name: 'LIMS', prefix, lastUsedAt: null, revokedAt: null })] });
    expect(list.body).not.toContain(token);

    const hits = await t.app.inject({ method: 'GET', url: `/api/organizations/${org.id}/hits`, headers: { authorization: `Bearer ${token}` } });
    expect(hits.statusCode).toBe(200);
    expect(hits.json()).toEqual({ items: [], count: 0 });
    const listed = await t.app.inject({ method: 'GET', url: '/api/me/access-tokens', headers: session });
    expect(listed.json().items[0].lastUsedAt).toBe('2026-11-25T10:00:00.000Z');
    // The audit trail records the creation, never the token.
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(audit.map((a) => a.action)).toEqual(['Created']);
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it('act with the user’s permissions as they are now, in their organizations only', async () => {
    const { org, session } = await analyst({ Cases: ['Read'] });
    const { token } = (await create(session)).json() as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    // No Hits Read: refused as the user would be.
    expect((await t.app.inject({ method: 'GET', url: `/api/organizations/${org.id}/hits`, headers: auth })).statusCode).toBe(403);
    const other = await createOrganization(t.database.db);
    expect((await t.app.inject({ method: 'GET', url: `/api/organizations/${other.id}/cases`, headers: auth })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/organizations/${org.id}/cases`, headers: auth })).statusCode).toBe(200);
  });

  it('stop working when revoked, expired, or their user is locked; a token cannot create another', async () => {
    const { user, session } = await analyst({ Cases: ['Read'] });
    const first = (await create(session, { name: 'Nightly export', expiresInDays: 1 })).json() as { token: string; id: string };
    const second = (await create(session, { name: 'LIMS', expiresInDays: 365 })).json() as { token: string; id: string };
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me(first.token)).statusCode).toBe(200);

    const minted = await create({ authorization: `Bearer ${first.token}` });
    expect(minted.statusCode).toBe(403);
    expect(minted.json().error).toBe('Personal access tokens are created when signed in, not with another access token.');

    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/me/access-tokens/${first.id}`, headers: session });
    expect(revoked.json().revokedAt).toBe('2026-11-25T10:00:00.000Z');
    expect((await me(first.token)).json()).toEqual({ error: 'This personal access token was revoked' });
    expect((await me(second.token)).statusCode).toBe(200);

    clock.current = new Date('2027-11-26T10:00:00Z');
    try {
      expect((await me(second.token)).json()).toEqual({ error: 'This personal access token has expired' });
    } finally {
      clock.current = new Date('2026-11-25T10:00:00Z');
    }
    await t.database.db.update(users).set({ lockedAt: new Date() }).where(eq(users.id, user.id));
    const locked = await me(second.token);
    expect(locked.statusCode).toBe(401);
    expect(locked.json()).toEqual({ error: 'This account is locked' });
    expect((await me('locus_pat_' + 'x'.repeat(43))).json()).toEqual({ error: 'This personal access token is not valid' });
  });

  it('are the user’s own: another user cannot revoke one, and a name and a life of 1–365 days are required', async () => {
    const owner = await analyst({});
    const stranger = await analyst({});
    const { id } = (await create(owner.session)).json() as { id: string };
    expect((await t.app.inject({ method: 'DELETE', url: `/api/me/access-tokens/${id}`, headers: stranger.session })).statusCode).toBe(404);
    const bad = await create(owner.session, { name: ' ', expiresInDays: 400 });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Give the token a name');
    expect(bad.body).toContain('At most 365 days');
  });
});
