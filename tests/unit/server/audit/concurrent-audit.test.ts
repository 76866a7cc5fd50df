/**
 * Issue 30: on PostgreSQL, concurrent administration writes forked the audit trail (30 parallel POST /api/laboratories
 * gave 6 forks) because their rows were appended after the response, outside the write's transaction. Every audited
 * write now appends in its own transaction under the chain lock: 200 concurrent writes of every audited kind leave a
 * trail the export verifies, without a fork.
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../core/schemas/profiles';
import { verifyAuditRows } from '../../../../server/audit/verify-audit-rows';
import type { Database } from '../../../../server/db/database';
import { analyses, auditLog, caseTypes, chemistries } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { freshPostgres } from '../../../helpers/database';

type Who = 'admin' | 'analyst' | 'reviewer';
let t: TestApp;
const tokens = {} as Record<Who, string>;
let orgId: string;
let caseId: string;
let chemistryId: string;
let caseTypeId: string;

const call = (who: Who, method: 'POST' | 'PUT', url: string, payload: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, payload });

async function enter(profileId: string): Promise<Profile> {
  const res = await call('analyst', 'POST', '/api/profiles', { caseId, chemistryId, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { items: Profile[] }).items[0]!;
}

beforeAll(async () => {
  const database: Database = await freshPostgres();
  t = await createTestApp({ database });
  const db = database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Busy Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const staff = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Hits: ['Read', 'Publish'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: staff.id, organizationIds: [orgId] })).id);
  tokens.reviewer = t.verifier.issue((await createUser(db, { accessGroupId: staff.id, organizationIds: [orgId] })).id);
  caseTypeId = (await db.select().from(caseTypes).limit(1))[0]!.id;
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const res = await call('analyst', 'POST', '/api/cases', { caseNumber: 'BUSY-1', caseTypeId, organizationId: orgId, assignedUserIds: [] });
  caseId = res.json().id as string;
}, 120_000);
afterAll(() => t.close());

describe('the audit trail under concurrent writes on PostgreSQL', () => {
  it('stays one chain through 200 concurrent writes of every audited kind, and the export verifies it', async () => {
    const db = t.database.db;
    const N = 25;
    // Records the concurrent reviews decide: profiles to reject, hits to publish.
    const toReject: Profile[] = [];
    for (let i = 0; i < N; i++) toReject.push(await enter(`REJ-${i}`));
    const [identity] = await db.select().from(analyses).where(eq(analyses.name, 'Identity'));
    const stain = await enter('HIT-STAIN');
    const hitsToPublish: { id: string; version: number }[] = [];
    for (let i = 0; i < N; i++) {
      const reference = await enter(`HIT-REF-${i}`);
      const [hit] = await db.transaction((tx) =>
        recordHitCandidates(tx as never, { organizationId: orgId, candidates: [{ analysisId: identity!.id, populationId: null, combinedIndex: 1e9, markerCount: 4, nonExclusionMarkerCount: null, profiles: [{ role: 'Evidence', profileId: stain.id }, { role: 'Reference', profileId: reference.id }] }] }),
      );
      hitsToPublish.push(hit!);
    }
    const before = await db.$count(auditLog);

    const writes = Array.from({ length: N }, (_, i) => [
      call('admin', 'POST', '/api/laboratories', { name: `Busy laboratory ${i}` }),
      call('admin', 'POST', '/api/users', { email: `busy-${i}@lab.test`, firstName: 'Busy', lastName: `User ${i}`, scope: 'Organization', organizationIds: [orgId], accessGroupId: null, lockedOut: false, receiveNotifications: false }),
      call('admin', 'POST', '/api/case-types', { name: `Busy case type ${i}` }),
      call('analyst', 'POST', '/api/cases', { caseNumber: `BUSY-C-${i}`, caseTypeId, organizationId: orgId, assignedUserIds: [] }),
      call('analyst', 'POST', `/api/cases/${caseId}/involved-parties`, { title: `Party ${i}`, role: 'witness', name: `Witness ${i}`, identifiers: [], description: '' }),
      call('analyst', 'POST', '/api/profiles', { caseId, chemistryId, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: `BUSY-P-${i}`, markerValues: [] }] }),
      call('reviewer', 'POST', '/api/profiles/bulk-review', { action: 'reject', reason: 'Contaminated run', items: [{ id: toReject[i]!.id, version: toReject[i]!.version }] }),
      call('reviewer', 'POST', '/api/hits/bulk-decision', { action: 'publish', comments: 'Confirmed', notify: false, items: [{ id: hitsToPublish[i]!.id, version: hitsToPublish[i]!.version }] }),
    ]).flat();
    expect(writes).toHaveLength(200);
    const answers = await Promise.all(writes);
    for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(300);

    const rows = await db.select().from(auditLog).orderBy(asc(auditLog.seq));
    expect(rows.length - before).toBe(200);
    // Each kind left its rows, each in the chain.
    const added = rows.slice(before);
    for (const entity of ['laboratories', 'users', 'case-types', 'Case', 'InvolvedParty', 'Profile', 'Hit']) expect(added.some((r) => r.entity === entity), entity).toBe(true);
    expect(new Set(rows.map((r) => r.prevHash)).size).toBe(rows.length);
    const verdict = await verifyAuditRows(db, rows);
    expect(verdict).toMatchObject({ intact: true, forks: [] });
    expect(verdict.text).toBe(`Verified: ${rows.length} rows, chain intact`);
  }, 300_000);
});
