import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportState, ProfileImportJob } from '../../../../core/schemas/profile-imports';
import type { ProfileWithMarkers } from '../../../../core/schemas/profiles';
import type { Db } from '../../../../server/db/database';
import { caseTypes, chemistries, profileImportRows, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';

// Issue 31: the preview joins differently named samples (the three runs of one extract) into one profile as its
// replicates; the confirmation carries the grouping and the server checks it.

const FILE = path.resolve(import.meta.dirname, '../../../../../shared/data/formats/genemapper/ESX17_evids_LTDNA.csv');
const clock = { current: new Date('2026-11-28T10:00:00Z'), now: () => clock.current };

let t: TestApp;
let db: Db;
let token: string;
let orgId: string;
let caseTypeId: string;
let esx17: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ clock });
  db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  caseTypeId = (await db.select().from(caseTypes).limit(1))[0]!.id;
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Markers: ['Read'], AutosomalChemistries: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  esx17 = (await db.select().from(chemistries)).find((c) => c.name === 'PowerPlex ESX 17')!.id;
}, 60_000);
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) });

async function waitFor(jobId: string, states: ImportState[]): Promise<{ job: ProfileImportJob; token: string }> {
  for (let tries = 0; ; tries++) {
    const res = await call('GET', `/api/profile-imports/${jobId}`);
    const job = res.json() as ProfileImportJob;
    if (states.includes(job.state)) return { job, token: res.headers['approval-token'] as string };
    if (tries > 400) throw new Error(`Import stayed ${job.state}: ${job.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A new case and the file parsed for it: the job, its approval and the case. */
async function parsedFile(name: string, bytes: Buffer | string) {
  const created = await call('POST', '/api/cases', { caseNumber: `2026-G${++seq}`, caseTypeId, organizationId: orgId, assignedUserIds: [] });
  const caseId = (created.json() as { id: string }).id;
  const body = await multipartBody({ caseId }, { name, bytes });
  const res = await t.app.inject({ method: 'POST', url: '/api/profile-imports', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(202);
  const { job, token: approval } = await waitFor((res.json() as ProfileImportJob).id, ['parsed']);
  return { job, approval, caseId };
}

const confirm = (jobId: string, approval: string, caseId: string, extra: object) =>
  call('POST', `/api/profile-imports/${jobId}/add`, { caseId, chemistryId: esx17, sampleType: 'Forensic Mixture', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', ...extra }, { approval });

const message = (res: { statusCode: number; json: () => unknown }) => {
  expect(res.statusCode).toBe(400);
  return (res.json() as { error: string }).error;
};

describe('joining samples as one profile’s replicates', () => {
  it('adds the three stains of ESX17_evids_LTDNA.csv as one profile with three replicates when grouped', async () => {
    const { job, approval, caseId } = await parsedFile('ESX17_evids_LTDNA.csv', readFileSync(FILE));
    expect(job.profileCount).toBe(3);
    const res = await confirm(job.id, approval, caseId, { groups: [[2, 0, 1]] });
    expect(res.statusCode, res.body).toBe(202);
    const { job: done } = await waitFor(job.id, ['added', 'parsed', 'interrupted']);
    expect(done).toMatchObject({ state: 'added', addedCount: 1 });
    const added = await db.select().from(profiles).where(eq(profiles.caseId, caseId));
    expect(added.map((p) => p.profileId)).toEqual(['stain80']);
    const read = (await call('GET', `/api/profiles/${added[0]!.id}`)).json() as ProfileWithMarkers;
    expect(read.replicates.map((r) => r.name)).toEqual(['stain80', 'stain68', 'stain51']);
    // The marker values are the union of the runs' alleles (what searches read), and every run keeps its heights.
    const union = (marker: string) => [...new Set(read.replicates.flatMap((r) => r.markers.find((m) => m.marker === marker)?.peaks.map((p) => p.allele) ?? []))].sort();
    expect([...read.markerValues.find((m) => m.marker === 'D3S1358')!.alleles].sort()).toEqual(union('D3S1358'));
    expect(read.replicates[0]!.markers.find((m) => m.marker === 'D3S1358')!.peaks.map((p) => p.height)).toEqual([190, 432, 132]);
  });

  it('keeps the stains apart without a grouping', async () => {
    const { job, approval, caseId } = await parsedFile('ESX17_evids_LTDNA.csv', readFileSync(FILE));
    expect((await confirm(job.id, approval, caseId, {})).statusCode).toBe(202);
    expect((await waitFor(job.id, ['added', 'parsed', 'interrupted'])).job).toMatchObject({ state: 'added', addedCount: 3 });
  });

  it('refuses a sample in two groups, a sample without heights and runs of two kits, with the row named', async () => {
    const { job, approval, caseId } = await parsedFile('ESX17_evids_LTDNA.csv', readFileSync(FILE));
    expect(message(await confirm(job.id, approval, caseId, { groups: [[0, 1], [1, 2]] }))).toBe('Profile number 2 is in two groups (or twice in one); a sample joins one profile only');
    expect(message(await confirm(job.id, approval, caseId, { groups: [[0, 1]], exclude: [1] }))).toBe('row 2 (stain68) is left out or marked with errors; only chosen profiles can be joined as replicates');
    await db.update(profileImportRows).set({ kit: 'NGM' }).where(and(eq(profileImportRows.importId, job.id), eq(profileImportRows.index, 2)));
    expect(message(await confirm(job.id, approval, caseId, { groups: [[0, 2]] }))).toBe('row 3 (stain51) was typed with NGM and row 1 (stain80) with no kit named; replicates are runs of one kit');

    const plain = await parsedFile('plain.csv', 'Sample Name,Marker,Allele 1,Allele 2\nA,D3S1358,15,16\nB,D3S1358,15,17\n');
    expect(message(await confirm(plain.job.id, plain.approval, plain.caseId, { groups: [[0, 1]] }))).toBe('row 1 (A) has no peak heights; only runs read with heights can be joined as one profile’s replicates');
    // Nothing was added by a refused grouping, and the approval still adds the file.
    expect(await db.select().from(profiles).where(eq(profiles.caseId, caseId))).toEqual([]);
    expect((await confirm(job.id, approval, caseId, { groups: [[0, 1]] })).statusCode).toBe(202);
    expect((await waitFor(job.id, ['added', 'parsed', 'interrupted'])).job).toMatchObject({ state: 'added', addedCount: 2 });
  });
});
