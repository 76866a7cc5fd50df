/**
 * Issue 18: the verbal scale an organization's reports state each LR with — ENFSI 2015 by default, SWGDAM 2018 or
 * none — read by whoever reads the organization, chosen by its administrator with the organization's version,
 * refused with a 400 naming the field for an unknown scale, audited.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, organizations } from '../../../../server/db/schema';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { createAccessGroup, createUser } from '../../../helpers/factories';

let t: TestApp;
let orgId: string;
const tokens = {} as Record<'admin' | 'analyst', string>;

const call = (who: keyof typeof tokens, method: 'GET' | 'PUT', payload?: object) =>
  t.app.inject({ method, url: `/api/organizations/${orgId}/report-settings`, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [org] = await db.insert(organizations).values({ name: 'Scale Lab' }).returning();
  orgId = org!.id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const staff = await createAccessGroup(db, { grants: { Organizations: ['Read'], Cases: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: staff.id, organizationIds: [orgId] })).id);
}, 60_000);
afterAll(() => t.close());

describe('an organization’s verbal scale', () => {
  it('is ENFSI 2015 until the administrator chooses another, and the change is audited', async () => {
    const read = await call('analyst', 'GET');
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({ verbalScale: 'enfsi-2015', version: 1 });

    const changed = await call('admin', 'PUT', { verbalScale: 'swgdam-2018', version: 1 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({ verbalScale: 'swgdam-2018', version: 2 });
    expect((await call('analyst', 'GET')).json()).toEqual({ verbalScale: 'swgdam-2018', version: 2 });

    const audit = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, orgId), eq(auditLog.action, 'Edited (report-settings)')));
    expect(audit.map((a) => [a.before, a.after])).toEqual([[{ verbalScale: 'enfsi-2015', version: 1 }, { verbalScale: 'swgdam-2018', version: 2 }]]);
  });

  it('refuses a stale version (409), an unknown scale (400 naming the field) and a user without Organizations Edit (403)', async () => {
    const stale = await call('admin', 'PUT', { verbalScale: 'none', version: 1 });
    expect(stale.statusCode).toBe(409);
    const unknown = await call('admin', 'PUT', { verbalScale: 'made-up', version: 2 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('verbalScale');
    expect(unknown.body).toContain('enfsi-2015, swgdam-2018, none');
    expect((await call('analyst', 'PUT', { verbalScale: 'none', version: 2 })).statusCode).toBe(403);
    expect((await call('analyst', 'GET')).json()).toEqual({ verbalScale: 'swgdam-2018', version: 2 });
  });

  it('can be none: the reports then print the LR alone', async () => {
    const none = await call('admin', 'PUT', { verbalScale: 'none', version: 2 });
    expect(none.json()).toEqual({ verbalScale: 'none', version: 3 });
  });
});
