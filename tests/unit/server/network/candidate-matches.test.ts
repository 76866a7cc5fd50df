/**
 * Issue 32, candidate matches sent down: a local instance A (its own PGlite, the fake token verifier) with two
 * laboratories sends a stain and an offender of the same genotype up to a state instance S (its own PGlite, the real
 * embedded provider, on a port); S's search rules find the match, and each laboratory receives it as a candidate
 * match, reviews it like a hit, and S is told the decision.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CODIS_CORE_LOCI } from '../../../../core/network/codis-core-loci';
import type { CandidateMatch } from '../../../../core/schemas/candidate-matches';
import type { SampleType } from '../../../../core/schemas/profiles';
import type { Db } from '../../../../server/db/database';
import { systemClock } from '../../../../server/clock';
import { analyses, auditLog, candidateMatches, candidateMatchNotices, caseTypes, cases, heldProfiles, hits, populations, profiles, searchRules, uploadOutbox } from '../../../../server/db/schema';
import { createAccessToken } from '../../../../server/identity/access-tokens';
import { fetchCandidateMatches } from '../../../../server/network/candidate-match-inbox';
import { caseworkPopulation } from '../../../helpers/casework-population';
import { createAccessGroup, createUser } from '../../../helpers/factories';
import { approveAtA, deliverFromA, pendingCoreProfile, startTwoInstances, type TwoInstances } from '../../../helpers/two-instances';

const LAB = 'Local lab A';
const LAB2 = 'Local lab A2';

let net: TwoInstances;
let upperUrl: string;
let aDb: Db;
let sDb: Db;
const tokens = { admin: '', analyst: '', reviewer: '', reviewer2: '' };
const caseIds = { lab: '', lab2: '' };
let seq = 0;

beforeAll(async () => {
  // A's two laboratories, held at S, which share a casework population there and at A for the LR. A's sender wakes on
  // a change, as in production.
  net = await startTwoInstances({ registered: [LAB, LAB2] });
  ({ upperUrl, aDb, sDb } = net);
  await caseworkPopulation(sDb, [...net.heldLaboratories.values()]);
  const [lab, lab2] = [net.laboratories.get(LAB)!, net.laboratories.get(LAB2)!];
  await caseworkPopulation(aDb, [lab, lab2]);
  tokens.admin = net.adminToken;
  const analysts = await createAccessGroup(aDb, { grants: { Profiles: ['Read', 'Add', 'Edit', 'Reset', 'Delete'], Cases: ['Read'] } });
  tokens.analyst = net.a.verifier.issue((await createUser(aDb, { accessGroupId: analysts.id, organizationIds: [lab, lab2] })).id);
  const reviewers = await createAccessGroup(aDb, { grants: { Hits: ['Read', 'Publish'], Profiles: ['Read'], Cases: ['Read'] } });
  tokens.reviewer = net.a.verifier.issue((await createUser(aDb, { accessGroupId: reviewers.id, organizationIds: [lab] })).id);
  tokens.reviewer2 = net.a.verifier.issue((await createUser(aDb, { accessGroupId: reviewers.id, organizationIds: [lab2] })).id);
  const [caseType] = await aDb.select().from(caseTypes).limit(1);
  caseIds.lab = (await aDb.insert(cases).values({ caseNumber: 'A-2026-1', caseTypeId: caseType!.id, organizationId: lab }).returning())[0]!.id;
  caseIds.lab2 = (await aDb.insert(cases).values({ caseNumber: 'DB-OFF-7', caseTypeId: caseType!.id, organizationId: lab2 }).returning())[0]!.id;
}, 120_000);

afterAll(() => net.close());

const call = (who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) =>
  net.a.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

/** A pending profile at A typed at the 20 core loci; `person` picks its genotype, so two profiles of one person match. */
const pendingProfile = (sampleType: SampleType, caseId: string, person: number) =>
  pendingCoreProfile(net, { name: `P${++seq}`, sampleType, caseId, alleles: (position) => (position < 3 ? [String(7 + person + position), String(14 + person)] : ['11', '12']) });

const approve = (id: string) => approveAtA(net, tokens.analyst, id);
const deliver = async () => void (await deliverFromA(net));
const heldAtS = (originProfileId: string) => sDb.select().from(heldProfiles).where(eq(heldProfiles.originProfileId, originProfileId));
const noticesOf = (heldProfileId: string) => sDb.select().from(candidateMatchNotices).where(eq(candidateMatchNotices.heldProfileId, heldProfileId));
const matchesOf = (profileId: string) => aDb.select().from(candidateMatches).where(eq(candidateMatches.profileId, profileId));
const listed = async (who: keyof typeof tokens, organizationId: string) => {
  const res = await call(who, 'GET', `/api/candidate-matches?organizationId=${organizationId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: CandidateMatch[] }).items;
};

/** Waits until S's search of these held profiles is done (their approval searched: hits and notices written). */
async function searchedAtS(...ids: string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      const rows = await sDb.select({ searchedAt: profiles.searchedAt, reviewedAt: profiles.reviewedAt }).from(profiles).where(inArray(profiles.id, ids));
      expect(rows.every((r) => r.searchedAt !== null && r.searchedAt.getTime() === r.reviewedAt?.getTime())).toBe(true);
    },
    { timeout: 30_000, interval: 100 },
  );
  await net.upper.searchRuntime.queue.idle();
}

/** A stain at A's first laboratory and an offender of the same person at its second, both sent up and searched at S. */
async function stainMeetsOffender(person: number) {
  const stain = await pendingProfile('Forensic, Unknown', caseIds.lab, person);
  const offender = await pendingProfile('Convicted Offender', caseIds.lab2, person);
  await approve(stain);
  await approve(offender);
  // The approvals woke A's sender: both are at S without a Deliver now, and S's search of them has run.
  await vi.waitFor(async () => expect((await heldAtS(stain)).length + (await heldAtS(offender)).length).toBe(2), { timeout: 20_000, interval: 100 });
  const [heldStain] = await heldAtS(stain);
  const [heldOffender] = await heldAtS(offender);
  await searchedAtS(heldStain!.profileId, heldOffender!.profileId);
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
    await net.closeUpper();
    const next = await stainMeetsOffenderWhileDown(2);
    await net.startUpper();
    // The uploads wait out their backoff, then go; S searches them.
    net.advance(31_000);
    await deliver();
    expect(await heldAtS(next.offender)).toHaveLength(1);
    await net.upper.searchRuntime.queue.idle();
    // The answer to "stored" is lost once: A stored them, S sends them again, A keeps one of each.
    const lostAck: typeof fetch = async (input, init) => (String(input).endsWith('/received') ? Promise.reject(new Error('connection reset')) : fetch(input, init));
    await expect(fetchCandidateMatches(aDb, net.clock, net.credentials, lostAck)).rejects.toThrow('connection reset');
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

/** A user of S with scope All and its personal access token (S signs its people in with its embedded provider). */
async function adminAtS(): Promise<string> {
  const group = await createAccessGroup(sDb, { isAdmin: true });
  const user = await createUser(sDb, { scope: 'All', accessGroupId: group.id });
  return (await createAccessToken(sDb, systemClock, user.id, 'test administrator at S', 1)).token;
}

describe('the chance figures a candidate match carries (issue 32)', () => {
  it('count the profiles of every laboratory searched at S, not only those of the laboratory the match was found in', async () => {
    // Offenders of their own at each laboratory (no allele shared with the pair), so each laboratory's count differs from the level's.
    const extra = (caseId: string, n: number, sampleType: SampleType = 'Convicted Offender') => pendingCoreProfile(net, { name: `X${++seq}`, sampleType, caseId, alleles: (position) => (position === 0 ? [String(20 + n), '25'] : ['8', '9']) });
    const extras = [await extra(caseIds.lab, 1), await extra(caseIds.lab, 2), await extra(caseIds.lab, 3), await extra(caseIds.lab2, 4), await extra(caseIds.lab2, 5, 'Forensic, Unknown')];
    for (const id of extras) await approve(id);
    const met = await stainMeetsOffender(3);
    const [notice] = (await noticesOf(met.heldStain.profileId)).filter((n) => n.notice.matchKind === 'identity');
    const [hit] = await sDb.select().from(hits).where(eq(hits.id, notice!.hitId!));
    const [rule] = await sDb.select().from(searchRules).where(eq(searchRules.id, hit!.searchRuleId!));
    // N for each side as the query: the approved profiles held at S of the rule's searched sample types, itself not counted.
    const held = await sDb.select({ id: profiles.id, sampleType: profiles.sampleType }).from(profiles).where(and(eq(profiles.status, 'approved'), inArray(profiles.organizationId, [...net.heldLaboratories.values()])));
    const searched = held.filter((p) => rule!.searchedSampleTypes.includes(p.sampleType));
    const levelN = (id: string) => searched.filter((p) => p.id !== id).length;
    const figures = notice!.notice.stringency!;
    expect([levelN(met.heldStain.profileId), levelN(met.heldOffender.profileId)]).toContain(figures.searchedProfiles);
    expect(figures.expectedChanceHits).toBe(figures.searchedProfiles * figures.probability);
    // The hit at S says the same.
    expect(hit!.figures!.stringency).toMatchObject({ searchedProfiles: figures.searchedProfiles, expectedChanceHits: figures.expectedChanceHits });
    expect(hit!.expectedChanceHits).toBe(figures.expectedChanceHits);
  }, 60_000);
});

describe('missing-person hits at the upper level sent down (issue 32)', () => {
  // A family of LAB's case at S (the mother and full sister of a missing person, held there) and the remains it finds.
  const MOTHER = (position: number) => (position % 2 === 0 ? ['11', '12'] : ['14', '15']);
  const SISTER = (position: number) => (position % 2 === 0 ? ['12', '13'] : ['15', '16']);
  const MISSING = (position: number) => (position % 2 === 0 ? ['11', '13'] : ['14', '16']);
  let tokenAtS = '';
  let caseAtA = '';

  const kinshipNotices = async (heldProfileId: string) => (await noticesOf(heldProfileId)).filter((n) => n.notice.analysis === 'Mother and full sister');
  const uploaded = async (name: string, sampleType: SampleType, alleles: (position: number) => string[]) => {
    const id = await pendingCoreProfile(net, { name, sampleType, caseId: caseAtA, alleles });
    await approve(id);
    await vi.waitFor(async () => expect(await heldAtS(id)).toHaveLength(1), { timeout: 20_000, interval: 100 });
    const [held] = await heldAtS(id);
    await searchedAtS(held!.profileId);
    const [atS] = await sDb.select().from(profiles).where(eq(profiles.id, held!.profileId));
    return { id, specimenId: held!.specimenId, atS: atS! };
  };
  // Over HTTP at S's address (its PUBLIC_URL: another host is redirected there).
  const atS = async <T>(method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await fetch(`${upperUrl}${url}`, { method, headers: { authorization: `Bearer ${tokenAtS}`, 'content-type': 'application/json' }, ...(payload ? { body: JSON.stringify(payload) } : {}) });
    const body = await res.text();
    expect(res.status, body).toBeLessThan(300);
    return JSON.parse(body) as T;
  };

  beforeAll(async () => {
    tokenAtS = await adminAtS();
    const [caseType] = await aDb.select().from(caseTypes).limit(1);
    caseAtA = (await aDb.insert(cases).values({ caseNumber: 'MP-2026-9', caseTypeId: caseType!.id, organizationId: net.laboratories.get(LAB)! }).returning())[0]!.id;
  });

  it('sends a family’s hit on activation at S to the laboratory of each held profile in it, with the pedigree LR and nothing more', async () => {
    const mother = await uploaded(`M${++seq}`, 'Biological Mother', MOTHER);
    const sister = await uploaded(`F${++seq}`, 'Biological Sibling', SISTER);
    const remains = await uploaded(`R${++seq}`, 'Unidentified Human (Remains)', MISSING);
    const [analysis] = await sDb.select().from(analyses).where(eq(analyses.name, 'Mother and full sister'));
    const [casework] = await sDb.select().from(populations).where(eq(populations.name, 'Casework'));
    const family = await atS<{ id: string; version: number }>('POST', `/api/cases/${mother.atS.caseId}/families`, {
      name: 'Family of the missing daughter',
      analysisId: analysis!.id,
      relatives: [{ role: 'Mother', profileId: mother.atS.id }, { role: 'Full sister', profileId: sister.atS.id }],
      populationIds: [casework!.id],
      threshold: 1000,
    });
    const activated = await atS<{ hitsAdded: number }>('POST', `/api/families/${family.id}/activate`, { version: family.version });
    expect(activated.hitsAdded).toBe(1);
    // One notice per held profile of the hit: the remains, the mother and the sister, each to LAB.
    const [forRemains] = await kinshipNotices(remains.atS.id);
    expect(forRemains).toMatchObject({ status: 'pending', notice: { profileId: remains.id, laboratory: LAB, matchKind: 'kinship', stringency: null } });
    expect(await kinshipNotices(mother.atS.id)).toHaveLength(1);
    expect(await kinshipNotices(sister.atS.id)).toHaveLength(1);
    await deliver();
    const received = (await matchesOf(remains.id)).find((m) => m.notice.analysis === 'Mother and full sister')!;
    expect(received.notice.counterparts.map((c) => c.specimenId).sort()).toEqual([mother.specimenId, sister.specimenId].sort());
    expect(received.notice.statistics).toEqual([{ population: 'Casework', combinedIndex: expect.any(Number), probability: expect.any(String), reported: true }]);
    expect(received.notice.statistics[0]!.combinedIndex).toBeGreaterThanOrEqual(1000);
    for (const secret of ['alleles', 'markerValues', 'genotype']) expect(JSON.stringify(received.notice)).not.toContain(secret);
  }, 60_000);

  it('sends down the hit a remains profile finds when it reaches S after the family is active', async () => {
    const later = await uploaded(`R${++seq}`, 'Unidentified Human (Remains)', MISSING);
    const [notice] = await kinshipNotices(later.atS.id);
    expect(notice).toMatchObject({ notice: { profileId: later.id, laboratory: LAB, matchKind: 'kinship', analysis: 'Mother and full sister' } });
    expect(notice!.notice.counterparts).toHaveLength(2);
    await deliver();
    expect((await matchesOf(later.id)).filter((m) => m.notice.analysis === 'Mother and full sister')).toHaveLength(1);
  }, 60_000);
});
