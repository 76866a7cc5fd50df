import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportState, ProfileImportJob, ProfileImportRow } from '../../../../core/schemas/profile-imports';
import type { ProfileWithMarkers } from '../../../../core/schemas/profiles';
import type { Db } from '../../../../server/db/database';
import { caseTypes, chemistries, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeKitThresholds } from '../../../../server/kits/kit-alleles';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';
import { eq } from 'drizzle-orm';

// Issue 31 "Bad input gets a clear message per row and loses nothing": the preview, read for the kit chosen for the
// add, says per row which heights are under the kit's analytical threshold (kept, flagged) and which alleles without a
// size the kit cannot size; neither keeps the profile from being added, and the heights are stored as read.

const clock = { current: new Date('2026-11-28T10:00:00Z'), now: () => clock.current };
let t: TestApp;
let db: Db;
let token: string;
let orgId: string;
let caseTypeId: string;
let esx17: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  caseTypeId = (await db.select().from(caseTypes).limit(1))[0]!.id;
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Markers: ['Read'], AutosomalChemistries: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  esx17 = (await db.select().from(chemistries)).find((c) => c.name === 'PowerPlex ESX 17')!.id;
  // The laboratory's thresholds: 50 RFU for the kit, 200 for its yellow dye (vWA is yellow in kit.txt).
  await writeKitThresholds(db, esx17, { kit: 50, dyes: { yellow: 200 } });
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

const FILE = [
  'Sample Name,Sample File,Marker,Allele 1,Allele 2,Height 1,Height 2',
  'S1,S1_A01.fsa,D3S1358,15,16,800,40',
  'S1,S1_A01.fsa,vWA,14,17,150,900',
  'S1,S1_A01.fsa,D5S818,11,12,300,310',
  'S1,S1_B01.fsa,D3S1358,15,16,700,650',
  'S2,S2_A01.fsa,D3S1358,15,,900,',
].join('\n');

describe('height warnings in the import preview', () => {
  it('names per row each height under the chosen kit’s threshold and each allele the kit cannot size; the profile is still added with every height', async () => {
    const created = await call('POST', '/api/cases', { caseNumber: '2026-W1', caseTypeId, organizationId: orgId, assignedUserIds: [] });
    const caseId = (created.json() as { id: string }).id;
    const body = await multipartBody({ caseId }, { name: 'heights.csv', bytes: FILE });
    const uploaded = await t.app.inject({ method: 'POST', url: '/api/profile-imports', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
    expect(uploaded.statusCode, uploaded.body).toBe(202);
    const { job, token: approval } = await waitFor((uploaded.json() as ProfileImportJob).id, ['parsed']);
    const page = async (query: string) => {
      const res = await call('GET', `/api/profile-imports/${job.id}/profiles?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { items: ProfileImportRow[] }).items;
    };

    // Without a kit, nothing to weigh the heights against.
    expect((await page('')).map((r) => r.warnings)).toEqual([[], []]);
    const rows = await page(`chemistryId=${esx17}`);
    expect(rows.map((r) => r.profileId)).toEqual(['S1', 'S2']);
    expect(rows[0]!.warnings).toEqual([
      'D3S1358 of S1, run S1_A01.fsa: the height 40 of allele 16 is under the analytical threshold of PowerPlex ESX 17 (50 RFU); kept and flagged',
      'vWA of S1, run S1_A01.fsa: the height 150 of allele 14 is under the analytical threshold of PowerPlex ESX 17 (200 RFU); kept and flagged',
      'D5S818 of S1, run S1_A01.fsa: no size for 11, 12: the kit PowerPlex ESX 17 has no allele table for D5S818',
    ]);
    // One run, named as its sample: the run is not named again.
    expect(rows[1]!.warnings).toEqual([]);
    expect(rows[0]!.errors).toEqual([]);

    const unknownKit = await call('GET', `/api/profile-imports/${job.id}/profiles?chemistryId=00000000-0000-7000-8000-000000000000`);
    expect(unknownKit.statusCode).toBe(404);

    // Warnings never block: both profiles are added and the flagged height is kept.
    const added = await call(
      'POST',
      `/api/profile-imports/${job.id}/add`,
      { caseId, chemistryId: esx17, sampleType: 'Forensic Mixture', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '' },
      { approval },
    );
    expect(added.statusCode, added.body).toBe(202);
    expect((await waitFor(job.id, ['added', 'parsed', 'interrupted'])).job).toMatchObject({ state: 'added', addedCount: 2 });
    const [s1] = await db.select().from(profiles).where(eq(profiles.profileId, 'S1'));
    const read = (await call('GET', `/api/profiles/${s1!.id}`)).json() as ProfileWithMarkers;
    const d3 = read.replicates[0]!.markers.find((m) => m.marker === 'D3S1358')!.peaks;
    expect(d3.map((p) => [p.allele, p.height, p.belowThreshold])).toEqual([['15', 800, false], ['16', 40, true]]);
  });
});
