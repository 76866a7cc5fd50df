/**
 * Issue 32, the upload pipeline between two instances in one process (as instances.test.ts): a local instance A (its
 * own PGlite, the fake token verifier) and a state instance S (its own PGlite, the real embedded provider, listening on
 * a port). A's outbox is written with the approval, reset or deletion; its sender signs the batch and POSTs it to S;
 * S holds the profile under A's laboratory.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BatchEntry } from '../../../../core/schemas/network-delivery';
import type { SampleType } from '../../../../core/schemas/profiles';
import type { Db } from '../../../../server/db/database';
import { auditLog, caseTypes, cases, chemistries, heldProfiles, lowerInstanceOrganizations, lowerInstances, networkAppliedEntries, organizations, profiles, serviceClients, uploadOutbox } from '../../../../server/db/schema';
import { newClientCredentials } from '../../../../server/identity/service-clients';
import { workerPool } from '../../../../server/jobs/worker-pool';
import { signBatch } from '../../../../server/network/batch-signature';
import { LEASE_MS } from '../../../../server/network/upload-sender';
import { upperToken } from '../../../../server/network/upper-instance';
import { caseworkPopulation } from '../../../helpers/casework-population';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { approveAtA, deliverFromA, pendingCoreProfile, startTwoInstances, type TwoInstances } from '../../../helpers/two-instances';

const LAB = 'Local lab A';

let net: TwoInstances;
let upperUrl: string;
let aDb: Db;
let sDb: Db;
let credentials: TwoInstances['credentials'];
const tokens = { admin: '', analyst: '' };
let caseId = '';
let otherCaseId = '';
let seq = 0;

beforeAll(async () => {
  // A's laboratory, registered at S, and one S does not know. This file steps the sender itself (Deliver now);
  // candidate-matches.test.ts covers the wake-up after a change.
  net = await startTwoInstances({ registered: [LAB], unregistered: ['Unregistered lab'], wakeUploadSender: false });
  ({ upperUrl, aDb, sDb, credentials } = net);
  const lab = net.laboratories.get(LAB)!;
  const other = net.laboratories.get('Unregistered lab')!;
  await caseworkPopulation(aDb, [lab]);
  await caseworkPopulation(aDb, [other]);
  tokens.admin = net.adminToken;
  const analysts = await createAccessGroup(aDb, { grants: { Profiles: ['Read', 'Add', 'Edit', 'Reset', 'Delete'], Cases: ['Read'] } });
  tokens.analyst = net.a.verifier.issue((await createUser(aDb, { accessGroupId: analysts.id, organizationIds: [lab, other] })).id);
  const [caseType] = await aDb.select().from(caseTypes).limit(1);
  caseId = (await aDb.insert(cases).values({ caseNumber: 'A-2026-1', caseTypeId: caseType!.id, organizationId: lab }).returning())[0]!.id;
  otherCaseId = (await aDb.insert(cases).values({ caseNumber: 'U-1', caseTypeId: caseType!.id, organizationId: other }).returning())[0]!.id;
}, 120_000);

afterAll(() => net.close());

const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  net.a.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

/** A pending profile at A typed at the 20 core loci with alleles of its own (so no two tests' profiles are alike). */
async function pendingProfile(sampleType: SampleType, opts: { caseId?: string; chemistryId?: string } = {}): Promise<string> {
  const n = ++seq;
  return pendingCoreProfile(net, { name: `S${n}`, sampleType, caseId: opts.caseId ?? caseId, ...(opts.chemistryId ? { chemistryId: opts.chemistryId } : {}), alleles: (position) => (position === 0 ? [String(7 + (n % 8)), '15'] : ['11', '12']) });
}

const approve = (id: string) => approveAtA(net, tokens.analyst, id);
const deliver = () => deliverFromA(net);
const outboxOf = (profileId: string) => aDb.select().from(uploadOutbox).where(eq(uploadOutbox.profileId, profileId)).orderBy(uploadOutbox.id);
const heldAtS = (originProfileId: string) =>
  sDb.select({ held: heldProfiles, profile: profiles, laboratory: organizations.name }).from(heldProfiles).innerJoin(profiles, eq(profiles.id, heldProfiles.profileId)).innerJoin(organizations, eq(organizations.id, heldProfiles.organizationId)).where(eq(heldProfiles.originProfileId, originProfileId));
const postBatch = async (batch: string) =>
  fetch(`${upperUrl}/api/network/batches`, { method: 'POST', headers: { authorization: `Bearer ${await upperToken(credentials)}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });

describe('the upload pipeline from a local to a state instance (issue 32)', () => {
  it('queues nothing for a profile the level’s rules do not upload, and does not block its approval', async () => {
    const victim = await pendingProfile('Victim, Known');
    await approve(victim);
    expect(await outboxOf(victim)).toEqual([]);
  });

  it('sends an approved eligible stain up in the approval’s transaction; S holds it under A’s laboratory, approved, with its origin', async () => {
    const stain = await pendingProfile('Forensic, Unknown');
    await approve(stain);
    const [entry] = await outboxOf(stain);
    expect(entry).toMatchObject({ action: 'upload', laboratory: LAB, specimenId: expect.stringMatching(/^S\d+$/), deliveredAt: null });
    const answer = await deliver();
    expect(answer.backlog).toMatchObject({ waiting: 0, failed: 0, oldestWaitingSeconds: null });
    expect((await outboxOf(stain))[0]!.deliveredAt).not.toBeNull();
    const [held] = await heldAtS(stain);
    expect(held).toMatchObject({ laboratory: LAB, held: { specimenId: entry!.specimenId }, profile: { status: 'approved', sampleType: 'Forensic, Unknown', profileId: entry!.specimenId } });
    const [heldCase] = await sDb.select().from(cases).where(eq(cases.id, held!.profile.caseId));
    expect(heldCase!.caseNumber).toBe('A-2026-1');
    const trail = await sDb.select().from(auditLog).where(and(eq(auditLog.entity, 'Profile'), eq(auditLog.entityId, held!.profile.id))).orderBy(auditLog.seq);
    expect(trail.map((r) => r.action)).toEqual(['Received from lower instance']);
    // In S's index: S's own search rules run over it.
    expect(net.upper.searchRuntime.matcher().indexes.find(held!.profile.id)).toBeDefined();
    expect(trail[0]!.after).toMatchObject({ instance: 'Instance A', laboratory: LAB, specimenId: entry!.specimenId, originProfileId: stain });
  });

  it('signs the batch at A and verifies and reads it at S on worker threads, off the threads that answer requests', async () => {
    // A batch of 500 is about 4 MB to sign and verify: up to a second of an event loop in the replication bench.
    const signing = workerPool(new URL('../../../../server/network/batch-sign-worker.ts', import.meta.url));
    const reading = workerPool(new URL('../../../../server/network/batch-read-worker.ts', import.meta.url));
    const before = { signed: signing.completed, read: reading.completed };
    const run = vi.spyOn(reading, 'run');
    const stain = await pendingProfile('Forensic, Unknown');
    await approve(stain);
    try {
      await deliver();
      // The documents stay on the worker: only what was read from them comes back to S's request thread.
      const read = (await run.mock.results[0]!.value) as { content: { entries: object[] }; reads: [string, unknown][] };
      expect(read.content.entries.filter((e) => 'cmf' in e)).toEqual([]);
      expect(read.reads.map(([key]) => key)).toEqual(read.content.entries.map((e) => (e as { idempotencyKey: string }).idempotencyKey));
    } finally {
      run.mockRestore();
    }
    expect(await heldAtS(stain)).toHaveLength(1);
    expect({ signed: signing.completed - before.signed, read: reading.completed - before.read }).toEqual({ signed: 1, read: 1 });
  });

  it('searches a batch’s held profiles at S in a few worker tasks, not one per profile, each profile once', async () => {
    // Handing each held profile's search to a worker cost S's event loop about 1.3 ms a profile (issue 32's bench).
    const profilesSent = 24;
    const sent = [];
    for (let i = 0; i < profilesSent; i++) sent.push(await pendingProfile(i % 2 === 0 ? 'Convicted Offender' : 'Forensic, Unknown'));
    for (const id of sent) await approve(id);
    const { pool, queue } = net.upper.searchRuntime;
    const run = vi.spyOn(pool, 'run');
    try {
      await deliver();
      await queue.idle();
      const tasks = run.mock.calls.map((c) => c[2]).filter((t) => t.task === 'rules');
      // Each search loop (one per thread) takes its share of the batch and splits it over the threads.
      expect(tasks.length).toBeLessThanOrEqual(pool.threads ** 2);
      expect(tasks.length).toBeLessThan(profilesSent);
      const searched = tasks.flatMap((t) => (t.task === 'rules' ? t.searches.map((s) => s.profile.id) : []));
      const held = await sDb.select({ id: profiles.id, searchedAt: profiles.searchedAt, reviewedAt: profiles.reviewedAt }).from(heldProfiles).innerJoin(profiles, eq(profiles.id, heldProfiles.profileId)).where(inArray(heldProfiles.originProfileId, sent));
      expect(held).toHaveLength(profilesSent);
      expect(searched.sort()).toEqual(held.map((h) => h.id).sort());
      expect(held.every((h) => h.searchedAt !== null && h.searchedAt.getTime() === h.reviewedAt?.getTime())).toBe(true);
    } finally {
      run.mockRestore();
    }
  });

  it('a search that fails in a group fails alone: the others of its worker task are searched again one by one', async () => {
    const sent = [];
    for (let i = 0; i < 6; i++) sent.push(await pendingProfile(i % 2 === 0 ? 'Convicted Offender' : 'Forensic, Unknown'));
    for (const id of sent) await approve(id);
    await deliver();
    const { pool, queue } = net.upper.searchRuntime;
    await queue.idle();
    // The six held profiles searched again as S's start-up resumes them: queued in one turn, so the loops take them as
    // groups of three and hand each thread a share of more than one search.
    const held = await sDb.select({ id: profiles.id, profileId: profiles.profileId, organizationId: profiles.organizationId, origin: heldProfiles.originProfileId }).from(heldProfiles).innerJoin(profiles, eq(profiles.id, heldProfiles.profileId)).where(inArray(heldProfiles.originProfileId, sent));
    expect(held).toHaveLength(sent.length);
    await sDb.update(profiles).set({ searchedAt: null }).where(inArray(profiles.id, held.map((h) => h.id)));
    const ordered = sent.map((origin) => held.find((h) => h.origin === origin)!);
    // Each group of three goes to the threads as shares of one and two: the fifth profile shares its task with the sixth.
    const bad = ordered[4]!.id;
    const original = pool.run.bind(pool);
    const failedShares: number[] = [];
    // A search no model can weigh (an error at a worker) stands in for the one failing profile.
    const run = vi.spyOn(pool, 'run').mockImplementation(async (...args: Parameters<typeof pool.run>) => {
      const task = args[2];
      if (task.task === 'rules' && task.searches.some((s) => s.profile.id === bad)) {
        failedShares.push(task.searches.length);
        throw new Error('No chosen population can weigh this evidence');
      }
      return original(...args);
    });
    try {
      for (const h of ordered) queue.enqueue(h);
      await queue.idle();
      expect(Math.max(...failedShares)).toBeGreaterThan(1);
      const after = await sDb.select({ id: profiles.id, searchedAt: profiles.searchedAt }).from(profiles).where(inArray(profiles.id, held.map((h) => h.id)));
      expect(after.filter((h) => h.searchedAt === null).map((h) => h.id)).toEqual([bad]);
      expect(queue.list(null).find((j) => j.profileId === bad)).toMatchObject({ status: 'failed', error: 'No chosen population can weigh this evidence' });
    } finally {
      run.mockRestore();
    }
  });

  it('refuses a batch with a forged signature, and applies a replayed batch only once', async () => {
    const stain = await pendingProfile('Forensic, Unknown');
    await approve(stain);
    const [entry] = await outboxOf(stain);
    // Taken out of the sender's hands: this test sends the entry itself.
    await aDb.update(uploadOutbox).set({ deliveredAt: new Date() }).where(eq(uploadOutbox.id, entry!.id));
    const content = { batchId: randomUUID(), entries: [{ idempotencyKey: entry!.idempotencyKey, action: 'upload', profileId: stain, laboratory: LAB, specimenId: entry!.specimenId, ...(entry!.payload as object) } as BatchEntry] };

    const forged = await postBatch(await signBatch(content, credentials.clientId, `${credentials.clientSecret}-forged`));
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: string }).error).toBe('The batch’s signature does not verify: it was altered, or not signed with this client’s credentials');
    expect(await heldAtS(stain)).toEqual([]);

    const signed = await signBatch(content, credentials.clientId, credentials.clientSecret);
    const first = await postBatch(signed);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ batchId: content.batchId, status: 'applied', entries: [{ idempotencyKey: entry!.idempotencyKey, outcome: 'applied' }] });
    const again = await postBatch(signed);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { status: string }).status).toBe('already applied');
    // The same entry in a batch of another id (its answer lost, sent again) is not applied twice either.
    const resent = await postBatch(await signBatch({ ...content, batchId: randomUUID() }, credentials.clientId, credentials.clientSecret));
    expect(((await resent.json()) as { entries: unknown }).entries).toEqual([{ idempotencyKey: entry!.idempotencyKey, outcome: 'already applied' }]);
    expect(await heldAtS(stain)).toHaveLength(1);
    const received = await sDb.select().from(auditLog).where(and(eq(auditLog.entity, 'Profile'), eq(auditLog.action, 'Received from lower instance'), sql`${auditLog.after}->>'originProfileId' = ${stain}`));
    expect(received).toHaveLength(1);
    const refusals = await sDb.select().from(auditLog).where(and(eq(auditLog.entity, 'NetworkBatch'), eq(auditLog.action, 'Refused'))).orderBy(auditLog.seq);
    expect(refusals.map((r) => JSON.stringify(r.after))).toEqual([expect.stringContaining('signature does not verify'), expect.stringContaining('replayed')]);
  });

  it('refuses an unknown laboratory and a kit S lacks by name, applies nothing of that batch, and delivers the rest', async () => {
    const [homeBrew] = await aDb.insert(chemistries).values({ name: 'HomeBrew 24', kind: 'Autosomal' }).returning();
    const unknownLab = await pendingProfile('Convicted Offender', { caseId: otherCaseId });
    const unknownKit = await pendingProfile('Convicted Offender', { chemistryId: homeBrew!.id });
    const fine = await pendingProfile('Convicted Offender');
    for (const id of [unknownLab, unknownKit, fine]) await approve(id);
    const answer = await deliver();
    expect(answer.backlog).toMatchObject({ waiting: 0, failed: 2 });
    const failed = Object.fromEntries(answer.items.filter((i) => i.state === 'failed').map((i) => [i.profileId, i.lastError]));
    expect(failed).toEqual({
      [unknownLab]: 'Unknown laboratory "Unregistered lab": it is not registered here for the lower instance "Instance A"',
      [unknownKit]: expect.stringMatching(/^Profile S\d+: this level has no kit HomeBrew 24; add the kit here/),
    });
    expect(await heldAtS(unknownLab)).toEqual([]);
    expect(await heldAtS(unknownKit)).toEqual([]);
    expect(await heldAtS(fine)).toHaveLength(1);
    const health = (await net.a.app.inject({ method: 'GET', url: '/api/health' })).json() as { uploads: unknown };
    expect(health.uploads).toMatchObject({ waiting: 0, failed: 2 });
    // Reset at A, the refused upload is out of date: it leaves the outbox rather than wait for a retry that would undo the reset at S.
    const [row] = await aDb.select().from(profiles).where(eq(profiles.id, unknownKit));
    expect((await call('analyst', 'POST', `/api/profiles/${unknownKit}/reset`, { comments: 'Retyped', version: row!.version })).statusCode).toBe(200);
    expect((await outboxOf(unknownKit)).map((e) => e.action)).toEqual(['reset']);
    expect((await deliver()).backlog).toMatchObject({ waiting: 0, failed: 1 });
  });

  it('keeps an entry while S is down, retries after the backoff once S is back, and S applies it once', async () => {
    await net.closeUpper();
    const stain = await pendingProfile('Forensic, Unknown');
    await approve(stain);
    const down = await deliver();
    expect(down.backlog).toMatchObject({ waiting: 1, retrying: 1 });
    const [waiting] = await outboxOf(stain);
    expect(waiting!.lastError).toMatch(/^The upper instance at http:\/\/127\.0\.0\.1:\d+ could not be reached/);
    expect(waiting!.attempts).toBe(1);
    await net.startUpper();
    // Not due yet: the backoff holds it even with S back.
    expect((await deliver()).backlog.waiting).toBe(1);
    net.advance(31_000);
    expect((await deliver()).backlog).toMatchObject({ waiting: 0, retrying: 0 });
    const [delivered] = await outboxOf(stain);
    expect(delivered).toMatchObject({ attempts: 2, lastError: null });
    expect(await heldAtS(stain)).toHaveLength(1);
    expect(await sDb.select().from(networkAppliedEntries).where(eq(networkAppliedEntries.idempotencyKey, delivered!.idempotencyKey))).toHaveLength(1);
  }, 60_000);

  it('sends an entry a stopped sender had claimed once its lease runs out (A restarted mid-delivery)', async () => {
    const stain = await pendingProfile('Forensic, Unknown');
    await approve(stain);
    // As a sender leaves it when its process stops between claiming and sending.
    await aDb.update(uploadOutbox).set({ attempts: 1, nextAttemptAt: new Date(net.clock.now().getTime() + LEASE_MS) }).where(eq(uploadOutbox.profileId, stain));
    expect((await deliver()).backlog.waiting).toBe(1);
    expect(await heldAtS(stain)).toEqual([]);
    net.advance(LEASE_MS + 1000);
    expect((await deliver()).backlog.waiting).toBe(0);
    expect(await heldAtS(stain)).toHaveLength(1);
  });

  it('expunges at S a profile reset and deleted at A, with both audit trails saying so', async () => {
    const offender = await pendingProfile('Convicted Offender');
    await approve(offender);
    await deliver();
    const [held] = await heldAtS(offender);
    expect(held).toBeDefined();
    const [row] = await aDb.select().from(profiles).where(eq(profiles.id, offender));
    expect((await call('analyst', 'POST', `/api/profiles/${offender}/reset`, { comments: 'Expungement order', version: row!.version })).statusCode).toBe(200);
    expect((await call('analyst', 'DELETE', `/api/profiles/${offender}`)).statusCode).toBe(204);
    expect((await outboxOf(offender)).map((e) => e.action)).toEqual(['upload', 'reset', 'delete']);
    await deliver();
    expect(await heldAtS(offender)).toEqual([]);
    expect(await sDb.select().from(profiles).where(eq(profiles.id, held!.profile.id))).toEqual([]);
    expect(net.upper.searchRuntime.matcher().indexes.find(held!.profile.id)).toBeUndefined();
    const atS = await sDb.select().from(auditLog).where(and(eq(auditLog.entity, 'Profile'), eq(auditLog.entityId, held!.profile.id))).orderBy(auditLog.seq);
    expect(atS.map((r) => r.action)).toEqual(['Received from lower instance', 'Reset by lower instance', 'Expunged by lower instance']);
    const atA = await aDb.select().from(auditLog).where(and(eq(auditLog.entity, 'Profile'), eq(auditLog.entityId, offender))).orderBy(auditLog.seq);
    expect(atA.map((r) => r.action)).toEqual(['Approved', 'Reset', 'Deleted', 'Reset at the upper instance', 'Expunged at the upper instance']);
    expect(atA.at(-1)!.after).toMatchObject({ upperInstance: upperUrl, outcome: 'applied' });
  });

  it('refuses a batch from a service client that is no registered lower instance, and a person', async () => {
    const stranger = newClientCredentials();
    await sDb.insert(serviceClients).values({ name: 'Stranger', clientId: stranger.clientId, secretHash: stranger.secretHash });
    const token = await upperToken({ url: upperUrl, clientId: stranger.clientId, clientSecret: stranger.secret });
    const batch = await signBatch({ batchId: randomUUID(), entries: [{ idempotencyKey: 'k', action: 'delete', profileId: randomUUID(), laboratory: LAB, specimenId: 'X' }] }, stranger.clientId, stranger.secret);
    const res = await fetch(`${upperUrl}/api/network/batches`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('The service client "Stranger" is not registered here as a lower instance: register it under Administration → Network first');
    expect((await call('admin', 'POST', '/api/network/batches', { batch })).statusCode).toBe(403);
  });
});

describe('a profile held for a lower instance (issue 32)', () => {
  // A plays the upper level here: a lower instance of its own, with a laboratory and a profile held for it.
  it('is read-only at the upper level: no approval, reset, edit or deletion there', async () => {
    const db = aDb;
    const made = newClientCredentials();
    const [client] = await db.insert(serviceClients).values({ name: 'Instance B', clientId: made.clientId, secretHash: made.secretHash }).returning();
    const [instance] = await db.insert(lowerInstances).values({ name: 'Instance B', serviceClientId: client!.id }).returning();
    const lab = await createOrganization(db, 'Lab B');
    await db.insert(lowerInstanceOrganizations).values({ lowerInstanceId: instance!.id, organizationId: lab.id });
    const [caseType] = await db.select().from(caseTypes).limit(1);
    const [c] = await db.insert(cases).values({ caseNumber: 'B-1', caseTypeId: caseType!.id, organizationId: lab.id }).returning();
    const [held] = await db.insert(profiles).values({ profileId: 'B-stain', caseId: c!.id, organizationId: lab.id, kind: 'Autosomal', chemistryId: net.globalFiler, sampleType: 'Convicted Offender', status: 'approved' }).returning();
    await db.insert(heldProfiles).values({ profileId: held!.id, lowerInstanceId: instance!.id, organizationId: lab.id, originProfileId: randomUUID(), specimenId: 'B-stain' });
    const reset = await call('admin', 'POST', `/api/profiles/${held!.id}/reset`, { comments: '', version: held!.version });
    expect(reset.statusCode).toBe(409);
    expect(reset.json().error).toBe('Profile B-stain cannot be changed: it is held for the lower instance "Instance B" and is read-only here');
    expect((await call('admin', 'POST', `/api/profiles/${held!.id}/reset-delete`)).statusCode).toBe(409);
    expect((await call('admin', 'DELETE', `/api/profiles/${held!.id}`)).statusCode).toBe(409);
    expect((await db.select().from(profiles).where(eq(profiles.id, held!.id)))[0]).toMatchObject({ status: 'approved', version: held!.version });
  });

  it('refuses a new profile in a held laboratory’s case: its profiles come only in its instance’s batches', async () => {
    const db = aDb;
    const [lab] = await db.select().from(organizations).where(eq(organizations.name, 'Lab B'));
    const [c] = await db.select().from(cases).where(and(eq(cases.organizationId, lab!.id), eq(cases.caseNumber, 'B-1')));
    const draft = { caseId: c!.id, chemistryId: net.globalFiler, sampleType: 'Forensic, Unknown', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: 'B-new', markerValues: [] }] };
    const res = await call('admin', 'POST', '/api/profiles', draft);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error).toBe('Case B-1 takes no new profiles here: its laboratory is held for the lower instance "Instance B", whose batches alone bring its profiles; add the profile there');
    expect(await db.select().from(profiles).where(eq(profiles.profileId, 'B-new'))).toEqual([]);
  });
});
