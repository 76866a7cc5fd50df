/**
 * Issue 32, candidate matches sent down: a local instance A (its own PGlite, the fake token verifier) with two
 * laboratories sends a stain and an offender of the same genotype up to a state instance S (its own PGlite, the real
 * embedded provider, on a port); S's search rules find the match, and each laboratory receives it as a candidate
 * match, reviews it like a hit, and S is told the decision.
 */
import type { FastifyInstance } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODIS_CORE_LOCI } from '../../../../core/network/codis-core-loci';
import type { CandidateMatch } from '../../../../core/schemas/candidate-matches';
import type { SampleType } from '../../../../core/schemas/profiles';
import { buildApp } from '../../../../server/app';
import type { Database, Db } from '../../../../server/db/database';
import { auditLog, candidateMatches, candidateMatchNotices, caseTypes, cases, chemistries, heldProfiles, instanceSettings, lowerInstanceOrganizations, lowerInstances, markers, organizations, profiles, serviceClients, uploadOutbox } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { newClientCredentials } from '../../../../server/identity/service-clients';
import { fetchCandidateMatches } from '../../../../server/network/candidate-match-inbox';
import { sealSecret } from '../../../../server/network/secret-box';
import { createTestApp, testConfig, type TestApp } from '../../../helpers/app';
import { caseworkPopulation } from '../../../helpers/casework-population';
import { freshPglite } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { freePort } from '../../../helpers/free-port';

const LAB = 'Local lab A';
const LAB2 = 'Local lab A2';

let upperDb: Database;
let upper: FastifyInstance;
let upperUrl: string;
let port: number;
let a: TestApp;
let aDb: Db;
let sDb: Db;
let credentials: { url: string; clientId: string; clientSecret: string };
const tokens = { admin: '', analyst: '', reviewer: '', reviewer2: '' };
const caseIds = { lab: '', lab2: '' };
let globalFiler = '';
const markerIds = new Map<string, string>();
let seq = 0;
/** A's clock: real time plus what a test moves it on by (the sender's backoff reads it). */
let skew = 0;
const clock = { now: () => new Date(Date.now() + skew) };

async function startUpper(): Promise<void> {
  upper = await buildApp({ database: upperDb, config: testConfig({ PUBLIC_URL: upperUrl }) });
  await upper.listen({ port, host: '127.0.0.1' });
}

beforeAll(async () => {
  // S: the state instance, A registered with its two laboratories, which share a casework population for the LR.
  port = await freePort();
  upperUrl = `http://127.0.0.1:${port}`;
  upperDb = await freshPglite();
  sDb = upperDb.db;
  await sDb.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  await sDb.insert(instanceSettings).values({ id: 'instance', name: 'State DNA index', level: 'State' });
  const made = newClientCredentials();
  const [client] = await sDb.insert(serviceClients).values({ name: 'Local instance A', clientId: made.clientId, secretHash: made.secretHash }).returning();
  const [instance] = await sDb.insert(lowerInstances).values({ name: 'Instance A', serviceClientId: client!.id }).returning();
  const held = await sDb.insert(organizations).values([{ name: LAB }, { name: LAB2 }]).returning();
  await sDb.insert(lowerInstanceOrganizations).values(held.map((o) => ({ lowerInstanceId: instance!.id, organizationId: o.id })));
  await caseworkPopulation(sDb, held.map((o) => o.id));
  await startUpper();
  credentials = { url: upperUrl, clientId: made.clientId, clientSecret: made.secret };

  // A: the local instance (its sender wakes on a change, as in production), configured with S as its upper instance.
  a = await createTestApp({ clock });
  aDb = a.database.db;
  await aDb.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const lab = await createOrganization(aDb, LAB);
  const lab2 = await createOrganization(aDb, LAB2);
  await caseworkPopulation(aDb, [lab.id, lab2.id]);
  const settings = { name: 'Instance A', level: 'Local', upperUrl, upperClientId: made.clientId, upperClientSecret: await sealSecret(aDb, made.secret) };
  await aDb.insert(instanceSettings).values({ id: 'instance', ...settings }).onConflictDoUpdate({ target: instanceSettings.id, set: settings });
  const admins = await createAccessGroup(aDb, { isAdmin: true });
  tokens.admin = a.verifier.issue((await createUser(aDb, { scope: 'All', accessGroupId: admins.id })).id);
  const analysts = await createAccessGroup(aDb, { grants: { Profiles: ['Read', 'Add', 'Edit', 'Reset', 'Delete'], Cases: ['Read'] } });
  tokens.analyst = a.verifier.issue((await createUser(aDb, { accessGroupId: analysts.id, organizationIds: [lab.id, lab2.id] })).id);
  const reviewers = await createAccessGroup(aDb, { grants: { Hits: ['Read', 'Publish'], Profiles: ['Read'], Cases: ['Read'] } });
  tokens.reviewer = a.verifier.issue((await createUser(aDb, { accessGroupId: reviewers.id, organizationIds: [lab.id] })).id);
  tokens.reviewer2 = a.verifier.issue((await createUser(aDb, { accessGroupId: reviewers.id, organizationIds: [lab2.id] })).id);
  const [caseType] = await aDb.select().from(caseTypes).limit(1);
  caseIds.lab = (await aDb.insert(cases).values({ caseNumber: 'A-2026-1', caseTypeId: caseType!.id, organizationId: lab.id }).returning())[0]!.id;
  caseIds.lab2 = (await aDb.insert(cases).values({ caseNumber: 'DB-OFF-7', caseTypeId: caseType!.id, organizationId: lab2.id }).returning())[0]!.id;
  globalFiler = (await aDb.select().from(chemistries)).find((c) => c.name === 'GlobalFiler')!.id;
  for (const m of await aDb.select({ id: markers.id, name: markers.name }).from(markers)) markerIds.set(m.name, m.id);
}, 120_000);

afterAll(async () => {
  await a.close();
  await upper.close();
  await upperDb.close();
});

const call = (who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) =>
  a.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

/** A pending profile at A typed at the 20 core loci; `person` picks its genotype, so two profiles of one person match. */
async function pendingProfile(sampleType: SampleType, caseId: string, person: number): Promise<string> {
  const [c] = await aDb.select().from(cases).where(eq(cases.id, caseId));
  const [row] = await aDb.insert(profiles).values({ profileId: `P${++seq}`, caseId, organizationId: c!.organizationId, kind: 'Autosomal', chemistryId: globalFiler, sampleType }).returning();
  await writeMarkerValues(aDb, row!.id, CODIS_CORE_LOCI.map((m, position) => ({ markerId: markerIds.get(m)!, alleles: position < 3 ? [String(7 + person + position), String(14 + person)] : ['11', '12'], position })));
  return row!.id;
}

async function approve(id: string): Promise<void> {
  const [row] = await aDb.select().from(profiles).where(eq(profiles.id, id));
  const stored = (await call('analyst', 'GET', `/api/profiles/${id}`)).json() as { markerValues: { markerId: string; alleles: string[] }[] };
  const res = await call('analyst', 'POST', `/api/profiles/${id}/approve`, { markerValues: stored.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })), comments: '', version: row!.version });
  expect(res.statusCode, res.body).toBe(200);
}

const deliver = async () => {
  const res = await call('admin', 'POST', '/api/network/outbox/deliver');
  expect(res.statusCode, res.body).toBe(200);
};
const heldAtS = (originProfileId: string) => sDb.select().from(heldProfiles).where(eq(heldProfiles.originProfileId, originProfileId));
const noticesOf = (heldProfileId: string) => sDb.select().from(candidateMatchNotices).where(eq(candidateMatchNotices.heldProfileId, heldProfileId));
const matchesOf = (profileId: string) => aDb.select().from(candidateMatches).where(eq(candidateMatches.profileId, profileId));
const listed = async (who: keyof typeof tokens, organizationId: string) => {
  const res = await call(who, 'GET', `/api/candidate-matches?organizationId=${organizationId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: CandidateMatch[] }).items;
};

/** A stain at A's first laboratory and an offender of the same person at its second, both sent up and searched at S. */
async function stainMeetsOffender(person: number) {
  const stain = await pendingProfile('Forensic, Unknown', caseIds.lab, person);
  const offender = await pendingProfile('Convicted Offender', caseIds.lab2, person);
  await approve(stain);
  await approve(offender);
  // The approvals woke A's sender: both are at S without a Deliver now, and S's search of them has run.
  await vi.waitFor(async () => expect((await heldAtS(stain)).length + (await heldAtS(offender)).length).toBe(2), { timeout: 20_000, interval: 100 });
  await upper.searchRuntime.queue.idle();
  const [heldStain] = await heldAtS(stain);
  const [heldOffender] = await heldAtS(offender);
  return { stain, offender, heldStain: heldStain!, heldOffender: heldOffender! };
}

describe('candidate matches sent down to the laboratories (issue 32)', () => {
  let met: Awaited<ReturnType<typeof stainMeetsOffender>>;
  let labId = '';
  let lab2Id = '';

  beforeAll(async () => {
    met = await stainMeetsOffender(1);
    [labId, lab2Id] = [(await aDb.select().from(cases).where(eq(cases.id, caseIds.lab)))[0]!.organizationId, (await aDb.select().from(cases).where(eq(cases.id, caseIds.lab2)))[0]!.organizationId];
  }, 60_000);

  it('records at S, with the hit, a notice for each laboratory whose held profile is in it', async () => {
    const [forStain] = await noticesOf(met.heldStain.profileId);
    const [forOffender] = await noticesOf(met.heldOffender.profileId);
    expect(forStain).toMatchObject({ status: 'pending', deliveredAt: null, notice: { profileId: met.stain, laboratory: LAB, counterparts: [{ specimenId: met.heldOffender.specimenId, laboratory: LAB2, instance: 'Instance A' }] } });
    expect(forOffender).toMatchObject({ notice: { profileId: met.offender, laboratory: LAB2, counterparts: [{ specimenId: met.heldStain.specimenId, laboratory: LAB }] } });
    expect(forStain!.hitId).toBe(forOffender!.hitId);
  });

  it('brings the candidate match down to each laboratory with the other side’s specimen, laboratory and statistics, never its genotype', async () => {
    await deliver();
    const [match] = await listed('reviewer', labId);
    expect(match).toMatchObject({
      profileId: met.stain,
      sampleName: met.heldStain.specimenId,
      caseNumber: 'A-2026-1',
      upperInstance: upperUrl,
      counterparts: [{ specimenId: met.heldOffender.specimenId, laboratory: LAB2, instance: 'Instance A' }],
      matchKind: 'identity',
      status: 'pending',
    });
    expect(match!.statistics.length).toBeGreaterThan(0);
    expect(match!.statistics[0]).toMatchObject({ population: 'Casework', combinedIndex: expect.any(Number), probability: expect.any(String) });
    expect(match!.stringency).toMatchObject({ stringency: expect.any(String), comparedMarkers: CODIS_CORE_LOCI.length, mismatches: 0 });
    expect(Object.keys(match!.counterparts[0]!).sort()).toEqual(['instance', 'laboratory', 'specimenId']);
    // The other laboratory's profile id, genotype or case are nowhere in what came down.
    const stored = JSON.stringify((await matchesOf(met.stain))[0]!.notice);
    for (const secret of [met.offender, met.heldOffender.profileId, 'DB-OFF-7', 'alleles', 'markerValues']) expect(stored).not.toContain(secret);
    expect(await listed('reviewer2', lab2Id)).toMatchObject([{ profileId: met.offender, counterparts: [{ laboratory: LAB }] }]);
    // S knows each was stored: it does not send them again.
    expect((await noticesOf(met.heldStain.profileId))[0]!.deliveredAt).not.toBeNull();
  });

  it('sends a confirmation up at once; S records it on its notice, both trails record it, and a second decision is a 409', async () => {
    const [match] = await listed('reviewer', labId);
    const res = await call('reviewer', 'POST', `/api/candidate-matches/${match!.id}/confirm`, { version: match!.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'confirmed', decidedAt: expect.any(String) });
    // No Deliver now: the decision woke the sender.
    await vi.waitFor(async () => expect((await noticesOf(met.heldStain.profileId))[0]).toMatchObject({ status: 'confirmed', reason: null }), { timeout: 20_000, interval: 100 });
    const atS = await sDb.select().from(auditLog).where(and(eq(auditLog.entity, 'CandidateMatch'), eq(auditLog.entityId, match!.id)));
    expect(atS.map((r) => r.action)).toEqual(['Confirmed by the laboratory']);
    const atA = await aDb.select().from(auditLog).where(and(eq(auditLog.entity, 'CandidateMatch'), eq(auditLog.entityId, match!.id))).orderBy(auditLog.seq);
    expect(atA.map((r) => r.action)).toEqual(['Received from the upper instance', 'Confirmed']);
    const again = await call('reviewer', 'POST', `/api/candidate-matches/${match!.id}/confirm`, { version: match!.version + 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This candidate match was already confirmed');
  });

  it('rejects with a reason it requires, and S records the reason', async () => {
    const [match] = await listed('reviewer2', lab2Id);
    const blank = await call('reviewer2', 'POST', `/api/candidate-matches/${match!.id}/reject`, { reason: '  ', version: match!.version });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details).toEqual([expect.objectContaining({ path: '/reason', message: 'Say why the match is rejected' })]);
    const res = await call('reviewer2', 'POST', `/api/candidate-matches/${match!.id}/reject`, { reason: 'Offender sample swapped at collection', version: match!.version });
    expect(res.statusCode, res.body).toBe(200);
    await deliver();
    expect((await noticesOf(met.heldOffender.profileId))[0]).toMatchObject({ status: 'rejected', reason: 'Offender sample swapped at collection' });
  });

  it('answers 404 for a match of another organization, as for any record', async () => {
    const [other] = await listed('reviewer2', lab2Id);
    expect((await call('reviewer', 'POST', `/api/candidate-matches/${other!.id}/confirm`, { version: other!.version })).statusCode).toBe(404);
    expect((await call('reviewer', 'GET', `/api/candidate-matches?organizationId=${lab2Id}`)).statusCode).toBe(403);
  });

  it('loses nothing and stores nothing twice when S goes down or its acknowledgement is lost', async () => {
    await upper.close();
    const next = await stainMeetsOffenderWhileDown(2);
    await startUpper();
    // The uploads wait out their backoff, then go; S searches them.
    skew += 31_000;
    await deliver();
    expect(await heldAtS(next.offender)).toHaveLength(1);
    await upper.searchRuntime.queue.idle();
    // The answer to "stored" is lost once: A stored them, S sends them again, A keeps one of each.
    const lostAck: typeof fetch = async (input, init) => (String(input).endsWith('/received') ? Promise.reject(new Error('connection reset')) : fetch(input, init));
    await expect(fetchCandidateMatches(aDb, clock, credentials, lostAck)).rejects.toThrow('connection reset');
    expect(await matchesOf(next.stain)).toHaveLength(1);
    expect((await noticesOf((await heldAtS(next.stain))[0]!.profileId))[0]!.deliveredAt).toBeNull();
    await deliver();
    expect(await matchesOf(next.stain)).toHaveLength(1);
    expect(await matchesOf(next.offender)).toHaveLength(1);
    expect((await noticesOf((await heldAtS(next.stain))[0]!.profileId))[0]!.deliveredAt).not.toBeNull();
  }, 60_000);
});

/** Two profiles approved while S is down: their uploads wait in A's outbox. */
async function stainMeetsOffenderWhileDown(person: number) {
  const stain = await pendingProfile('Forensic, Unknown', caseIds.lab, person);
  const offender = await pendingProfile('Convicted Offender', caseIds.lab2, person);
  await approve(stain);
  await approve(offender);
  await deliver();
  expect(await aDb.select().from(uploadOutbox).where(and(eq(uploadOutbox.profileId, stain)))).toMatchObject([{ deliveredAt: null }]);
  return { stain, offender };
}
