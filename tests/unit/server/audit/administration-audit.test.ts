import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../../../../server/audit/audit-trail';
import { auditLog } from '../../../../server/db/schema';
import { createAccessGroup, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createAccessGroup(t.database.db, { isAdmin: true });
  token = t.verifier.issue((await createUser(t.database.db, { scope: 'All', accessGroupId: admin.id })).id);
}, 60_000);
afterAll(() => t.close());

const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
const lastRows = (n: number) => t.database.db.select().from(auditLog).orderBy(desc(auditLog.seq)).limit(n);

describe('the audit trail of administration', () => {
  it('records who added, changed and deleted a marker, with its state after each write', async () => {
    const added = await call('POST', '/api/markers', { name: 'D99S999', kind: 'Autosomal', aliases: [], multiCopy: false });
    expect(added.statusCode).toBe(201);
    const id = (added.json() as { id: string }).id;
    await call('PUT', `/api/markers/${id}`, { name: 'D99S998', kind: 'Autosomal', aliases: ['D99'], multiCopy: false, version: 1 });
    await call('DELETE', `/api/markers/${id}`);
    const rows = (await lastRows(3)).reverse();
    expect(rows.map((r) => [r.entity, r.entityId, r.action, r.userName])).toEqual([
      ['markers', id, 'Added', 'Test User'],
      ['markers', id, 'Edited', 'Test User'],
      ['markers', id, 'Deleted', 'Test User'],
    ]);
    expect(rows[1]!.after).toMatchObject({ name: 'D99S998', aliases: ['D99'] });
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ brokenAt: null });
  });

  it('records nothing for a refused write', async () => {
    const before = await t.database.db.$count(auditLog);
    expect((await call('POST', '/api/markers', { name: '', kind: 'Autosomal', aliases: [], multiCopy: false })).statusCode).toBe(400);
    expect(await t.database.db.$count(auditLog)).toBe(before);
  });

  it('never keeps a set-password link in the trail', async () => {
    const user = await createUser(t.database.db, { scope: 'All' });
    const res = await call('POST', `/api/users/${user.id}/password-link`);
    expect(res.statusCode, res.body).toBeLessThan(300);
    const [row] = await lastRows(1);
    expect(row!.action).toBe('Added (password-link)');
    expect(JSON.stringify(row!.after)).not.toMatch(/[A-Za-z0-9_-]{32,}/);
  });
});
