/**
 * Issue 31 "Quantitative database search": approving a Forensic Mixture with peak heights runs the seed mixture rule
 * with the continuous model through the search queue. EuroForMix's ESX17 stain (stain80, stain68, stain51 imported
 * as one profile's three replicates) against ref1, ref2 and synthetic non-contributors drawn from the Norwegian ESX17
 * frequencies: the true contributors become pending hits with both numbers, each above every non-contributor.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profileGenerator } from '../../../../bench/synthetic-profiles';
import type { ImportState, ProfileImportJob } from '../../../../core/schemas/profile-imports';
import type { ProfileWithMarkers } from '../../../../core/schemas/profiles';
import type { SearchJob } from '../../../../core/schemas/searches';
import type { SearchRule } from '../../../../core/schemas/search-rules';
import { caseTypes, cases, chemistries, hitProfiles, hits, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { packMarkerValues } from '../../../../server/http/profiles/marker-values';
import type { Genotype, PopulationFrequencies } from '../../../../server/genetics/types';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { databaseEngines } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { multipartBody } from '../../../helpers/multipart';

const DATA = path.resolve(import.meta.dirname, '../../../../../shared/data/formats');
const read = (file: string) => readFileSync(path.join(DATA, file));
const rows = (file: string, separator: string) => read(file).toString('utf8').trim().split(/\r?\n/).map((l) => l.split(separator));
/** Non-contributors drawn from the frequencies (besides ref1 and ref2). */
const OTHERS = 300;

const [header, ...table] = rows('frequencies-formats/ESX17_NorwayAMEL.csv', ';');
// The file writes VWA where the kit writes vWA; Amelogenin is not weighed.
const markerName = (m: string) => (m === 'VWA' ? 'vWA' : m);
const norway: PopulationFrequencies = {
  name: 'Norway ESX17',
  minimumAlleleFrequency: 0.001,
  markers: new Map(header!.slice(1).flatMap((m, j) => (m === 'AMEL' ? [] : [[markerName(m), { sampleSize: null, frequencies: new Map(table.filter((r) => r[j + 1]).map((r) => [r[0]!, Number(r[j + 1])])) }] as const]))),
};
const refs = rows('genemapper/ESX17_refs.csv', ',');
const ref = (name: string) => new Map(refs.filter((r) => r[0] === name).map((r) => [markerName(r[1]!), [...new Set(r.slice(2, 4))]] as [string, Genotype]));

const engines = await databaseEngines();

describe.each(engines)('approving the ESX17 stain with heights on $name', ({ open }) => {
  let t: TestApp;
  let token = '';
  let orgId = '';
  const names = new Map<string, string>();
  let searches: SearchJob[] = [];

  const as = () => ({ authorization: `Bearer ${token}` });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) => t.app.inject({ method, url, headers: { ...as(), ...headers }, ...(payload ? { payload } : {}) });

  async function waitFor(jobId: string, states: ImportState[]): Promise<{ job: ProfileImportJob; token: string }> {
    for (let tries = 0; tries < 600; tries++) {
      const res = await call('GET', `/api/profile-imports/${jobId}`);
      const job = res.json() as ProfileImportJob;
      if (states.includes(job.state)) return { job, token: res.headers['approval-token'] as string };
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not finish');
  }

  async function approve(id: string) {
    const p = (await call('GET', `/api/profiles/${id}`)).json() as ProfileWithMarkers;
    const res = await call('POST', `/api/profiles/${id}/approve`, { markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })), comments: '', version: p.version });
    expect(res.statusCode, res.body).toBe(200);
  }

  beforeAll(async () => {
    const database = await open();
    const db = database.db;
    orgId = (await createOrganization(db, 'Oslo Lab')).id;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    const admin = await createAccessGroup(db, { isAdmin: true });
    const adminId = (await createUser(db, { scope: 'All', accessGroupId: admin.id })).id;
    const esx17 = (await db.select().from(chemistries).where(eq(chemistries.name, 'PowerPlex ESX 17')))[0]!.id;
    const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
    const [caseType] = await db.select().from(caseTypes).limit(1);
    const caseId = (await db.insert(cases).values({ caseNumber: 'ESX-1', caseTypeId: caseType!.id, organizationId: orgId }).returning())[0]!.id;
    // The references stored approved before the server starts, in one insert: its index reads them at start-up, no search each.
    const generate = profileGenerator(norway, 3131);
    const people: [string, ReadonlyMap<string, Genotype>][] = [['ref1', ref('ref1')], ['ref2', ref('ref2')], ['ref3', ref('ref3')], ...Array.from({ length: OTHERS }, (_, i) => [`OTHER-${i + 1}`, generate()] as [string, ReadonlyMap<string, Genotype>])];
    const codes = new Map((await db.select().from(markers)).map((m) => [m.id, m.code]));
    const stored = await db
      .insert(profiles)
      .values(people.map(([name, genotypes]) => ({ profileId: name, caseId, organizationId: orgId, kind: 'Autosomal' as const, chemistryId: esx17, sampleType: 'Convicted Offender' as const, status: 'approved' as const, reviewedAt: new Date(), searchedAt: new Date(), genotype: Buffer.from(packMarkerValues([...genotypes].map(([m, alleles], position) => ({ markerId: markerIds.get(m)!, alleles: [...alleles], position })), codes)) })))
      .returning({ id: profiles.id, name: profiles.profileId });
    for (const p of stored) names.set(p.id, p.name);
    t = await createTestApp({ database });
    token = t.verifier.issue(adminId);
    // The Norwegian frequencies, shared with the laboratory.
    const pop = (await call('POST', '/api/populations', { name: 'Norway ESX17', kind: 'Autosomal', organizationIds: [orgId] })).json() as { id: string; version: number };
    const form = await multipartBody({ version: String(pop.version) }, { name: 'ESX17_NorwayAMEL.csv', bytes: read('frequencies-formats/ESX17_NorwayAMEL.csv'), type: 'text/csv' });
    const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${pop.id}/statistics`, payload: form.payload, headers: { ...form.headers, ...as() } });
    expect(saved.statusCode, saved.body).toBe(200);
    // The laboratory's LR for low-template mixtures: 100. Under the search's model (no stutter, no degradation) ref2 and
    // ref3 weigh 10^3.3 and 10^2.8, under the seed rule's 10,000 (the analysis's own); the non-contributors stay under 10^2.
    const rules = (await call('GET', '/api/search-rules?pageSize=100')).json() as { items: (SearchRule & Record<string, unknown>)[] };
    const { id: ruleId, analysisName: _n, analysisKind: _k, profileKind: _p, populationNames: _pn, createdAt: _c, updatedAt: _u, ...rule } = rules.items.find((r) => r.analysisKind === 'Mixture')!;
    const put = await call('PUT', `/api/search-rules/${ruleId}`, { ...rule, threshold: 100 });
    expect(put.statusCode, put.body).toBe(200);
    // The three runs imported as one stain's replicates, then approved.
    const body = await multipartBody({ caseId }, { name: 'ESX17_evids_LTDNA.csv', bytes: read('genemapper/ESX17_evids_LTDNA.csv') });
    const started = await t.app.inject({ method: 'POST', url: '/api/profile-imports', payload: body.payload, headers: { ...body.headers, ...as() } });
    expect(started.statusCode, started.body).toBe(202);
    const { job, token: approval } = await waitFor((started.json() as ProfileImportJob).id, ['parsed']);
    const added = await call('POST', `/api/profile-imports/${job.id}/add`, { caseId, chemistryId: esx17, sampleType: 'Forensic Mixture', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', groups: [[0, 1, 2]] }, { approval });
    expect(added.statusCode, added.body).toBe(202);
    await waitFor(job.id, ['added']);
    const [stain] = await db.select().from(profiles).where(eq(profiles.profileId, 'stain80'));
    names.set(stain!.id, 'STAIN');
    await approve(stain!.id);
    // The stain's search fits Hd (three unknowns) and each hit under Hp: longer than searchesDone waits.
    for (let tries = 0; ; tries++) {
      const jobs = ((await call('GET', '/api/organizations/all/searches')).json() as { items: SearchJob[] }).items;
      searches = jobs.filter((j) => j.sampleName === 'stain80');
      if (searches.length > 0 && searches.every((j) => j.status === 'done' || j.status === 'failed')) break;
      if (tries > 2400) throw new Error('the stain\'s search did not finish');
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 240_000);
  afterAll(() => t?.close());

  it('records ref1, ref2 and ref3 as pending hits with the exact and the scan’s LR, and no non-contributor', async () => {
    expect(searches.map((j) => [j.status, j.error])).toEqual([['done', null]]);
    const db = t.database.db;
    const found = await db.select({ hit: hits, profileId: hitProfiles.profileId }).from(hits).innerJoin(hitProfiles, eq(hitProfiles.hitId, hits.id)).where(eq(hits.matchKind, 'mixture'));
    const candidates = found.filter((r) => names.get(r.profileId) !== 'STAIN').map((r) => ({ name: names.get(r.profileId)!, hit: r.hit }));
    // Every true contributor over the rule's LR, each of the 300 drawn from the frequencies under it.
    expect(candidates.map((c) => c.name).sort()).toEqual(['ref1', 'ref2', 'ref3']);
    for (const { hit } of candidates) {
      expect(hit.status).toBe('pending');
      // Both numbers: the exact LR of the hit's own Hp fit (the hit's number) and the scan's at Hd's fit, each over 100.
      expect(hit.combinedIndex!).toBeGreaterThanOrEqual(100);
      expect(hit.scanCombinedIndex!).toBeGreaterThanOrEqual(100);
      expect(hit.combinedIndex).not.toBe(hit.scanCombinedIndex);
      expect(hit.expectedChanceHits!).toBeLessThan(1);
    }
    const byName = new Map(candidates.map((c) => [c.name, c.hit]));
    // ref1, the major contributor, far above the minor ones.
    expect(Math.log10(byName.get('ref1')!.combinedIndex!)).toBeGreaterThan(Math.log10(byName.get('ref2')!.combinedIndex!) + 4);
  });
});
