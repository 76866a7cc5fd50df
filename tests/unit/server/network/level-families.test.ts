/**
 * Issue 32, missing persons at the upper level: a family at the state instance S searches the remains of every
 * laboratory S holds, not only its own laboratory's (a remains profile reaching S is weighed against every held
 * laboratory's families alike); the candidate match goes down to the remains' laboratory and to the relatives'. A
 * local instance with two laboratories still never meets one laboratory's family with the other's remains.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CandidateMatch } from '../../../../core/schemas/candidate-matches';
import type { SampleType } from '../../../../core/schemas/profiles';
import { systemClock } from '../../../../server/clock';
import type { Db } from '../../../../server/db/database';
import { analyses, candidateMatchNotices, caseTypes, cases, families, heldProfiles, hits, populations, profiles } from '../../../../server/db/schema';
import { createAccessToken } from '../../../../server/identity/access-tokens';
import { REMAINS_SAMPLE_TYPE } from '../../../../server/missing-persons/family-search';
import { caseworkPopulation } from '../../../helpers/casework-population';
import { createAccessGroup, createUser } from '../../../helpers/factories';
import { searchesDone } from '../../../helpers/searches-done';
import { approveAtA, deliverFromA, pendingCoreProfile, startTwoInstances, type TwoInstances } from '../../../helpers/two-instances';

const LAB = 'Local lab A';
const LAB2 = 'Local lab A2';
const ANALYSIS = 'Mother and full sister';

// Person k's mother, full sister and the missing person themself, at the 20 core loci (k picks unrelated families).
const base = (k: number, position: number) => (position % 2 === 0 ? 11 : 14) + 6 * k;
const MOTHER = (k: number) => (position: number) => [String(base(k, position)), String(base(k, position) + 1)];
const SISTER = (k: number) => (position: number) => [String(base(k, position) + 1), String(base(k, position) + 2)];
const MISSING = (k: number) => (position: number) => [String(base(k, position)), String(base(k, position) + 2)];
const STRANGER = () => ['8', '9'];

let net: TwoInstances;
let aDb: Db;
let sDb: Db;
let seq = 0;
const tokens = { analyst: '', reviewer: '', reviewer2: '', atS: '' };
const lab = { id: '', caseId: '', remainsCaseId: '' };
const lab2 = { id: '', caseId: '' };

beforeAll(async () => {
  net = await startTwoInstances({ registered: [LAB, LAB2] });
  ({ aDb, sDb } = net);
  await caseworkPopulation(sDb, [...net.heldLaboratories.values()]);
  [lab.id, lab2.id] = [net.laboratories.get(LAB)!, net.laboratories.get(LAB2)!];
  await caseworkPopulation(aDb, [lab.id, lab2.id]);
  const analysts = await createAccessGroup(aDb, { grants: { Profiles: ['Read', 'Add', 'Edit'], Cases: ['Read', 'Edit'], Populations: ['Read'] } });
  tokens.analyst = net.a.verifier.issue((await createUser(aDb, { accessGroupId: analysts.id, organizationIds: [lab.id, lab2.id] })).id);
  const reviewers = await createAccessGroup(aDb, { grants: { Hits: ['Read', 'Publish'], Profiles: ['Read'], Cases: ['Read'] } });
  tokens.reviewer = net.a.verifier.issue((await createUser(aDb, { accessGroupId: reviewers.id, organizationIds: [lab.id] })).id);
  tokens.reviewer2 = net.a.verifier.issue((await createUser(aDb, { accessGroupId: reviewers.id, organizationIds: [lab2.id] })).id);
  const admins = await createAccessGroup(sDb, { isAdmin: true });
  tokens.atS = (await createAccessToken(sDb, systemClock, (await createUser(sDb, { scope: 'All', accessGroupId: admins.id })).id, 'administrator at S', 1)).token;
  const [caseType] = await aDb.select().from(caseTypes).limit(1);
  const newCase = async (caseNumber: string, organizationId: string) => (await aDb.insert(cases).values({ caseNumber, caseTypeId: caseType!.id, organizationId }).returning())[0]!.id;
  lab.caseId = await newCase('MP-2026-1', lab.id);
  lab.remainsCaseId = await newCase('UHR-2026-1', lab.id);
  lab2.caseId = await newCase('UHR-B-44', lab2.id);
}, 300_000);

afterAll(() => net.close());

const heldAtS = (originProfileId: string) => sDb.select().from(heldProfiles).where(eq(heldProfiles.originProfileId, originProfileId));
const familyNotices = async (heldProfileId: string) => (await sDb.select().from(candidateMatchNotices).where(eq(candidateMatchNotices.heldProfileId, heldProfileId))).filter((n) => n.notice.analysis === ANALYSIS);

/** Waits until S's search of this held profile is done (its approval searched: hits and notices written). */
async function searchedAtS(id: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const [row] = await sDb.select({ searchedAt: profiles.searchedAt, reviewedAt: profiles.reviewedAt }).from(profiles).where(eq(profiles.id, id));
      expect(row!.searchedAt !== null && row!.searchedAt.getTime() === row!.reviewedAt?.getTime()).toBe(true);
    },
    { timeout: 30_000, interval: 100 },
  );
  await net.upper.searchRuntime.queue.idle();
}

/** A profile approved at A (its approval searched there) and, once S holds it, searched at S too. */
async function approved(caseId: string, sampleType: SampleType, alleles: (position: number) => string[]) {
  const id = await pendingCoreProfile(net, { name: `P${++seq}`, sampleType, caseId, alleles });
  await approveAtA(net, tokens.analyst, id);
  await searchesDone(net.a.app, net.adminToken);
  await vi.waitFor(async () => expect(await heldAtS(id)).toHaveLength(1), { timeout: 20_000, interval: 100 });
  const [held] = await heldAtS(id);
  await searchedAtS(held!.profileId);
  const [atS] = await sDb.select().from(profiles).where(eq(profiles.id, held!.profileId));
  return { id, specimenId: held!.specimenId, atS: atS! };
}

/** A family of the relatives' case, added and activated by `call` at one instance; the activation's answer. */
async function activateFamily(call: (method: 'POST', url: string, payload: object) => Promise<{ status: number; body: string }>, db: Db, caseId: string, mother: string, sister: string) {
  const [analysis] = await db.select().from(analyses).where(eq(analyses.name, ANALYSIS));
  const [casework] = await db.select().from(populations).where(eq(populations.name, 'Casework'));
  const relatives = [{ role: 'Mother', profileId: mother }, { role: 'Full sister', profileId: sister }];
  const added = await call('POST', `/api/cases/${caseId}/families`, { name: 'Family of the missing daughter', analysisId: analysis!.id, relatives, populationIds: [casework!.id], threshold: 1000 });
  expect(added.status, added.body).toBe(201);
  const family = JSON.parse(added.body) as { id: string; version: number };
  const activated = await call('POST', `/api/families/${family.id}/activate`, { version: family.version });
  expect(activated.status, activated.body).toBe(200);
  return { id: family.id, ...(JSON.parse(activated.body) as { searchedProfiles: number; hitsAdded: number }) };
}

// Over HTTP at S's address (its PUBLIC_URL: another host is redirected there).
const atS = async (method: 'POST', url: string, payload: object) => {
  const res = await fetch(`${net.upperUrl}${url}`, { method, headers: { authorization: `Bearer ${tokens.atS}`, 'content-type': 'application/json' }, body: JSON.stringify(payload) });
  return { status: res.status, body: await res.text() };
};
const atA = async (method: 'POST', url: string, payload: object) => {
  const res = await net.a.app.inject({ method, url, headers: { authorization: `Bearer ${tokens.analyst}` }, payload });
  return { status: res.statusCode, body: res.body };
};

const listed = async (token: string, organizationId: string) => {
  const res = await net.a.app.inject({ method: 'GET', url: `/api/candidate-matches?organizationId=${organizationId}`, headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: CandidateMatch[] }).items.filter((m) => m.analysis === ANALYSIS);
};

/** The approved remains held at S of every laboratory it holds: what a family of the level searches. */
const levelRemains = async () =>
  sDb.$count(profiles, and(eq(profiles.status, 'approved'), eq(profiles.sampleType, REMAINS_SAMPLE_TYPE), inArray(profiles.organizationId, [...net.heldLaboratories.values()])));

describe('a family at the upper level searches the remains of every laboratory held there (issue 32)', () => {
  let family = '';
  let relatives: { mother: Awaited<ReturnType<typeof approved>>; sister: Awaited<ReturnType<typeof approved>> };

  it('finds on activation the remains another laboratory sent up; each laboratory receives the match with the pedigree LR and no genotype', async () => {
    // The family's laboratory has remains of its own at S (a stranger's), the other laboratory the missing person's.
    await approved(lab.remainsCaseId, REMAINS_SAMPLE_TYPE, STRANGER);
    const remains = await approved(lab2.caseId, REMAINS_SAMPLE_TYPE, MISSING(0));
    relatives = { mother: await approved(lab.caseId, 'Biological Mother', MOTHER(0)), sister: await approved(lab.caseId, 'Biological Sibling', SISTER(0)) };
    const activated = await activateFamily(atS, sDb, relatives.mother.atS.caseId, relatives.mother.atS.id, relatives.sister.atS.id);
    family = activated.id;
    expect(activated.hitsAdded).toBe(1);
    // N counts the level's remains (both laboratories'), not the family's laboratory's alone.
    expect(activated.searchedProfiles).toBe(2);
    expect(await levelRemains()).toBe(2);
    const [hit] = await sDb.select().from(hits).where(eq(hits.familyId, family));
    expect(hit!.figures!.populations[0]!.chance).toMatchObject({ searchedProfiles: 2 });
    expect(hit!.organizationId).toBe(net.heldLaboratories.get(LAB));

    // S's notices: the remains to the other laboratory, the relatives to the family's, each naming the other side.
    const [forRemains] = await familyNotices(remains.atS.id);
    expect(forRemains).toMatchObject({ hitId: hit!.id, notice: { profileId: remains.id, laboratory: LAB2, matchKind: 'kinship', stringency: null } });
    expect(forRemains!.notice.counterparts).toEqual(expect.arrayContaining([{ specimenId: relatives.mother.specimenId, laboratory: LAB, instance: 'Instance A' }, { specimenId: relatives.sister.specimenId, laboratory: LAB, instance: 'Instance A' }]));
    const [forMother] = await familyNotices(relatives.mother.atS.id);
    expect(forMother!.notice).toMatchObject({ profileId: relatives.mother.id, laboratory: LAB });
    expect(forMother!.notice.counterparts).toContainEqual({ specimenId: remains.specimenId, laboratory: LAB2, instance: 'Instance A' });
    expect(await familyNotices(relatives.sister.atS.id)).toHaveLength(1);

    await deliverFromA(net);
    const [received] = await listed(tokens.reviewer2, lab2.id);
    expect(received).toMatchObject({ profileId: remains.id, matchKind: 'kinship', status: 'pending', caseNumber: 'UHR-B-44' });
    expect(received!.statistics).toEqual([{ population: 'Casework', combinedIndex: expect.any(Number), probability: expect.any(String), reported: true }]);
    expect(received!.statistics[0]!.combinedIndex).toBeGreaterThanOrEqual(1000);
    // Nothing of the family's laboratory beyond the match: no profile id, case or genotype of the relatives.
    const shown = JSON.stringify(received);
    for (const secret of [relatives.mother.id, relatives.sister.id, relatives.mother.atS.id, 'MP-2026-1', 'alleles', 'markerValues', 'genotype']) expect(shown).not.toContain(secret);
    const forLab = await listed(tokens.reviewer, lab.id);
    expect(forLab.map((m) => m.profileId).sort()).toEqual([relatives.mother.id, relatives.sister.id].sort());
    for (const m of forLab) expect(m.counterparts).toContainEqual({ specimenId: remains.specimenId, laboratory: LAB2, instance: 'Instance A' });
  }, 240_000);

  it('weighs remains another laboratory sends up later against the active family, and sends the match down to it', async () => {
    const later = await approved(lab2.caseId, REMAINS_SAMPLE_TYPE, MISSING(0));
    const [notice] = await familyNotices(later.atS.id);
    expect(notice).toMatchObject({ notice: { profileId: later.id, laboratory: LAB2, matchKind: 'kinship' } });
    const [hit] = await sDb.select().from(hits).where(eq(hits.id, notice!.hitId!));
    expect(hit).toMatchObject({ familyId: family, organizationId: net.heldLaboratories.get(LAB) });
    expect(hit!.figures!.populations[0]!.chance).toMatchObject({ searchedProfiles: await levelRemains() });
    expect(await familyNotices(relatives.mother.atS.id)).toHaveLength(2);
    await deliverFromA(net);
    expect((await listed(tokens.reviewer2, lab2.id)).map((m) => m.profileId)).toContain(later.id);
  }, 180_000);
});

describe('a local instance with two laboratories keeps each family within its own (issue 32: tenancy never widens)', () => {
  it('never meets a family of one laboratory with remains of the other, either way round', async () => {
    const mother = await approved(lab.caseId, 'Biological Mother', MOTHER(1));
    const sister = await approved(lab.caseId, 'Biological Sibling', SISTER(1));
    await approved(lab2.caseId, REMAINS_SAMPLE_TYPE, MISSING(1));
    const ownRemains = await aDb.$count(profiles, and(eq(profiles.status, 'approved'), eq(profiles.sampleType, REMAINS_SAMPLE_TYPE), eq(profiles.organizationId, lab.id)));
    const activated = await activateFamily(atA, aDb, lab.caseId, mother.id, sister.id);
    expect(activated).toMatchObject({ hitsAdded: 0, searchedProfiles: ownRemains });
    // The other laboratory's remains approved after the activation: no hit either.
    await approved(lab2.caseId, REMAINS_SAMPLE_TYPE, MISSING(1));
    expect(await aDb.$count(hits, eq(hits.familyId, activated.id))).toBe(0);
    // The family's own laboratory's remains of the same person: found (the family does search).
    await approved(lab.remainsCaseId, REMAINS_SAMPLE_TYPE, MISSING(1));
    expect(await aDb.$count(hits, eq(hits.familyId, activated.id))).toBe(1);
    expect((await aDb.select().from(families).where(eq(families.id, activated.id)))[0]!.organizationId).toBe(lab.id);
  }, 240_000);
});
