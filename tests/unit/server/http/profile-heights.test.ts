import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitAlleles } from '../../../../core/schemas/kit-bins';
import type { ProfileImportResult, ProfileWithMarkers } from '../../../../core/schemas/profiles';
import type { Database, Db } from '../../../../server/db/database';
import { auditLog, caseTypes, chemistries, laboratories, markers, profileReplicates } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { databaseEngines } from '../../../helpers/database';
import { multipartBody } from '../../../helpers/multipart';

// Issue 31 "Heights are data": heights imported or entered are stored per replicate and returned by the profile read.

const FORMATS = path.resolve(import.meta.dirname, '../../../../../shared/data/formats');
const clock = { current: new Date('2026-11-28T10:00:00Z'), now: () => clock.current };

let t: TestApp;
let db: Db;
let token: string;
let adminToken: string;
let orgId: string;
let caseTypeId: string;
let globalFiler: string;
let laboratoryId: string;
let seq = 0;

/** A fresh app on `open`'s database, seeded, with an analyst and an administrator of scope All. */
async function setUp(open: () => Promise<Database>): Promise<void> {
  t = await createTestApp({ clock, database: await open() });
  db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  caseTypeId = (await db.select().from(caseTypes).limit(1))[0]!.id;
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Markers: ['Read'], AutosomalChemistries: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  globalFiler = (await db.select().from(chemistries)).find((c) => c.name === 'GlobalFiler')!.id;
  laboratoryId = (await db.insert(laboratories).values({ name: 'NFI' }).returning())[0]!.id;
  const admin = await createAccessGroup(db, { isAdmin: true, grants: { AutosomalChemistries: ['Read', 'Edit'], YStrChemistries: ['Read', 'Edit'] } });
  adminToken = t.verifier.issue((await createUser(db, { accessGroupId: admin.id, scope: 'All' })).id);
}

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}`, ...headers }, ...(payload ? { payload } : {}) });
const asAdmin = (method: 'GET' | 'PUT', url: string, payload?: object) => t.app.inject({ method, url, headers: { authorization: `Bearer ${adminToken}` }, ...(payload ? { payload } : {}) });
const kitNamed = async (name: string) => (await db.select().from(chemistries)).find((c) => c.name === name)!;

async function newCase(): Promise<string> {
  const res = await call('POST', '/api/cases', { caseNumber: `2026-H${++seq}`, caseTypeId, organizationId: orgId, assignedUserIds: [] });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

const assignment = (caseId: string, chemistryId = globalFiler) => ({ caseId, chemistryId, sampleType: 'Forensic Mixture', sampleSourceId: null, physicalItemId: null, laboratoryId, comments: '' });

/** Imports a shared file into a new case (preview, then confirm with its approval) and returns the added profiles read back. */
async function importShared(file: string, chemistryId = globalFiler): Promise<ProfileWithMarkers[]> {
  const caseId = await newCase();
  const body = await multipartBody({}, { name: path.basename(file), bytes: readFileSync(path.join(FORMATS, file)) });
  const parsed = await t.app.inject({ method: 'POST', url: '/api/profiles/import', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
  expect(parsed.statusCode, parsed.body).toBe(200);
  const result = parsed.json() as ProfileImportResult;
  const added = await call('POST', '/api/profiles', { ...assignment(caseId, chemistryId), profiles: result.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues })) }, { approval: parsed.headers['approval-token'] as string });
  expect(added.statusCode, added.body).toBe(201);
  const ids = (added.json() as { items: { id: string }[] }).items.map((p) => p.id);
  return Promise.all(ids.map(async (id) => (await call('GET', `/api/profiles/${id}`)).json() as ProfileWithMarkers));
}

/** allele → height of one marker of a profile's first replicate. */
const heightsAt = (p: ProfileWithMarkers, marker: string) => Object.fromEntries(p.replicates[0]!.markers.find((m) => m.marker === marker)!.peaks.map((x) => [x.allele, x.height]));

// The schema changed (migration 0020): PGlite always, PostgreSQL when it is reachable.
const engines = await databaseEngines();

describe.each(engines)('on $name', ({ open }) => {
  beforeAll(() => setUp(open), 60_000);
  afterAll(() => t.close());

  describe('peak heights stored and read', () => {
    it('stores and returns the heights of ESX17_evids_LTDNA.csv, one replicate per stain', async () => {
      const added = await importShared('genemapper/ESX17_evids_LTDNA.csv');
      expect(added.map((p) => p.profileId)).toEqual(['stain80', 'stain68', 'stain51']);
      const stain80 = added[0]!;
      expect(stain80.replicates.map((r) => r.name)).toEqual(['stain80']);
      // stain80;D3S1358;15;16;17;;;190;432;132 — TH01 7, 9, 9.3 at 102, 245, 248.
      expect(heightsAt(stain80, 'D3S1358')).toEqual({ '15': 190, '16': 432, '17': 132 });
      expect(heightsAt(stain80, 'TH01')).toEqual({ '7': 102, '9': 245, '9.3': 248 });
      // Every allele of the marker values has its peak: nothing dropped.
      const alleles = stain80.markerValues.reduce((n, m) => n + m.alleles.length, 0);
      expect(stain80.replicates[0]!.markers.flatMap((m) => m.peaks).filter((p) => p.height !== null)).toHaveLength(alleles);
    });

    it('stores and returns the heights of GeneMapperExampleWithHeights.txt by run', async () => {
      const added = await importShared('genemapper/GeneMapperExampleWithHeights.txt');
      const first = added[0]!;
      expect(first.replicates[0]!.name).toBe('001_00000000.fsa');
      expect(heightsAt(first, 'D10S1248')).toEqual({ '10': 73, '11': 288 });
      expect(heightsAt(added[2]!, 'Amelogenin')).toEqual({ X: 680, Y: 50 });
    });

    it('keeps heights of a profile entered by hand, refuses a peak at an allele the profile lacks, and stores about 9 bytes per allele', async () => {
      const caseId = await newCase();
      const [d3, vwa] = await Promise.all(['D3S1358', 'vWA'].map(async (name) => (await db.select().from(markers).where(eq(markers.name, name)))[0]!.id));
      const draft = {
        profileId: 'HAND-1',
        markerValues: [{ markerId: d3!, alleles: ['15', '16'] }, { markerId: vwa!, alleles: ['14'] }],
        replicates: [
          { name: 'inj 1', markers: [{ markerId: d3!, peaks: [{ allele: '15', height: 812, size: 118.52 }, { allele: '16', height: 777, size: null }] }, { markerId: vwa!, peaks: [{ allele: '14', height: 1500, size: null }] }] },
          { name: 'inj 2', markers: [{ markerId: d3!, peaks: [{ allele: '15', height: 400, size: null }] }] },
        ],
      };
      const bad = await call('POST', '/api/profiles', { ...assignment(caseId), profiles: [{ ...draft, replicates: [{ name: 'x', markers: [{ markerId: d3!, peaks: [{ allele: '17', height: 50, size: null }] }] }] }] });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe("Replicate x: 17 at D3S1358 is not one of the profile's alleles there (15, 16)");
      const res = await call('POST', '/api/profiles', { ...assignment(caseId), profiles: [draft] });
      expect(res.statusCode, res.body).toBe(201);
      const id = (res.json() as { items: { id: string }[] }).items[0]!.id;
      const read = (await call('GET', `/api/profiles/${id}`)).json() as ProfileWithMarkers;
      expect(read.replicates.map((r) => r.name)).toEqual(['inj 1', 'inj 2']);
      expect(read.replicates[0]!.markers[0]!.peaks[0]).toMatchObject({ allele: '15', height: 812, size: 118.52, sizeSource: 'file', belowThreshold: false });
      expect(read.replicates[1]!.markers.map((m) => m.marker)).toEqual(['D3S1358']);
      // 4 alleles stored with heights: 9 bytes each in genotype + peaks, plus each row's small headers.
      const result = (await db.execute(sql`select sum(pg_column_size(genotype) + pg_column_size(peaks))::int as bytes from profile_replicates where profile_id = ${id}::uuid`)) as unknown as { rows: { bytes: number }[] };
      expect(result.rows[0]!.bytes / 4).toBeLessThanOrEqual(16);
      expect(await db.$count(profileReplicates, eq(profileReplicates.profileId, id))).toBe(2);
    });
  });

  describe('peak heights typed on the marker entry form', () => {
    it('saves the replicates with the markers, audits the change, and refuses heights on a reference', async () => {
      const caseId = await newCase();
      const [d3, vwa] = await Promise.all(['D3S1358', 'vWA'].map(async (name) => (await db.select().from(markers).where(eq(markers.name, name)))[0]!.id));
      const markerValues = [{ markerId: d3!, alleles: ['15', '16'] }, { markerId: vwa!, alleles: ['14'] }];
      const added = await call('POST', '/api/profiles', { ...assignment(caseId), profiles: [{ profileId: 'HAND-2', markerValues }] });
      expect(added.statusCode, added.body).toBe(201);
      const { id, version } = (added.json() as { items: { id: string; version: number }[] }).items[0]!;
      const replicates = [{ name: 'run 1', markers: [{ markerId: d3!, peaks: [{ allele: '15', height: 640, size: 118.5 }, { allele: '16', height: 75.5, size: null }] }] }];
      const saved = await call('PUT', `/api/profiles/${id}/markers`, { markerValues, replicates, version });
      expect(saved.statusCode, saved.body).toBe(200);
      const read = saved.json() as ProfileWithMarkers;
      expect(read.replicates[0]!.markers[0]!.peaks.map((p) => [p.allele, p.height, p.sizeSource])).toEqual([['15', 640, 'file'], ['16', 75.5, 'kit']]);
      const trail = await db.select().from(auditLog).where(eq(auditLog.entityId, id));
      expect(trail.map((a) => a.action)).toContain('Peak heights edited');
      // Markers saved again without `replicates`: the heights stay.
      const again = await call('PUT', `/api/profiles/${id}/markers`, { markerValues, version: read.version });
      expect((again.json() as ProfileWithMarkers).replicates).toHaveLength(1);
      // Without `replicates`, an edit that removes an allele the heights name is refused and nothing is written.
      const kept = again.json() as ProfileWithMarkers;
      const dropped = await call('PUT', `/api/profiles/${id}/markers`, { markerValues: [{ markerId: d3!, alleles: ['15', '17'] }, { markerId: vwa!, alleles: ['14'] }], version: kept.version });
      expect(dropped.statusCode, dropped.body).toBe(400);
      expect(dropped.json().error).toBe(
        "The profile's peak heights name alleles this edit removes: send its replicates with the marker values, or edit them too. Replicate run 1: 16 at D3S1358 is not one of the profile's alleles there (15, 17)",
      );
      const unchanged = (await call('GET', `/api/profiles/${id}`)).json() as ProfileWithMarkers;
      expect(unchanged.version).toBe(kept.version);
      expect(unchanged.markerValues.find((m) => m.markerId === d3)!.alleles).toEqual(['15', '16']);
      // With the replicates edited too, the same edit is saved.
      const both = await call('PUT', `/api/profiles/${id}/markers`, {
        markerValues: [{ markerId: d3!, alleles: ['15', '17'] }, { markerId: vwa!, alleles: ['14'] }],
        replicates: [{ name: 'run 1', markers: [{ markerId: d3!, peaks: [{ allele: '15', height: 640, size: 118.5 }, { allele: '17', height: 80, size: null }] }] }],
        version: kept.version,
      });
      expect(both.statusCode, both.body).toBe(200);

      const reference = await call('POST', '/api/profiles', { ...assignment(caseId), sampleType: 'Suspect, Known', profiles: [{ profileId: 'REF-2', markerValues, replicates }] });
      expect(reference.statusCode).toBe(400);
      expect(reference.json().error).toBe('Peak heights are kept for the forensic sample types (Forensic, Unknown; Forensic Mixture), not for Suspect, Known');
    });
  });

  describe('exports of a profile with heights', () => {
    it('CSV keeps the heights: imported again, the same replicates come back; CMF says it leaves them out', async () => {
      const [stain80] = await importShared('genemapper/ESX17_evids_LTDNA.csv');
      const csv = await call('GET', `/api/profiles/${stain80!.id}/download?format=csv`);
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.body.split('\r\n')[0]).toBe('Sample Name,Sample File,Marker,Allele 1,Allele 2,Allele 3,Allele 4,Height 1,Height 2,Height 3,Height 4,Size 1,Size 2,Size 3,Size 4');
      const body = await multipartBody({}, { name: 'again.csv', bytes: Buffer.from(csv.body) });
      const again = await t.app.inject({ method: 'POST', url: '/api/profiles/import', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } });
      const parsed = (again.json() as ProfileImportResult).profiles[0]!;
      expect(parsed.errors).toEqual([]);
      expect(parsed.markerValues.map((m) => [m.marker, m.alleles])).toEqual(stain80!.markerValues.map((m) => [m.marker, m.alleles]));
      const peaksOf = (r: { name: string; markers: { marker: string; peaks: { allele: string; height: number | null }[] }[] }[]) =>
        r.map((x) => ({ name: x.name, markers: x.markers.map((m) => ({ marker: m.marker, peaks: m.peaks.map((p) => [p.allele, p.height]) })) }));
      expect(peaksOf(parsed.replicates!)).toEqual(peaksOf(stain80!.replicates));

      const cmf = await call('GET', `/api/profiles/${stain80!.id}/download?format=cmf&specimenId=stain80`);
      expect(cmf.statusCode, cmf.body).toBe(200);
      const peaks = stain80!.replicates[0]!.markers.reduce((n, m) => n + m.peaks.length, 0);
      expect(cmf.headers['locus-notice']).toBe(`CODIS CMF 3.2 has no peak heights: this export leaves out the ${peaks} peak heights of 1 replicate; the CSV export keeps them.`);
      expect(cmf.body).not.toContain('432');
    });
  });

  describe('kits: allele bins and analytical thresholds', () => {
    it("seeds every kit of kit.txt the issue names, with each allele's dye and size, readable by an analyst", async () => {
      const names = (await db.select().from(chemistries)).map((c) => c.name);
      for (const kit of ['PowerPlex ESX 17', 'PowerPlex ESX 16', 'PowerPlex ESI 17', 'PowerPlex Fusion', 'PowerPlex 16', 'NGM', 'NGM SElect', 'SGM Plus', 'Investigator 24plex', 'Investigator ESSplex SE QS', 'GlobalFiler', 'Yfiler Plus']) expect(names).toContain(kit);
      const esx17 = await kitNamed('PowerPlex ESX 17');
      const res = await call('GET', `/api/chemistries/${esx17.id}/alleles`);
      expect(res.statusCode, res.body).toBe(200);
      const kit = res.json() as KitAlleles;
      // kit.txt PowerPlex_ESX_17_IDX_v2.0: AMEL X 81.79 bp blue; D3S1358 8 at 94.05 bp, a virtual bin; repeat 4, offset 62.
      const amel = kit.markers.find((m) => m.marker === 'Amelogenin')!;
      expect(amel).toMatchObject({ dye: 'blue', repeatLength: 9, sizeOffset: 73 });
      expect(amel.alleles.find((a) => a.allele === 'X')).toEqual({ allele: 'X', size: 81.79, virtual: false });
      const d3 = kit.markers.find((m) => m.marker === 'D3S1358')!;
      expect(d3).toMatchObject({ dye: 'blue', repeatLength: 4, sizeOffset: 62 });
      expect(d3.alleles[0]).toEqual({ allele: '8', size: 94.05, virtual: true });
      expect(kit.markers).toHaveLength(17);
      expect(kit.thresholds).toEqual({ kit: null, dyes: {} });
    });

    it('lets only an administrator with scope All set thresholds; a height under one is kept and flagged, a missing size comes from the kit', async () => {
      const esx17 = await kitNamed('PowerPlex ESX 17');
      const body = { kit: 50, dyes: { green: 250 }, version: esx17.version };
      expect((await call('PUT', `/api/autosomal-chemistries/${esx17.id}/thresholds`, body)).statusCode).toBe(403);
      const set = await asAdmin('PUT', `/api/autosomal-chemistries/${esx17.id}/thresholds`, body);
      expect(set.statusCode, set.body).toBe(200);
      expect((set.json() as KitAlleles).thresholds).toEqual({ kit: 50, dyes: { green: 250 } });
      expect((await asAdmin('PUT', `/api/autosomal-chemistries/${esx17.id}/thresholds`, body)).statusCode).toBe(409);

      const [stain80] = await importShared('genemapper/ESX17_evids_LTDNA.csv', esx17.id);
      const peaks = (marker: string) => stain80!.replicates[0]!.markers.find((m) => m.marker === marker)!.peaks;
      // D3S1358 is blue (kit threshold 50): 190, 432, 132 all kept unflagged; sizes from kit.txt's bins (15: 122.88 bp).
      expect(peaks('D3S1358').map((p) => [p.allele, p.height, p.belowThreshold, p.sizeSource])).toEqual([['15', 190, false, 'kit'], ['16', 432, false, 'kit'], ['17', 132, false, 'kit']]);
      expect(peaks('D3S1358')[0]!.size).toBe(122.88);
      // A green marker's peaks under 250 RFU are flagged, not dropped.
      const kit = (set.json() as KitAlleles).markers;
      const green = stain80!.replicates[0]!.markers.filter((m) => kit.find((k) => k.markerId === m.markerId)?.dye === 'green').flatMap((m) => m.peaks);
      expect(green.some((p) => p.belowThreshold)).toBe(true);
      expect(green.every((p) => p.belowThreshold === (p.height! < 250))).toBe(true);
    });
  });
});
