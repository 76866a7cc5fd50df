import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Profile, SampleType } from '../../core/schemas/profiles';
import { chemistries, markers } from '../../server/db/schema';
import type { TestApp } from './app';
import { multipartBody } from './multipart';

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/frequencies/fbi2015.csv'));

const as = (token: string) => ({ authorization: `Bearer ${token}` });

/** A population shared with the organizations, its statistics uploaded from the FBI 2015 table (one of its populations). Returns its id. */
export async function uploadFbiPopulation(t: TestApp, adminToken: string, organizationIds: string[], population = 'Caucasian', name = `FBI 2015 ${population}`): Promise<string> {
  const pop = (await t.app.inject({ method: 'POST', url: '/api/populations', headers: as(adminToken), payload: { name, kind: 'Autosomal', organizationIds } })).json() as { id: string; version: number };
  await uploadFbiStatistics(t, adminToken, pop, population);
  return pop.id;
}

/** Replaces a population's statistics with one population of the FBI 2015 table, as an administrator uploads them. */
export async function uploadFbiStatistics(t: TestApp, adminToken: string, pop: { id: string; version: number }, population: string): Promise<void> {
  const form = await multipartBody({ version: String(pop.version), population }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${pop.id}/statistics`, payload: form.payload, headers: { ...form.headers, ...as(adminToken) } });
  expect(saved.statusCode, saved.body).toBe(200);
}

/** A pending profile of the case entered by hand through the API, then its marker values (marker name → alleles). Returns its id. */
export async function addProfileWithMarkers(
  t: TestApp,
  token: string,
  caseId: string,
  profileId: string,
  genotypes: Record<string, string[]>,
  opts: { chemistry?: string; sampleType?: SampleType } = {},
): Promise<string> {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, opts.chemistry ?? 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const payload = { caseId, chemistryId: chem!.id, sampleType: opts.sampleType ?? 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId, markerValues: [] }] };
  const added = (await t.app.inject({ method: 'POST', url: '/api/profiles', headers: as(token), payload })).json() as { items: Profile[] };
  const p = added.items[0]!;
  const markerValues = Object.entries(genotypes).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles }));
  const res = await t.app.inject({ method: 'PUT', url: `/api/profiles/${p.id}/markers`, headers: as(token), payload: { version: p.version, markerValues } });
  expect(res.statusCode, res.body).toBe(200);
  return p.id;
}
