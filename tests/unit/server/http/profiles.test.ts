import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../../core/schemas/audit';
import type { Profile, ProfileImportResult, ProfileWithMarkers } from '../../../../core/schemas/profiles';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import { verifyAuditChain } from '../../../../server/audit/audit-trail';
import { caseTypes, chemistries, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { APPROVAL_TTL_SECONDS } from '../../../../server/imports/approval-token';
import { PROFILE_IMPORT_LIMIT_BYTES } from '../../../../core/schemas/profile-imports';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';

const CMF = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/formats/cmf/Codis-Single-Profile.xml'));
const clock = { current: new Date('2026-11-22T10:00:00Z'), now: () => clock.current };

let t: TestApp;
let orgA: string;
let caseA: string;
let closedCase: string;
let globalFiler: string;
let yfilerPlus: string;
const ids = {} as Record<'D3S1358' | 'vWA' | 'Amelogenin' | 'DYS391' | 'DYS385', string>;
const tokens = {} as Record<'adminAll' | 'analystA' | 'reviewerA' | 'readerA' | 'analystB', string>;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  const orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit', 'ChangeSettings'], Profiles: ['Read', 'Add', 'Edit', 'Delete', 'ViewAudit'], Markers: ['Read'] } });
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read', 'Edit', 'Reset'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'] } });
  const issue = async (opts: Parameters<typeof createUser>[1]) => t.verifier.issue((await createUser(db, opts)).id);
  tokens.adminAll = await issue({ scope: 'All', accessGroupId: admin.id });
  tokens.analystA = await issue({ accessGroupId: analyst.id, organizationIds: [orgA] });
  tokens.reviewerA = await issue({ accessGroupId: reviewer.id, organizationIds: [orgA] });
  tokens.readerA = await issue({ accessGroupId: reader.id, organizationIds: [orgA] });
  tokens.analystB = await issue({ accessGroupId: analyst.id, organizationIds: [orgB] });
  const addCase = async (caseNumber: string) =>
    ((await call('analystA', 'POST', '/api/cases', { caseNumber, caseTypeId: caseType!.id, organizationId: orgA, assignedUserIds: [] })).json() as { id: string }).id;
  caseA = await addCase('2026-0100');
  closedCase = await addCase('2026-0101');
  await call('analystA', 'PUT', `/api/cases/${closedCase}/settings`, { status: 'Closed', notes: '', version: 1 });
  const chems = await db.select().from(chemistries);
  globalFiler = chems.find((c) => c.name === 'GlobalFiler')!.id;
  yfilerPlus = chems.find((c) => c.name === 'Yfiler Plus')!.id;
  for (const m of await db.select().from(markers)) if (m.name in { D3S1358: 1, vWA: 1, Amelogenin: 1, DYS391: 1, DYS385: 1 }) ids[m.name as keyof typeof ids] = m.id;
}, 60_000);
afterAll(() => t.close());

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}`, ...headers }, ...(payload ? { payload } : {}) });
}

async function importFile(who: keyof typeof tokens, name: string, bytes: Buffer | string) {
  const body = await multipartBody({}, { name, bytes });
  return t.app.inject({ method: 'POST', url: '/api/profiles/import', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${tokens[who]}` } });
}

const drafts = (result: ProfileImportResult) => result.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })) }));
const assignment = (caseId = caseA) => ({ caseId, chemistryId: globalFiler, sampleType: 'Forensic, Unknown', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '' });

async function parsedCmf(who: keyof typeof tokens = 'analystA') {
  const res = await importFile(who, 'Codis-Single-Profile.xml', CMF);
  expect(res.statusCode, res.body).toBe(200);
  return { result: res.json() as ProfileImportResult, token: res.headers['approval-token'] as string };
}

async function addByHand(profileId: string, markerValues: { markerId: string; alleles: string[] }[] = [], sampleType = 'Reference') {
  const res = await call('analystA', 'POST', '/api/profiles', { ...assignment(), sampleType, profiles: [{ profileId, markerValues }] });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { items: Profile[] }).items[0]!;
}

describe('importing profiles with the approval token', () => {
  it('parses a CMF file, saves nothing, and returns the profiles with a token in the Approval-Token header', async () => {
    const before = await t.database.db.$count(profiles);
    const { result, token } = await parsedCmf();
    expect(token).toMatch(/^v2\./);
    expect(result.format).toMatch(/CMF/);
    expect(result.profiles).toHaveLength(1);
    const [profile] = result.profiles;
    expect(profile!.profileId).toBe('ABCD1234NL#01');
    expect(profile!.markerValues.find((m) => m.marker === 'vWA')!.alleles).toEqual(['16']);
    expect(profile!.markerValues.find((m) => m.marker === 'Amelogenin')!.alleles).toEqual(['X', 'Y']);
    expect(result.suggestedChemistryId).not.toBeNull();
    expect(await t.database.db.$count(profiles)).toBe(before);
  });

  it('adds exactly the parsed profiles, pending, when the token comes back', async () => {
    const { result, token } = await parsedCmf();
    const res = await call('analystA', 'POST', '/api/profiles', { ...assignment(), profiles: drafts(result), importedFrom: result.fileName }, { approval: token });
    expect(res.statusCode, res.body).toBe(201);
    const [added] = (res.json() as { items: Profile[] }).items;
    expect(added).toMatchObject({ profileId: 'ABCD1234NL#01', status: 'pending', kind: 'Autosomal', caseNumber: '2026-0100', source: 'Imported from Codis-Single-Profile.xml' });
    const review = (await call('readerA', 'GET', `/api/organizations/${orgA}/profiles?status=pending`)).json() as { items: Profile[] };
    expect(review.items.map((p) => p.id)).toContain(added!.id);
  });

  it('refuses content that differs from what was parsed, a forged token, another user’s token and an expired one', async () => {
    const { result, token } = await parsedCmf();
    const body = { ...assignment(), profiles: drafts(result) };
    const changed = structuredClone(body);
    changed.profiles[0]!.profileId = 'ABCD1234NL#99';
    changed.profiles[0]!.markerValues[0]!.alleles = ['99'];
    const refusal = async (who: keyof typeof tokens, payload: object, approval: string) => {
      const res = await call(who, 'POST', '/api/profiles', payload, { approval });
      expect(res.statusCode).toBe(400);
      return (res.json() as { details: { approval: string } }).details.approval;
    };
    expect(await refusal('analystA', changed, token)).toBe('mismatch');
    expect(await refusal('analystA', body, token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toBe('invalid');
    expect(await refusal('adminAll', body, token)).toBe('foreign');
    const later = clock.current;
    clock.current = new Date(later.getTime() + APPROVAL_TTL_SECONDS * 1000 + 1000);
    try {
      const res = await call('analystA', 'POST', '/api/profiles', body, { approval: token });
      expect(res.json()).toMatchObject({ error: 'The approval of this import has expired. Parse the file again, then confirm.', details: { approval: 'expired' } });
    } finally {
      clock.current = later;
    }
  });

  it('adds nothing when one of the profiles cannot be added (one transaction)', async () => {
    // S-NEW is new; ABCD1234NL#01 was added from the CMF file above.
    const csv = 'Sample Name,Marker,Allele 1,Allele 2\nS-NEW,D3S1358,15,16\nABCD1234NL#01,D3S1358,15,16\n';
    const parsed = await importFile('analystA', 'two.csv', csv);
    const result = parsed.json() as ProfileImportResult;
    expect(result.profiles.map((p) => p.profileId)).toEqual(['S-NEW', 'ABCD1234NL#01']);
    const res = await call('analystA', 'POST', '/api/profiles', { ...assignment(), profiles: drafts(result) }, { approval: parsed.headers['approval-token'] as string });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Case 2026-0100 already has profile ABCD1234NL#01; nothing was added.');
    expect(await t.database.db.$count(profiles, eq(profiles.profileId, 'S-NEW'))).toBe(0);
  });

  it('refuses profiles from a file without an approval, and any profile in a closed case', async () => {
    const two = { ...assignment(), profiles: [{ profileId: 'A', markerValues: [] }, { profileId: 'B', markerValues: [] }] };
    expect((await call('analystA', 'POST', '/api/profiles', two)).statusCode).toBe(400);
    const closed = await call('analystA', 'POST', '/api/profiles', { ...assignment(closedCase), profiles: [{ profileId: 'C', markerValues: [] }] });
    expect(closed.statusCode).toBe(409);
  });

  it('names an unknown marker once, and does not offer a token that could add it', async () => {
    const csv = 'Sample Name,Marker,Allele 1,Allele 2\nS1,D3S1358,15,16\nS1,NOTAMARKER,1,2\nS2,NOTAMARKER,3,4\n';
    const res = await importFile('analystA', 'unknown.csv', csv);
    expect(res.statusCode).toBe(200);
    const result = res.json() as ProfileImportResult;
    expect(result.errors.filter((e) => e.message === 'Marker NOTAMARKER is invalid')).toHaveLength(1);
  });

  it('reads a file above the app-wide 20 MB limit, and answers 413 above the profile import limit', async () => {
    // 1,000 references whose rows carry a long ignored column (a GeneMapper export keeps sizes and comments).
    const pad = '1'.repeat(23_000);
    const rows = ['Sample Name,Marker,Allele 1,Allele 2,Size 1', ...Array.from({ length: 1000 }, (_, i) => `OFF-${String(i).padStart(4, '0')},D3S1358,15,16,${pad}`)];
    const big = Buffer.from(rows.join('\n'));
    expect(big.length).toBeGreaterThan(21 * 1024 * 1024);
    const read = await importFile('analystA', 'offenders.csv', big);
    expect(read.statusCode, read.body.slice(0, 300)).toBe(200);
    expect((read.json() as ProfileImportResult).profiles).toHaveLength(1000);
    const res = await importFile('analystA', 'huge.csv', Buffer.alloc(PROFILE_IMPORT_LIMIT_BYTES + 1024, 0x41));
    expect(res.statusCode).toBe(413);
  });

  it('lets only Profiles Add import, and keeps another organization’s case out of reach', async () => {
    expect((await importFile('readerA', 'x.xml', CMF)).statusCode).toBe(403);
    const { result, token } = await parsedCmf('analystB');
    const res = await call('analystB', 'POST', '/api/profiles', { ...assignment(), profiles: drafts(result) }, { approval: token });
    expect(res.statusCode).toBe(404);
  });
});

describe('entering and reviewing a profile', () => {
  it('validates each marker value and names the marker in the message', async () => {
    const p = await addByHand('REF-1');
    const bad = await call('analystA', 'PUT', `/api/profiles/${p.id}/markers`, {
      version: p.version,
      markerValues: [
        { markerId: ids.D3S1358, alleles: ['15', '16', '17'] },
        { markerId: ids.vWA, alleles: ['X'] },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const details = bad.json().details as { path: string; message: string }[];
    expect(details.map((d) => d.path)).toEqual(['/markerValues/0/alleles', '/markerValues/1/alleles']);
    expect(details[0]!.message).toContain('D3S1358');
    expect(details[1]!.message).toContain('vWA');
  });

  it('stores marker values canonically in the kit’s order, keeping the kit’s Y markers', async () => {
    const p = await addByHand('REF-2');
    const res = await call('analystA', 'PUT', `/api/profiles/${p.id}/markers`, {
      version: p.version,
      markerValues: [
        { markerId: ids.Amelogenin, alleles: ['Y', 'X'] },
        { markerId: ids.DYS391, alleles: ['10'] },
        { markerId: ids.vWA, alleles: ['17', '14'] },
        { markerId: ids.D3S1358, alleles: ['16', '16'] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json() as ProfileWithMarkers;
    expect(saved.markerValues.map((m) => [m.marker, m.alleles])).toEqual([
      ['D3S1358', ['16']],
      ['vWA', ['14', '17']],
      ['Amelogenin', ['X', 'Y']],
      ['DYS391', ['10']],
    ]);
  });

  it('refuses a Y-STR marker that is not in the kit, and a Y-STR chemistry for an autosomal profile', async () => {
    const p = await addByHand('REF-3');
    const res = await call('analystA', 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: [{ markerId: ids.DYS385, alleles: ['11', '14'] }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('DYS385');
    const wrongKit = await call('analystA', 'PUT', `/api/profiles/${p.id}`, { ...assignment(), chemistryId: yfilerPlus, profileId: 'REF-3', version: p.version });
    expect(wrongKit.statusCode).toBe(400);
  });

  it('approves, rejects and resets only from the states the workflow allows, each audited', async () => {
    const values = [{ markerId: ids.D3S1358, alleles: ['15', '16'] }];
    const p = await addByHand('REF-4', values);
    expect((await call('readerA', 'POST', `/api/profiles/${p.id}/approve`, { markerValues: values, comments: '', version: p.version })).statusCode).toBe(403);
    const approved = await call('reviewerA', 'POST', `/api/profiles/${p.id}/approve`, { markerValues: values, comments: 'Checked against the EPG', version: p.version });
    expect(approved.statusCode, approved.body).toBe(200);
    const a = approved.json() as ProfileWithMarkers;
    expect(a).toMatchObject({ status: 'approved', reviewComments: 'Checked against the EPG', reviewedBy: 'Test User' });
    // Approved profiles are not edited, rejected or approved again.
    const rejectApproved = await call('reviewerA', 'POST', `/api/profiles/${p.id}/reject`, { reason: 'x', version: a.version });
    expect(rejectApproved.statusCode).toBe(409);
    expect(rejectApproved.json().error).toBe('Profile REF-4 is approved; only a pending profile can be rejected.');
    expect((await call('analystA', 'PUT', `/api/profiles/${p.id}/markers`, { markerValues: values, version: a.version })).statusCode).toBe(409);
    expect((await call('analystA', 'DELETE', `/api/profiles/${p.id}`)).statusCode).toBe(409);
    // A stale screen is told that the profile changed.
    const stale = await call('reviewerA', 'POST', `/api/profiles/${p.id}/reset`, { comments: '', version: p.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(STALE_RECORD_MESSAGE);
    const reset = (await call('reviewerA', 'POST', `/api/profiles/${p.id}/reset`, { comments: 'Wrong item', version: a.version })).json() as ProfileWithMarkers;
    expect(reset).toMatchObject({ status: 'pending', reviewedBy: null });
    expect((await call('reviewerA', 'POST', `/api/profiles/${p.id}/reject`, { reason: '  ', version: reset.version })).statusCode).toBe(400);
    const rejected = (await call('reviewerA', 'POST', `/api/profiles/${p.id}/reject`, { reason: 'Mixture, not a reference', version: reset.version })).json() as ProfileWithMarkers;
    expect(rejected).toMatchObject({ status: 'rejected', reviewComments: 'Mixture, not a reference' });
    const resetDelete = await call('reviewerA', 'POST', `/api/profiles/${p.id}/reset-delete`);
    expect(resetDelete.json()).toMatchObject({ status: 'pending' });
    const audit = (await call('analystA', 'GET', `/api/profiles/${p.id}/audit`)).json() as { items: AuditEntry[] };
    expect(audit.items.map((e) => e.action)).toEqual(['Reset and hits deleted', 'Rejected', 'Reset', 'Approved', 'Added']);
    expect((await call('reviewerA', 'GET', `/api/profiles/${p.id}/audit`)).statusCode).toBe(403);
    expect(await verifyAuditChain(t.database.db)).toMatchObject({ brokenAt: null });
  });

  it('downloads a profile as CSV with formula-like cells neutralised; CMF needs its laboratory', async () => {
    // A Reference has no CODIS specimen category, so its CMF export is refused (tests/unit/server/exports/profiles);
    // so is a profile with no laboratory (the written CMF is tested there too).
    const p = await addByHand('=HYPERLINK("x")', [{ markerId: ids.D3S1358, alleles: ['15', '16'] }], 'Suspect, Known');
    const xml = await call('readerA', 'GET', `/api/profiles/${p.id}/download?submitter=reader`);
    expect(xml.statusCode).toBe(400);
    expect(xml.json().error).toContain('the profile has no laboratory');
    const csv = await call('readerA', 'GET', `/api/profiles/${p.id}/download?format=csv`);
    expect(csv.headers['content-disposition']).toContain('.csv');
    expect(csv.body).toContain(`'=HYPERLINK`);
  });

  it('keeps profiles to their organization', async () => {
    const p = await addByHand('REF-5');
    expect((await call('analystB', 'GET', `/api/profiles/${p.id}`)).statusCode).toBe(404);
    expect((await call('analystB', 'GET', '/api/profiles?pageSize=500')).body).not.toContain(p.id);
    expect((await call('analystB', 'POST', `/api/profiles/${p.id}/reject`, { reason: 'x', version: 1 })).statusCode).toBe(404);
    const all = (await call('adminAll', 'GET', '/api/organizations/all/profiles?pageSize=500')).json() as { items: Profile[] };
    expect(all.items.map((x) => x.id)).toContain(p.id);
  });

  it('deletes a pending profile with Profiles Delete', async () => {
    const p = await addByHand('REF-6');
    expect((await call('reviewerA', 'DELETE', `/api/profiles/${p.id}`)).statusCode).toBe(403);
    expect((await call('analystA', 'DELETE', `/api/profiles/${p.id}`)).statusCode).toBe(204);
    expect(await t.database.db.$count(profiles, eq(profiles.id, p.id))).toBe(0);
  });

  it('keeps the kit, marker and case type of a profile from being deleted, naming what uses them', async () => {
    await addByHand('IN-USE-1', [{ markerId: ids.D3S1358, alleles: ['15'] }]);
    const kit = await call('adminAll', 'DELETE', `/api/autosomal-chemistries/${globalFiler}`);
    expect(kit.statusCode).toBe(409);
    expect(kit.json().error).toMatch(/^Autosomal chemistry "GlobalFiler" cannot be deleted: profiles still use it \(.*IN-USE-1/);
    const marker = await call('adminAll', 'DELETE', `/api/markers/${ids.D3S1358}`);
    expect(marker.statusCode).toBe(409);
    expect(marker.json().error).toContain('IN-USE-1');
    const [caseType] = await t.database.db.select().from(caseTypes).limit(1);
    const type = await call('adminAll', 'DELETE', `/api/case-types/${caseType!.id}`);
    expect(type.statusCode).toBe(409);
    expect(type.json().error).toContain('cases still use it (2026-0100');
  });
});
