import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Entity, Verb } from '../../../core/permissions';
import { analyses, caseTypes, chemistries, markers, profiles, users } from '../../../server/db/schema';
import { writeMarkerValues } from '../../../server/http/profiles/marker-values';
import { seedReferenceData } from '../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../server/hits/record-hits';
import type { HitCandidate } from '../../../server/matching/types';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { asIdentityRuleHit } from '../../helpers/hit-figures';
import { createTestApp, type TestApp } from '../../helpers/app';
import { multipartBody } from '../../helpers/multipart';

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/frequencies/fbi2015.csv'));

/** A reference typed on the 13 CODIS core markers of GlobalFiler. */
export const CODIS_PROFILE: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'],
};

export interface MatchingWorld {
  t: TestApp;
  orgId: string;
  caseId: string;
  caseNumber: string;
  populationId: string;
  analysisIds: Record<string, string>;
  /** A user of the organization with the given grants, as a bearer token. */
  tokenFor(grants: Partial<Record<Entity, Verb[]>>, extra?: { assignedToCase?: boolean }): Promise<string>;
  /** An approved GlobalFiler profile of the case, written straight to the database (approval is not under test). */
  approvedProfile(sampleName: string, genotypes: Record<string, string[]>): Promise<string>;
  /** A profile added, typed and approved through the API, so the server's matcher indexes it (and searches it). */
  approveThroughApi(sampleName: string, genotypes: Record<string, string[]>, sampleType?: string): Promise<string>;
  /** A pending hit, as the database search records it. */
  recordHit(candidate: HitCandidate): Promise<string>;
  /** An Identity hit between two fresh copies of CODIS_PROFILE named `${name}-E` and `${name}-R`. */
  identityHit(name: string): Promise<string>;
  /** identityHit, found by the seed forensic identity rule with FBI 2015 and the synthetic population side by side (tests/helpers/hit-figures.ts). */
  ruleHit(name: string): Promise<string>;
}

/**
 * One organization with a case, FBI 2015 Caucasian frequencies as its population and the seeded
 * analyses: what the hit screens and the keyboard search need from the real server.
 */
export async function matchingWorld(caseNumber = 'CASE-HITS-1'): Promise<MatchingWorld> {
  const t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id);
  const call = (method: 'POST' | 'PUT', url: string, payload: object) => t.app.inject({ method, url, headers: { authorization: `Bearer ${admin}` }, payload });

  const analysisIds = Object.fromEntries((await db.select().from(analyses)).map((a) => [a.name, a.id]));
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  // Assigned to the case and receiving notifications: a publish with notify e-mails her.
  const assigned = await createUser(db, { email: 'nina@oslo.test', organizationIds: [orgId] });
  await db.update(users).set({ receiveNotifications: true }).where(eq(users.id, assigned.id));
  const created = await call('POST', '/api/cases', { caseNumber, caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [assigned.id] });
  expect(created.statusCode, created.body).toBe(201);
  const caseId = created.json().id as string;

  const pop = (await call('POST', '/api/populations', { name: 'FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [orgId] })).json();
  const form = await multipartBody({ version: String(pop.version), population: 'Caucasian' }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${pop.id}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${admin}` } });
  expect(saved.statusCode, saved.body).toBe(200);
  const populationId = pop.id as string;

  const approvedProfile = async (sampleName: string, genotypes: Record<string, string[]>) => {
    const [row] = await db.insert(profiles).values({ profileId: sampleName, caseId, organizationId: orgId, kind: 'Autosomal', chemistryId, sampleType: 'Reference', status: 'approved' }).returning();
    await writeMarkerValues(db, row!.id, Object.entries(genotypes).map(([m, alleles], position) => ({ markerId: markerIds.get(m)!, alleles, position })));
    return row!.id;
  };
  const approveThroughApi = async (sampleName: string, genotypes: Record<string, string[]>, sampleType = 'Reference') => {
    const added = await call('POST', '/api/profiles', { caseId, chemistryId, sampleType, sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: sampleName, markerValues: [] }] });
    expect(added.statusCode, added.body).toBe(201);
    const { id, version } = added.json().items[0] as { id: string; version: number };
    const markerValues = Object.entries(genotypes).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles }));
    const typed = await call('PUT', `/api/profiles/${id}/markers`, { version, markerValues });
    expect(typed.statusCode, typed.body).toBe(200);
    const approved = await call('POST', `/api/profiles/${id}/approve`, { version: typed.json().version, markerValues, comments: '' });
    expect(approved.statusCode, approved.body).toBe(200);
    return id;
  };
  const recordHit = async (candidate: HitCandidate) => {
    const [hit] = await db.transaction((tx) => recordHitCandidates(tx as never, { organizationId: orgId, candidates: [candidate] }));
    return hit!.id;
  };
  const identityHit = async (name: string) => {
    const evidence = await approvedProfile(`${name}-E`, CODIS_PROFILE);
    const reference = await approvedProfile(`${name}-R`, CODIS_PROFILE);
    return recordHit({
      analysisId: analysisIds.Identity!,
      populationId,
      combinedIndex: 2.5e15,
      markerCount: 13,
      nonExclusionMarkerCount: null,
      profiles: [
        { role: 'Evidence', profileId: evidence },
        { role: 'Reference', profileId: reference },
      ],
    });
  };
  return {
    t,
    orgId,
    caseId,
    caseNumber,
    populationId,
    analysisIds,
    tokenFor: async (grants) => t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db, { grants })).id, organizationIds: [orgId] })).id),
    approvedProfile,
    approveThroughApi,
    recordHit,
    identityHit,
    ruleHit: async (name) => {
      const id = await identityHit(name);
      await asIdentityRuleHit(db, id, populationId);
      return id;
    },
  };
}
