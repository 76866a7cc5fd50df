import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../../core/schemas/profiles';
import { caseTypes, chemistries, laboratories, markers } from '../../../../../server/db/schema';
import { seedReferenceData } from '../../../../../server/db/seed/reference-data';
import { createTestApp, type TestApp } from '../../../../helpers/app';
import { createAccessGroup, createOrganization, createUser } from '../../../../helpers/factories';

// GET /api/profiles/{id}/download?format=cmf answers a profile CMF 3.2 cannot hold with a 400 whose `error` names
// the profile and the problem: the message the SPA's API client shows for a 400 (spec 8.1).

let t: TestApp;
let token: string;
let caseId: string;
let globalFiler: string;
let laboratoryId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const organizationId = (await createOrganization(db, 'Oslo Lab')).id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add'], Profiles: ['Read', 'Add'], Markers: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [organizationId] })).id);
  const res = await call('POST', '/api/cases', { caseNumber: 'C-2026-0042', caseTypeId: caseType!.id, organizationId, assignedUserIds: [] });
  caseId = (res.json() as { id: string }).id;
  globalFiler = (await db.select().from(chemistries)).find((c) => c.name === 'GlobalFiler')!.id;
  for (const m of await db.select().from(markers)) ids[m.name] = m.id;
  laboratoryId = (await db.insert(laboratories).values({ name: 'NO0150000' }).returning())[0]!.id;
}, 60_000);
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
}

async function add(profileId: string, sampleType: string, markerValues: Record<string, string[]>, laboratory: string | null = laboratoryId) {
  const res = await call('POST', '/api/profiles', {
    caseId,
    chemistryId: globalFiler,
    sampleType,
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: laboratory,
    comments: '',
    profiles: [{ profileId, markerValues: Object.entries(markerValues).map(([marker, alleles]) => ({ markerId: ids[marker]!, alleles })) }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { items: Profile[] }).items[0]!;
}

describe('GET /api/profiles/{id}/download', () => {
  it('refuses a CMF export of a Reference profile with a 400 naming it; its CSV still downloads', async () => {
    const p = await add('REF-1', 'Reference', { D3S1358: ['15', '16'] });
    const res = await call('GET', `/api/profiles/${p.id}/download?format=cmf&submitter=analyst1`);
    expect(res.statusCode).toBe(400);
    const problem = 'Profile REF-1: the sample type "Reference" has no CODIS specimen category; give the profile the sample type it stands for (for example "Suspect, Known" or "Victim, Known")';
    expect(res.json()).toEqual({ error: `No CMF file was written: ${problem}.`, details: { problems: [problem] } });
    expect(res.headers['content-disposition']).toBeUndefined();
    expect((await call('GET', `/api/profiles/${p.id}/download?format=csv`)).statusCode).toBe(200);
  });

  it('writes remains as CODIS’s Unidentified Person, with the case number as CASEID', async () => {
    const p = await add('UHR-1', 'Unidentified Human (Remains)', { D3S1358: ['15', '16'], Amelogenin: ['X'] });
    const res = await call('GET', `/api/profiles/${p.id}/download?submitter=analyst1`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<SPECIMEN CASEID="C-2026-0042">');
    expect(res.body).toContain('<SPECIMENCATEGORY>Unidentified Person</SPECIMENCATEGORY>');
  });

  it('lets the export choose the CODIS specimen category and a short specimen id for a Reference with a long name', async () => {
    const p = await add('REFERENCE-OF-THE-VICTIM-0001', 'Reference', { D3S1358: ['15', '16'] });
    const query = new URLSearchParams({ specimenCategory: 'Victim, Known', specimenId: 'V-0001', submitter: 'analyst1' });
    const res = await call('GET', `/api/profiles/${p.id}/download?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<SPECIMENID>V-0001</SPECIMENID>');
    expect(res.body).toContain('<SPECIMENCATEGORY>Victim, Known</SPECIMENCATEGORY>');
    expect(res.body).toContain('<SOURCELAB>NO0150000</SOURCELAB>');
    expect(res.body).toContain('<SUBMITBYUSERID>analyst1</SUBMITBYUSERID>');
    expect((await call('GET', `/api/profiles/${p.id}/download?specimenCategory=Reference`)).statusCode).toBe(400);
  });

  it('refuses a profile with no laboratory instead of writing NO-ORI/NO-LAB', async () => {
    const p = await add('NOLAB-1', 'Suspect, Known', { D3S1358: ['15', '16'] }, null);
    const res = await call('GET', `/api/profiles/${p.id}/download`);
    expect(res.statusCode).toBe(400);
    const { details } = res.json() as { details: { problems: string[] } };
    expect(details.problems).toEqual(['the profile has no laboratory, which CMF 3.2 names as SOURCELAB; give the profile its laboratory']);
    expect(res.body).not.toContain('NO-LAB');
  });

  it('names a user whose e-mail address is over 20 characters by its part before the @, never a cut address', async () => {
    const p = await add('LONGMAIL-1', 'Suspect, Known', { D3S1358: ['15', '16'] });
    const res = await call('GET', `/api/profiles/${p.id}/download`);
    expect(res.statusCode, res.body).toBe(200);
    // The test user's address (user-…@lab.test) has 22 characters: SUBMITBYUSERID is user-….
    const [, submitter] = /<SUBMITBYUSERID>([^<]*)<\/SUBMITBYUSERID>/.exec(res.body)!;
    expect(submitter).toMatch(/^user-[^@]+$/);
    expect(submitter!.length).toBeLessThanOrEqual(20);
  });
});
