import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import type { InvolvedParty, PhysicalItem } from '../../../../core/schemas/cases';
import type { Profile, ProfileImportResult, ProfileWithMarkers } from '../../../../core/schemas/profiles';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import { auditLog, caseTypes, chemistries } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { multipartBody } from '../../../helpers/multipart';

// Issue 18: an involved party's role, name and identifiers; a profile taken from a party; an item's collection.

const CMF = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/formats/cmf/Codis-Single-Profile.xml'));

let t: TestApp;
let orgA: string;
let caseTypeId: string;
let globalFiler: string;
const tokens = {} as Record<'analystA' | 'readerA' | 'analystB', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  const orgB = (await createOrganization(db, 'Bergen Lab')).id;
  // The seed's markers and kits, so a CMF file imports.
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  caseTypeId = (await db.select().from(caseTypes).limit(1))[0]!.id;
  globalFiler = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit', 'ViewAudit'], Profiles: ['Read', 'Add', 'Edit', 'ViewAudit'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'] } });
  tokens.analystA = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA] })).id);
  tokens.readerA = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [orgA] })).id);
  tokens.analystB = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB] })).id);
}, 60_000);
afterAll(() => t.close());

const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}`, ...headers }, ...(payload ? { payload } : {}) });

async function addCase(caseNumber: string): Promise<string> {
  const res = await call('analystA', 'POST', '/api/cases', { caseNumber, caseTypeId, organizationId: orgA, assignedUserIds: [] });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

const SUSPECT = {
  title: 'Suspect 1',
  role: 'suspect',
  name: 'John Smith',
  identifiers: [
    { kind: 'national-id', value: '01017012345' },
    { kind: 'arrest-number', value: 'A-2026-77' },
  ],
  description: 'Arrested 2026-03-02',
};

async function addParty(caseId: string, party: object = SUSPECT): Promise<InvolvedParty> {
  const res = await call('analystA', 'POST', `/api/cases/${caseId}/involved-parties`, party);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as InvolvedParty;
}

const assignment = (caseId: string, more: object = {}) => ({ caseId, chemistryId: globalFiler, sampleType: 'Suspect, Known', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', ...more });

async function addProfile(caseId: string, profileId: string, more: object = {}) {
  return call('analystA', 'POST', '/api/profiles', { ...assignment(caseId, more), profiles: [{ profileId, markerValues: [] }] });
}

/** A record's audit rows, newest first, as the trail stores them. */
const auditOf = (entityId: string) => t.database.db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(desc(auditLog.seq));

const details = (res: { json(): unknown }) => (res.json() as { details: { path: string; message: string }[] }).details;

describe('involved parties: role, name, identifiers', () => {
  it('round-trips role, name and identifiers through add, read, list and edit', async () => {
    const caseId = await addCase('PARTY-1');
    const party = await addParty(caseId);
    expect(party).toMatchObject({ ...SUSPECT, version: 1, linkedProfiles: [] });
    expect((await call('readerA', 'GET', `/api/cases/${caseId}/involved-parties/${party.id}`)).json()).toMatchObject(SUSPECT);
    const edited = await call('analystA', 'PUT', `/api/cases/${caseId}/involved-parties/${party.id}`, { ...SUSPECT, role: 'victim', name: '  Jane Roe ', identifiers: [], version: 1 });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ role: 'victim', name: 'Jane Roe', identifiers: [], version: 2 });
    const stale = await call('analystA', 'PUT', `/api/cases/${caseId}/involved-parties/${party.id}`, { ...SUSPECT, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(STALE_RECORD_MESSAGE);
    const list = (await call('readerA', 'GET', `/api/cases/${caseId}/involved-parties?filter=${encodeURIComponent(JSON.stringify({ name: 'roe' }))}`)).json() as { items: InvolvedParty[] };
    expect(list.items.map((p) => [p.title, p.role, p.name])).toEqual([['Suspect 1', 'victim', 'Jane Roe']]);
  });

  it('names each wrong field: a role outside the list, an empty identifier value, an unknown kind, more than 10 identifiers', async () => {
    const caseId = await addCase('PARTY-2');
    const noRole = await call('analystA', 'POST', `/api/cases/${caseId}/involved-parties`, { ...SUSPECT, role: 'accomplice' });
    expect(noRole.statusCode).toBe(400);
    expect(details(noRole)).toContainEqual({ path: '/role', message: 'Unknown role' });
    // Spec 5: a required drop-down left empty says Required.
    const emptyRole = await call('analystA', 'POST', `/api/cases/${caseId}/involved-parties`, { ...SUSPECT, role: '' });
    expect(details(emptyRole)).toContainEqual({ path: '/role', message: 'Required' });
    const badIds = await call('analystA', 'POST', `/api/cases/${caseId}/involved-parties`, {
      ...SUSPECT,
      identifiers: [
        { kind: 'passport', value: '   ' },
        { kind: 'tattoo', value: 'anchor' },
      ],
    });
    expect(badIds.statusCode).toBe(400);
    expect(details(badIds)).toEqual(
      expect.arrayContaining([
        { path: '/identifiers/0/value', message: 'Required' },
        { path: '/identifiers/1/kind', message: 'Unknown identifier kind' },
      ]),
    );
    const many = await call('analystA', 'POST', `/api/cases/${caseId}/involved-parties`, { ...SUSPECT, identifiers: Array.from({ length: 11 }, (_, i) => ({ kind: 'other', value: `ref ${i}` })) });
    expect(details(many)).toContainEqual({ path: '/identifiers', message: 'At most 10 identifiers' });
    expect(((await call('readerA', 'GET', `/api/cases/${caseId}/involved-parties`)).json() as { count: number }).count).toBe(0);
  });

  it('records the party with its role, name and identifiers in the case audit trail', async () => {
    const caseId = await addCase('PARTY-3');
    const party = await addParty(caseId);
    await call('analystA', 'PUT', `/api/cases/${caseId}/involved-parties/${party.id}`, { ...SUSPECT, name: 'John A. Smith', version: 1 });
    const [edited, added] = await auditOf(party.id);
    expect(added).toMatchObject({ entity: 'InvolvedParty', caseId, action: 'Added', after: { role: 'suspect', name: 'John Smith', identifiers: SUSPECT.identifiers } });
    expect(edited).toMatchObject({ action: 'Edited', before: { name: 'John Smith' }, after: { name: 'John A. Smith' } });
  });
});

describe('physical items: collection date, place and collector', () => {
  it('round-trips when, where and by whom an item was collected, and clears them', async () => {
    const caseId = await addCase('ITEM-1');
    const res = await call('analystA', 'POST', `/api/cases/${caseId}/physical-items`, {
      itemId: 'K-01',
      description: 'Knife',
      collectedAt: '2026-03-01T14:30:00+01:00',
      collectionPlace: ' Storgata 1, Oslo ',
      collectedBy: 'Officer Hansen',
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = res.json() as PhysicalItem;
    expect(item).toMatchObject({ collectedAt: '2026-03-01T13:30:00.000Z', collectionPlace: 'Storgata 1, Oslo', collectedBy: 'Officer Hansen' });
    const cleared = await call('analystA', 'PUT', `/api/cases/${caseId}/physical-items/${item.id}`, { itemId: 'K-01', description: 'Knife', collectedAt: null, collectionPlace: '', collectedBy: '', version: 1 });
    expect(cleared.json()).toMatchObject({ collectedAt: null, collectionPlace: '', collectedBy: '', version: 2 });
    expect((await auditOf(item.id))[0]).toMatchObject({ entity: 'PhysicalItem', caseId, action: 'Edited', before: { collectedAt: '2026-03-01T13:30:00.000Z' }, after: { collectedAt: null } });
  });

  it('refuses a collection in the future or a date that is not one, naming collectedAt', async () => {
    const caseId = await addCase('ITEM-2');
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const res = await call('analystA', 'POST', `/api/cases/${caseId}/physical-items`, { itemId: 'K-02', description: '', collectedAt: future, collectionPlace: '', collectedBy: '' });
    expect(res.statusCode).toBe(400);
    expect(details(res)).toContainEqual({ path: '/collectedAt', message: 'Cannot be in the future' });
    const garbled = await call('analystA', 'POST', `/api/cases/${caseId}/physical-items`, { itemId: 'K-02', description: '', collectedAt: 'last Tuesday', collectionPlace: '', collectedBy: '' });
    expect(garbled.statusCode).toBe(400);
    expect(details(garbled).map((d) => d.path)).toContain('/collectedAt');
  });
});

describe('a profile taken from an involved party', () => {
  it('links a profile to a party of its case on add and edit, and reads the party and the item back', async () => {
    const caseId = await addCase('LINK-1');
    const party = await addParty(caseId);
    const item = (await call('analystA', 'POST', `/api/cases/${caseId}/physical-items`, { itemId: 'BS-1', description: 'Buccal swab', collectedAt: '2026-03-02T09:00:00Z', collectionPlace: 'Police station', collectedBy: 'Officer Berg' })).json() as PhysicalItem;
    const added = await addProfile(caseId, 'SUS-1', { involvedPartyId: party.id, physicalItemId: item.id });
    expect(added.statusCode, added.body).toBe(201);
    const profile = (added.json() as { items: Profile[] }).items[0]!;
    expect(profile.involvedParty).toEqual({ id: party.id, title: 'Suspect 1', role: 'suspect', name: 'John Smith' });
    const read = (await call('readerA', 'GET', `/api/profiles/${profile.id}`)).json() as ProfileWithMarkers;
    expect(read.physicalItem).toEqual({ id: item.id, itemId: 'BS-1', collectedAt: '2026-03-02T09:00:00.000Z', collectionPlace: 'Police station', collectedBy: 'Officer Berg' });
    expect(read.involvedParty?.name).toBe('John Smith');
    // The party lists the profile taken from it.
    expect(((await call('readerA', 'GET', `/api/cases/${caseId}/involved-parties/${party.id}`)).json() as InvolvedParty).linkedProfiles).toEqual([{ id: profile.id, profileId: 'SUS-1' }]);

    // An edit that leaves involvedPartyId out keeps the link; null removes it.
    const { id: _id, ...body } = { ...assignment(caseId), profileId: 'SUS-1', id: 0 };
    const kept = await call('analystA', 'PUT', `/api/profiles/${profile.id}`, { ...body, version: profile.version });
    expect((kept.json() as Profile).involvedParty?.id).toBe(party.id);
    const unlinked = await call('analystA', 'PUT', `/api/profiles/${profile.id}`, { ...body, involvedPartyId: null, version: profile.version + 1 });
    expect((unlinked.json() as Profile).involvedParty).toBeNull();
    expect((await auditOf(profile.id))[0]).toMatchObject({ action: 'Edited', before: { involvedParty: { id: party.id } }, after: { involvedParty: null } });
  });

  it('refuses a party of another case, on add, edit and import, with 400 naming involvedPartyId', async () => {
    const caseId = await addCase('LINK-2');
    const otherCase = await addCase('LINK-3');
    const foreign = await addParty(otherCase);
    const refused = await addProfile(caseId, 'SUS-2', { involvedPartyId: foreign.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'Choose an involved party of this case', details: [{ path: '/involvedPartyId', message: 'Not an involved party of this case' }] });
    expect(((await call('readerA', 'GET', `/api/cases/${caseId}/profiles`)).json() as { count: number }).count).toBe(0);

    const profile = ((await addProfile(caseId, 'SUS-3')).json() as { items: Profile[] }).items[0]!;
    const edit = await call('analystA', 'PUT', `/api/profiles/${profile.id}`, { ...assignment(caseId), profileId: 'SUS-3', involvedPartyId: foreign.id, version: profile.version });
    expect(edit.statusCode).toBe(400);
    expect(details(edit)).toEqual([{ path: '/involvedPartyId', message: 'Not an involved party of this case' }]);

    // An import confirmed with a foreign party adds nothing; with the case's own party, each profile is linked.
    const form = await multipartBody({}, { name: 'Codis-Single-Profile.xml', bytes: CMF });
    const parsed = await t.app.inject({ method: 'POST', url: '/api/profiles/import', payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.analystA}` } });
    expect(parsed.statusCode, parsed.body).toBe(200);
    const result = parsed.json() as ProfileImportResult;
    const drafts = result.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })) }));
    const approval = { Approval: parsed.headers['approval-token'] as string };
    const foreignImport = await call('analystA', 'POST', '/api/profiles', { ...assignment(caseId, { sampleType: 'Forensic, Unknown', involvedPartyId: foreign.id }), profiles: drafts }, approval);
    expect(foreignImport.statusCode).toBe(400);
    expect(details(foreignImport)).toEqual([{ path: '/involvedPartyId', message: 'Not an involved party of this case' }]);
    const own = await addParty(caseId, { ...SUSPECT, title: 'Victim 1', role: 'victim', name: 'Jane Roe', identifiers: [] });
    const imported = await call('analystA', 'POST', '/api/profiles', { ...assignment(caseId, { sampleType: 'Forensic, Unknown', involvedPartyId: own.id }), profiles: drafts }, approval);
    expect(imported.statusCode, imported.body).toBe(201);
    expect((imported.json() as { items: Profile[] }).items.map((p) => p.involvedParty?.name)).toEqual(drafts.map(() => 'Jane Roe'));
  });

  it('unlinks the profiles of a deleted party, each in its own audit trail, and bumps their version', async () => {
    const caseId = await addCase('LINK-4');
    const party = await addParty(caseId);
    const profile = ((await addProfile(caseId, 'SUS-4', { involvedPartyId: party.id })).json() as { items: Profile[] }).items[0]!;
    expect((await call('analystA', 'DELETE', `/api/cases/${caseId}/involved-parties/${party.id}`)).statusCode).toBe(204);
    const read = (await call('readerA', 'GET', `/api/profiles/${profile.id}`)).json() as Profile;
    expect(read).toMatchObject({ involvedParty: null, version: profile.version + 1 });
    expect((await auditOf(profile.id))[0]).toMatchObject({ action: 'Unlinked from deleted party', before: { involvedParty: { name: 'John Smith' } }, after: { involvedParty: null } });
  });

  it('keeps parties to their organization', async () => {
    const caseId = await addCase('LINK-5');
    const party = await addParty(caseId);
    expect((await call('analystB', 'GET', `/api/cases/${caseId}/involved-parties/${party.id}`)).statusCode).toBe(404);
    expect((await call('analystB', 'PUT', `/api/cases/${caseId}/involved-parties/${party.id}`, { ...SUSPECT, version: 1 })).statusCode).toBe(404);
  });
});
