import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Population, PopulationStatistics, StatisticsPreview } from '../../../../core/schemas/populations';
import { markers, populationAlleles, populations } from '../../../../server/db/schema';
import { SEED_MARKERS } from '../../../../server/db/seed/reference/markers';
import { replaceStatistics } from '../../../../server/http/populations/replace-statistics';
import { statisticsBatches } from '../../../../server/http/populations/statistics-check';
import { loadEnginePopulation } from '../../../../server/matching/engine-population';
import { alleleFrequency } from '../../../../server/genetics/statistics';
import { csvCell } from '../../../../server/exports/csv';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { multipartBody } from '../../../helpers/multipart';
import { createTestApp, type TestApp } from '../../../helpers/app';

const shared = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
const sharedFile = (relative: string) => readFileSync(path.join(shared, relative));
const FBI_2015 = 'frequencies/fbi2015.csv';
const FBI_2015_N = 'frequencies/fbi2015-n.csv';
const YSTR_EUROPEAN = 'formats/ystr/South_Australia_YSTRs.European.derived.csv';

let t: TestApp;
let orgA: string;
let orgB: string;
const tokens = {} as Record<'adminAll' | 'editorA' | 'editorB' | 'readerA' | 'adminOrgA', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.insert(markers).values(SEED_MARKERS.map((m) => ({ name: m.name, kind: m.kind, aliases: [...m.aliases], multiCopy: m.multiCopy ?? false })));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const editor = await createAccessGroup(db, { grants: { Populations: ['Read', 'Add', 'Edit', 'Delete'] } });
  const reader = await createAccessGroup(db, { grants: { Populations: ['Read'] } });
  const issue = async (opts: Parameters<typeof createUser>[1]) => t.verifier.issue((await createUser(db, opts)).id);
  tokens.adminAll = await issue({ scope: 'All', accessGroupId: admin.id });
  tokens.adminOrgA = await issue({ scope: 'Organization', accessGroupId: admin.id, organizationIds: [orgA] });
  tokens.editorA = await issue({ accessGroupId: editor.id, organizationIds: [orgA] });
  tokens.editorB = await issue({ accessGroupId: editor.id, organizationIds: [orgB] });
  tokens.readerA = await issue({ accessGroupId: reader.id, organizationIds: [orgA] });
}, 60_000);
afterAll(() => t.close());

const auth = (who: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[who]}` });

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: auth(who), ...(payload ? { payload } : {}) });
}

async function create(who: keyof typeof tokens, body: { name: string; kind?: 'Autosomal' | 'YStr'; organizationIds: string[]; minimumAlleleFrequency?: number }) {
  const res = await call(who, 'POST', '/api/populations', { kind: 'Autosomal', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Population;
}

/** Uploads a file (and form fields) as the browser does. */
async function upload(who: keyof typeof tokens, url: string, file: { name: string; bytes: Buffer | string }, fields: Record<string, string> = {}) {
  const body = await multipartBody(fields, { ...file, type: 'text/csv' });
  return t.app.inject({ method: 'POST', url, headers: { ...auth(who), ...body.headers }, payload: body.payload });
}

const preview = (who: keyof typeof tokens, id: string, file: { name: string; bytes: Buffer | string }, fields: Record<string, string> = {}) =>
  upload(who, `/api/populations/${id}/statistics/preview`, file, fields);
const save = (who: keyof typeof tokens, id: string, file: { name: string; bytes: Buffer | string }, fields: Record<string, string>) =>
  upload(who, `/api/populations/${id}/statistics`, file, fields);

/** Uploads a statistics file (part `file`) and its sample sizes (part `sampleSizes`) in one form, as the upload screen does. */
async function uploadWithSizes(url: string, file: { name: string; bytes: Buffer | string }, sizes: { name: string; bytes: Buffer | string }, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([Buffer.from(file.bytes)], { type: 'text/csv' }), file.name);
  form.append('sampleSizes', new Blob([Buffer.from(sizes.bytes)], { type: 'text/csv' }), sizes.name);
  const request = new Request('http://locus.test/', { method: 'POST', body: form });
  const headers = { ...auth('editorA'), 'content-type': request.headers.get('content-type')! };
  return t.app.inject({ method: 'POST', url, headers, payload: Buffer.from(await request.arrayBuffer()) });
}

/** A marker/allele/frequency long table; the sums are 1 so it validates. */
const longTable = (rows: readonly (readonly [string, string, number])[]) => `marker,allele,frequency\n${rows.map((r) => r.join(',')).join('\n')}\n`;
const SMALL = longTable([
  ['D3S1358', '15', 0.25],
  ['D3S1358', '16', 0.75],
  ['TH01', '9.3', 0.4],
  ['TH01', '10', 0.1],
  ['TH01', '6', 0.5],
]);
const OTHER = longTable([
  ['vWA', '17', 0.5],
  ['vWA', '18', 0.5],
]);

const names = (list: { items: Population[] }) => list.items.map((p) => p.name);

describe('populations: who sees which (spec 6 tenancy)', () => {
  let onlyA: Population;
  let onlyB: Population;
  let both: Population;
  beforeAll(async () => {
    onlyA = await create('adminAll', { name: 'Tenancy Oslo only', organizationIds: [orgA] });
    onlyB = await create('adminAll', { name: 'Tenancy Bergen only', organizationIds: [orgB] });
    both = await create('adminAll', { name: 'Tenancy both', organizationIds: [orgA, orgB] });
  });

  it('lists every population for scope All, with all its organizations', async () => {
    const list = (await call('adminAll', 'GET', '/api/populations?search=Tenancy')).json();
    expect(names(list)).toEqual(['Tenancy Bergen only', 'Tenancy both', 'Tenancy Oslo only']);
    expect(list.items.find((p: Population) => p.id === both.id).organizations.map((o: { name: string }) => o.name)).toEqual(['Bergen Lab', 'Oslo Lab']);
  });

  it('lists for an organization-scope user only populations shared with their organizations, naming only those', async () => {
    const list = (await call('readerA', 'GET', '/api/populations?search=Tenancy')).json();
    expect(names(list)).toEqual(['Tenancy both', 'Tenancy Oslo only']);
    expect(list.count).toBe(2);
    expect(list.items.find((p: Population) => p.id === both.id).organizations).toEqual([{ id: orgA, name: 'Oslo Lab' }]);
  });

  it('lists an organization’s populations under organizations/{id}/populations, and refuses another organization (403)', async () => {
    expect(names((await call('readerA', 'GET', `/api/organizations/${orgA}/populations?search=Tenancy`)).json())).toEqual(['Tenancy both', 'Tenancy Oslo only']);
    expect(names((await call('adminAll', 'GET', `/api/organizations/${orgB}/populations?search=Tenancy`)).json())).toEqual(['Tenancy Bergen only', 'Tenancy both']);
    expect(names((await call('adminAll', 'GET', '/api/organizations/all/populations?search=Tenancy')).json())).toHaveLength(3);
    expect((await call('readerA', 'GET', `/api/organizations/${orgB}/populations`)).statusCode).toBe(403);
    expect((await call('readerA', 'GET', '/api/organizations/all/populations')).statusCode).toBe(403);
  });

  it('sorts by Date Created and pages on the server', async () => {
    const list = (await call('adminAll', 'GET', '/api/populations?search=Tenancy&sort=createdAt:desc&pageSize=2&page=0')).json();
    expect(list.count).toBe(3);
    expect(list.items).toHaveLength(2);
    expect((await call('adminAll', 'GET', '/api/populations?sort=version:asc')).statusCode).toBe(400);
  });

  it('answers 404 to read, edit, delete, statistics, download and upload of another organization’s population', async () => {
    const id = onlyB.id;
    expect((await call('editorA', 'GET', `/api/populations/${id}`)).statusCode).toBe(404);
    expect((await call('editorA', 'PUT', `/api/populations/${id}`, { name: 'Taken', kind: 'Autosomal', minimumAlleleFrequency: 0.001, version: 1 })).statusCode).toBe(404);
    expect((await call('editorA', 'DELETE', `/api/populations/${id}`)).statusCode).toBe(404);
    expect((await call('editorA', 'GET', `/api/populations/${id}/statistics`)).statusCode).toBe(404);
    expect((await call('editorA', 'GET', `/api/populations/${id}/download`)).statusCode).toBe(404);
    expect((await preview('editorA', id, { name: 'small.csv', bytes: SMALL })).statusCode).toBe(404);
    expect((await save('editorA', id, { name: 'small.csv', bytes: SMALL }, { version: '1' })).statusCode).toBe(404);
    expect((await call('adminAll', 'GET', `/api/populations/${id}`)).json().name).toBe('Tenancy Bergen only');
  });

  it('lets an administrator with organization scope see only their organizations’ populations', async () => {
    expect((await call('adminOrgA', 'GET', `/api/populations/${onlyA.id}`)).statusCode).toBe(200);
    expect((await call('adminOrgA', 'GET', `/api/populations/${onlyB.id}`)).statusCode).toBe(404);
  });
});

describe('populations: adding, editing, deleting', () => {
  it('adds a population shared with the user’s own organization, minimum frequency 0.001 by default', async () => {
    const created = await create('editorA', { name: 'Norwegian', organizationIds: [orgA] });
    expect(created).toMatchObject({ name: 'Norwegian', kind: 'Autosomal', minimumAlleleFrequency: 0.001, source: '', statisticsUploadedAt: null, version: 1 });
    expect(created.organizations).toEqual([{ id: orgA, name: 'Oslo Lab' }]);
    expect(created.statistics).toEqual({ markerCount: 0, alleleCount: 0, haplotypeCount: 0, haplotypeTotal: 0, sampleSizeMin: null, sampleSizeMax: null });
  });

  it('refuses an organization-scope user sharing with another organization (403) or with none (400)', async () => {
    const other = await call('editorA', 'POST', '/api/populations', { name: 'X', kind: 'Autosomal', organizationIds: [orgB] });
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('You can share a population only with your own organizations.');
    const none = await call('editorA', 'POST', '/api/populations', { name: 'X', kind: 'Autosomal', organizationIds: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toMatch(/at least one organization/);
  });

  it('lets an administrator with scope All share with any organizations, but not unknown ones', async () => {
    const created = await create('adminAll', { name: 'Nordic', organizationIds: [orgA, orgB], minimumAlleleFrequency: 0.0005 });
    expect(created.organizations.map((o) => o.id).sort()).toEqual([orgA, orgB].sort());
    expect(created.minimumAlleleFrequency).toBe(0.0005);
    const unknown = await call('adminAll', 'POST', '/api/populations', { name: 'X', kind: 'Autosomal', organizationIds: ['7d1f0c64-9b2e-4c4a-8f4e-2a1b3c4d5e6f'] });
    expect(unknown.statusCode).toBe(400);
  });

  it('validates the form: Required name, a kind, a minimum frequency in (0, 1)', async () => {
    const res = await call('adminAll', 'POST', '/api/populations', { name: ' ', kind: 'Mitochondrial', minimumAlleleFrequency: 1.5, organizationIds: [] });
    expect(res.statusCode).toBe(400);
    const paths = (res.json().details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['/name', '/kind', '/minimumAlleleFrequency']));
  });

  it('refuses adding and deleting without the Populations Add and Delete rights (403)', async () => {
    expect((await call('readerA', 'POST', '/api/populations', { name: 'X', kind: 'Autosomal', organizationIds: [orgA] })).statusCode).toBe(403);
    const p = await create('editorA', { name: 'Reader cannot delete', organizationIds: [orgA] });
    expect((await call('readerA', 'DELETE', `/api/populations/${p.id}`)).statusCode).toBe(403);
    expect((await call('readerA', 'PUT', `/api/populations/${p.id}`, { name: 'Y', kind: 'Autosomal', minimumAlleleFrequency: 0.001, version: 1 })).statusCode).toBe(403);
  });

  it('edits name and minimum frequency with the version read; a stale version is 409', async () => {
    const p = await create('editorA', { name: 'Sami', organizationIds: [orgA] });
    const body = { name: 'Sámi', kind: 'Autosomal', minimumAlleleFrequency: 0.002, organizationIds: [orgA], version: 1 };
    const res = await call('editorA', 'PUT', `/api/populations/${p.id}`, body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Sámi', minimumAlleleFrequency: 0.002, version: 2 });
    const stale = await call('editorA', 'PUT', `/api/populations/${p.id}`, { ...body, name: 'Lost' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatch(/changed by someone else/);
  });

  it('refuses a change of organizations by anyone but an administrator with scope All (403); repeating them is no change', async () => {
    const p = await create('adminAll', { name: 'Shared', organizationIds: [orgA, orgB] });
    const base = { name: 'Shared', kind: 'Autosomal', minimumAlleleFrequency: 0.001 };
    const change = await call('editorA', 'PUT', `/api/populations/${p.id}`, { ...base, organizationIds: [], version: 1 });
    expect(change.statusCode).toBe(403);
    expect(change.json().error).toBe('Only an administrator with scope All can change the organizations of a population.');
    // editorA saw only Oslo Lab; sending that back keeps Bergen Lab too.
    expect((await call('editorA', 'PUT', `/api/populations/${p.id}`, { ...base, organizationIds: [orgA], version: 1 })).statusCode).toBe(200);
    expect((await call('editorA', 'PUT', `/api/populations/${p.id}`, { ...base, version: 2 })).statusCode).toBe(200);
    const byAdmin = await call('adminAll', 'PUT', `/api/populations/${p.id}`, { ...base, organizationIds: [orgB], version: 3 });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().organizations).toEqual([{ id: orgB, name: 'Bergen Lab' }]);
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).statusCode).toBe(404);
  });

  it('deletes a population with its statistics', async () => {
    const p = await create('editorA', { name: 'To delete', organizationIds: [orgA] });
    expect((await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '1' })).statusCode).toBe(200);
    expect((await call('editorA', 'DELETE', `/api/populations/${p.id}`)).statusCode).toBe(204);
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).statusCode).toBe(404);
    expect(await t.database.db.select().from(populationAlleles).where(eq(populationAlleles.populationId, p.id))).toEqual([]);
  });
});

describe('populations: Upload Statistics preview (nothing saved)', () => {
  it('previews the FBI 2015 table for the population chosen from the twelve it holds', async () => {
    const p = await create('editorA', { name: 'FBI Caucasian', organizationIds: [orgA] });
    const file = { name: 'fbi2015.csv', bytes: sharedFile(FBI_2015) };
    const unchosen = (await preview('editorA', p.id, file)).json() as StatisticsPreview;
    expect(unchosen.populations).toHaveLength(12);
    expect(unchosen.population).toBeNull();
    expect(unchosen.errors.map((e) => e.message)).toEqual([expect.stringMatching(/holds 12 populations .*choose the one to import/)]);

    const res = await preview('editorA', p.id, file, { population: 'Caucasian' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as StatisticsPreview;
    expect(body).toMatchObject({ fileName: 'fbi2015.csv', kind: 'Autosomal', population: 'Caucasian', errors: [] });
    expect(body.format).toMatch(/marker\/allele\/frequency/i);
    expect(body.markers).toHaveLength(23);
    const d3 = body.markers.find((m) => m.marker === 'D3S1358')!;
    // fbi2015.csv, Caucasian D3S1358: 13 … 19, frequencies summing to 1 (the source's rounding).
    expect(d3.alleles.map((a) => a.allele)).toEqual(['13', '14', '15', '16', '17', '18', '19']);
    expect(d3.alleles.find((a) => a.allele === '15')!.frequency).toBeCloseTo(0.24752475247524752, 15);
    expect(d3.sum).toBeCloseTo(1, 6);
    // Nothing stored by a preview.
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).json()).toMatchObject({ version: 1, statistics: { markerCount: 0 } });
  });

  it('previews a Y-STR haplotype table for a Y-STR population, values counted per marker', async () => {
    const p = await create('editorA', { name: 'South Australia European', kind: 'YStr', organizationIds: [orgA] });
    const res = await preview('editorA', p.id, { name: 'South_Australia_YSTRs.European.derived.csv', bytes: sharedFile(YSTR_EUROPEAN) });
    expect(res.statusCode).toBe(200);
    const body = res.json() as StatisticsPreview;
    expect(body).toMatchObject({ kind: 'YStr', errors: [], population: 'European' });
    expect(body.markers).toHaveLength(25);
    // 197 men in the European sheet (FORMATS.md), some sharing a haplotype.
    expect(body.haplotypeTotal).toBe(197);
    expect(body.haplotypeCount).toBeLessThanOrEqual(197);
    const dys385 = body.markers.find((m) => m.marker === 'DYS385')!;
    expect(dys385.alleles.some((a) => a.allele === '11,14')).toBe(true);
    expect(dys385.sum).toBeCloseTo(1, 10);
  });

  it('names each unknown marker exactly: Marker {name} is invalid', async () => {
    const p = await create('editorA', { name: 'Unknown marker', organizationIds: [orgA] });
    const body = (await preview('editorA', p.id, { name: 'unknown.csv', bytes: longTable([['D3S1358', '15', 1], ['D99S999', '12', 1]]) })).json() as StatisticsPreview;
    expect(body.errors.map((e) => e.message)).toContain('Marker D99S999 is invalid');
  });

  it('lists a frequency outside (0, 1] with its row and marker', async () => {
    const p = await create('editorA', { name: 'Bad frequency', organizationIds: [orgA] });
    const body = (await preview('editorA', p.id, { name: 'bad.csv', bytes: longTable([['D3S1358', '15', 1.5]]) })).json() as StatisticsPreview;
    expect(body.errors.length).toBeGreaterThan(0);
    expect(body.errors[0]).toMatchObject({ row: 2, marker: 'D3S1358' });
  });

  it('refuses alleles that break the allele rules (10004.9, 9.33, abc, X outside Amelogenin), naming row and marker', async () => {
    const p = await create('editorA', { name: 'Allele rules', organizationIds: [orgA] });
    const file = {
      name: 'alleles.csv',
      bytes: 'marker,allele,frequency\nD3S1358,15,0.5\nD3S1358,10004.9,0.25\nD3S1358,9.33,0.25\nTH01,abc,0.5\nTH01,9.3,0.5\nvWA,X,1\n',
    };
    const body = (await preview('editorA', p.id, file)).json() as StatisticsPreview;
    expect(body.errors.map((e) => [e.row, e.marker])).toEqual([
      [4, 'D3S1358'],
      [5, 'TH01'],
      [7, 'vWA'],
      [3, 'D3S1358'],
    ]);
    expect(body.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^"9\.33" at D3S1358 is not an allele designation \(9\.33 is not a microvariant/),
      expect.stringMatching(/^"abc" at TH01 is not an allele designation/),
      '"X" at vWA is only valid at Amelogenin; the row is skipped',
      '"10004.9" at D3S1358 is out of range (a repeat number is above 0 and below 100)',
    ]);
    const saved = await save('editorA', p.id, file, { version: '1' });
    expect(saved.statusCode).toBe(400);
    expect(saved.json().details).toHaveLength(4);
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).json().statistics.markerCount).toBe(0);
  });

  it('refuses a Y-STR haplotype table for an autosomal population, and allele frequencies for a Y-STR one', async () => {
    const auto = await create('editorA', { name: 'Autosomal kind', organizationIds: [orgA] });
    const ystrFile = { name: 'european.csv', bytes: sharedFile(YSTR_EUROPEAN) };
    const body = (await preview('editorA', auto.id, ystrFile)).json() as StatisticsPreview;
    expect(body.errors.map((e) => e.message)).toContain(
      'european.csv is a Y-STR haplotype table, but population "Autosomal kind" is autosomal. Upload it to a Y-STR population.',
    );
    const saved = await save('editorA', auto.id, ystrFile, { version: '1' });
    expect(saved.statusCode).toBe(400);
    expect(saved.json().error).toBe('european.csv is a Y-STR haplotype table, but population "Autosomal kind" is autosomal. Upload it to a Y-STR population.');

    const ystr = await create('editorA', { name: 'Y kind', kind: 'YStr', organizationIds: [orgA] });
    const frequencies = await save('editorA', ystr.id, { name: 'small.csv', bytes: SMALL }, { version: '1' });
    expect(frequencies.statusCode).toBe(400);
    expect(frequencies.json().error).toMatch(/needs a haplotype table/);
  });

  it('says what is wrong with a request without a file, an empty file, or not multipart (400)', async () => {
    const p = await create('editorA', { name: 'No file', organizationIds: [orgA] });
    const json = await call('editorA', 'POST', `/api/populations/${p.id}/statistics/preview`, { file: 'x' });
    expect(json.statusCode).toBe(400);
    expect((await preview('editorA', p.id, { name: 'empty.csv', bytes: '' })).statusCode).toBe(400);
    expect((await preview('readerA', p.id, { name: 'small.csv', bytes: SMALL })).statusCode).toBe(403);
  });
});

describe('populations: saving statistics', () => {
  it('replaces the statistics with the new file and bumps the version, recording the source', async () => {
    const p = await create('editorA', { name: 'Replace', organizationIds: [orgA] });
    const first = await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ version: 2, statistics: { markerCount: 2, alleleCount: 5 } });
    expect(first.json().source).toMatch(/^small\.csv \(.+\)$/);
    expect(first.json().statisticsUploadedAt).not.toBeNull();

    const second = await save('editorA', p.id, { name: 'other.csv', bytes: OTHER }, { version: '2' });
    expect(second.json()).toMatchObject({ version: 3, statistics: { markerCount: 1, alleleCount: 2 } });
    const stats = (await call('editorA', 'GET', `/api/populations/${p.id}/statistics`)).json() as PopulationStatistics;
    expect(stats.markers.map((m) => m.marker)).toEqual(['vWA']);
    expect(stats.markers[0]!.alleles).toEqual([
      { allele: '17', frequency: 0.5 },
      { allele: '18', frequency: 0.5 },
    ]);
  });

  it('records which population of a multi-population file was saved', async () => {
    const p = await create('editorA', { name: 'FBI SW Hispanic', organizationIds: [orgA] });
    const res = await save('editorA', p.id, { name: 'fbi2015.csv', bytes: sharedFile(FBI_2015) }, { version: '1', population: 'SW Hispanic' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().source).toMatch(/^fbi2015\.csv, SW Hispanic \(/);
    expect(res.json().statistics.markerCount).toBe(23);
  });

  it('refuses a file with errors (400, the errors in details) and keeps the old statistics', async () => {
    const p = await create('editorA', { name: 'Refused', organizationIds: [orgA] });
    await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '1' });
    const res = await save('editorA', p.id, { name: 'bad.csv', bytes: longTable([['D3S1358', '15', 1], ['D99S999', '12', 1]]) }, { version: '2' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ message: 'Marker D99S999 is invalid' })]));
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).json()).toMatchObject({ version: 2, statistics: { markerCount: 2 } });
  });

  it('needs the version read: missing is 400, stale is 409', async () => {
    const p = await create('editorA', { name: 'Versioned upload', organizationIds: [orgA] });
    expect((await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, {})).statusCode).toBe(400);
    const stale = await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '7' });
    expect(stale.statusCode).toBe(409);
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).json().statistics.markerCount).toBe(0);
  });

  it('leaves the old statistics intact when the replacement fails part-way (one transaction)', async () => {
    const p = await create('editorA', { name: 'Atomic', organizationIds: [orgA] });
    await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '1' });
    const before = (await call('editorA', 'GET', `/api/populations/${p.id}/statistics`)).json();
    const [vwa] = await t.database.db.select({ id: markers.id }).from(markers).where(eq(markers.name, 'vWA'));
    // The second marker does not exist: its insert fails after the old rows were deleted and the first marker inserted.
    const failing = replaceStatistics(
      t.database.db,
      p.id,
      2,
      statisticsBatches(
        {
          markers: [
            { markerId: vwa!.id, sampleSize: 100, alleles: [{ allele: '17', frequency: 1 }] },
            { markerId: '00000000-0000-4000-8000-000000000000', sampleSize: null, alleles: [{ allele: '9', frequency: 1 }] },
          ],
          haplotypes: [],
        },
        { rows: 1, bytes: 1024 },
      ),
      { source: 'broken', uploadedAt: new Date() },
    );
    await expect(failing).rejects.toThrow();
    expect((await call('editorA', 'GET', `/api/populations/${p.id}/statistics`)).json()).toEqual(before);
    const [row] = await t.database.db.select().from(populations).where(eq(populations.id, p.id));
    expect(row).toMatchObject({ version: 2, source: expect.stringMatching(/^small\.csv/) });
  });

  it('stores a Y-STR haplotype table and pages its haplotypes, most frequent first', async () => {
    const p = await create('editorA', { name: 'Y haplotypes', kind: 'YStr', organizationIds: [orgA] });
    const res = await save('editorA', p.id, { name: 'european.csv', bytes: sharedFile(YSTR_EUROPEAN) }, { version: '1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().statistics).toMatchObject({ markerCount: 25, haplotypeTotal: 197 });
    const page = (await call('editorA', 'GET', `/api/populations/${p.id}/statistics?pageSize=10`)).json() as PopulationStatistics;
    expect(page.haplotypes).toHaveLength(10);
    expect(page.haplotypeCount).toBe(res.json().statistics.haplotypeCount);
    const counts = page.haplotypes.map((h) => h.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('fixes the kind once statistics exist (409)', async () => {
    const p = await create('editorA', { name: 'Kind fixed', organizationIds: [orgA] });
    await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '1' });
    const res = await call('editorA', 'PUT', `/api/populations/${p.id}`, { name: 'Kind fixed', kind: 'YStr', minimumAlleleFrequency: 0.001, version: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('The kind of a population cannot change once it has statistics.');
  });
});

describe('populations: large uploads off the request thread (issue 13)', () => {
  const Y_MARKERS = ['DYS19', 'DYS389I', 'DYS389II', 'DYS390', 'DYS391', 'DYS392', 'DYS393', 'DYS437', 'DYS438', 'DYS439', 'DYS385'];
  /** `rows` men of distinct haplotypes (the row number spelled out over the markers), DYS385 a two-value set. */
  const haplotypes = (rows: number) => {
    const lines = [`Sample,${Y_MARKERS.join(',')}`];
    for (let i = 0; i < rows; i++) {
      const digits = i.toString(8).padStart(Y_MARKERS.length - 1, '0').split('');
      lines.push(`S${i},${digits.map((d) => 10 + Number(d)).join(',')},"11,${12 + (i % 3)}"`);
    }
    return `${lines.join('\n')}\n`;
  };

  it('keeps the event loop turning while a large table is read and saved, so other requests are answered', async () => {
    const p = await create('editorA', { name: 'Y large, concurrent', kind: 'YStr', organizationIds: [orgA] });
    const body = haplotypes(20_000);
    // The longest stretch no timer could run: every other request waited that long.
    let last = performance.now();
    let longest = 0;
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    };
    const timer = setInterval(tick, 5);
    const answered: number[] = [];
    const others = setInterval(() => void t.app.inject({ method: 'GET', url: '/api/health' }).then((r) => answered.push(r.statusCode)), 25);
    const started = performance.now();
    const res = await save('editorA', p.id, { name: 'large.csv', bytes: body }, { version: '1' });
    const took = performance.now() - started;
    tick();
    clearInterval(timer);
    clearInterval(others);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().statistics).toMatchObject({ markerCount: 11, haplotypeCount: 20_000, haplotypeTotal: 20_000 });
    // Parsed in a worker, written in small batches: no stretch near the save's length (on the request thread it was nearly all of it).
    expect(longest).toBeLessThan(took / 3);
    expect(answered.length).toBeGreaterThan(5);
    expect(answered.every((status) => status === 200)).toBe(true);
  });

  it('stores a table of many batches whole, and replaces it whole', async () => {
    const p = await create('editorA', { name: 'Y large, replaced', kind: 'YStr', organizationIds: [orgA] });
    const first = await save('editorA', p.id, { name: 'first.csv', bytes: haplotypes(6_000) }, { version: '1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().statistics).toMatchObject({ markerCount: 11, haplotypeCount: 6_000, haplotypeTotal: 6_000, sampleSizeMin: 6_000 });
    // The summary the save answers is what the tables hold.
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).json().statistics).toEqual(first.json().statistics);
    const second = await save('editorA', p.id, { name: 'second.csv', bytes: haplotypes(2_500) }, { version: '2' });
    expect(second.json().statistics).toMatchObject({ haplotypeCount: 2_500, haplotypeTotal: 2_500 });
    const stats = (await call('editorA', 'GET', `/api/populations/${p.id}/statistics?pageSize=1`)).json() as PopulationStatistics;
    expect(stats.haplotypeCount).toBe(2_500);
    expect(stats.source).toBe('second.csv (Y-STR haplotype table)');
  });

  it('refuses the second of two saves of the same version (409), keeping the first whole', async () => {
    const p = await create('editorA', { name: 'Y large, raced', kind: 'YStr', organizationIds: [orgA] });
    const [a, b] = await Promise.all([
      save('editorA', p.id, { name: 'a.csv', bytes: haplotypes(3_000) }, { version: '1' }),
      save('editorA', p.id, { name: 'b.csv', bytes: haplotypes(1_000) }, { version: '1' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? a : b;
    const stats = (await call('editorA', 'GET', `/api/populations/${p.id}`)).json();
    expect(stats).toMatchObject({ version: 2, statistics: winner.json().statistics });
  });
});

describe('populations: sample size N per marker (issue 13)', () => {
  const fbi = () => ({ name: 'fbi2015.csv', bytes: sharedFile(FBI_2015) });
  const sizes = () => ({ name: 'fbi2015-n.csv', bytes: sharedFile(FBI_2015_N) });
  /** fbi2015-n.csv without its Caucasian TH01 row. */
  const sizesWithoutTh01 = () => ({
    name: 'fbi2015-n-partial.csv',
    bytes: sharedFile(FBI_2015_N).toString('utf8').split('\n').filter((line) => !line.startsWith('Caucasian,TH01,')).join('\n'),
  });
  const statistics = async (id: string) => (await call('editorA', 'GET', `/api/populations/${id}/statistics`)).json() as PopulationStatistics;
  const sampleSize = (stats: PopulationStatistics, marker: string) => stats.markers.find((m) => m.marker === marker)?.sampleSize;

  it('previews N per marker from the sample-size file sent beside the frequencies (part sampleSizes)', async () => {
    const p = await create('editorA', { name: 'FBI with N preview', organizationIds: [orgA] });
    const res = await uploadWithSizes(`/api/populations/${p.id}/statistics/preview`, fbi(), sizes(), { population: 'Caucasian' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as StatisticsPreview;
    expect(body.errors).toEqual([]);
    expect(body.warnings).toEqual([]);
    // fbi2015-n.csv: Caucasian,D3S1358,404 alleles → 202 people; Caucasian,CSF1PO,403 → 201.
    expect(body.markers.find((m) => m.marker === 'D3S1358')!.sampleSize).toBe(202);
    expect(body.markers.find((m) => m.marker === 'CSF1PO')!.sampleSize).toBe(201);
    expect(body.markers.every((m) => m.sampleSize !== null)).toBe(true);
  });

  it('saves N per marker, so the minimum allele frequency is 5/(2N); the source names the N file', async () => {
    const p = await create('editorA', { name: 'FBI with N', organizationIds: [orgA] });
    const res = await uploadWithSizes(`/api/populations/${p.id}/statistics`, fbi(), sizes(), { population: 'Caucasian', version: '1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ source: 'fbi2015.csv, Caucasian (Long marker/allele/frequency table); N from fbi2015-n.csv', statistics: { markerCount: 23, sampleSizeMin: 200, sampleSizeMax: 202 } });
    const stats = await statistics(p.id);
    expect(sampleSize(stats, 'D3S1358')).toBe(202);
    expect(sampleSize(stats, 'CSF1PO')).toBe(201);
    // Caucasian,D7S820,401 alleles: 200 people, the fewest.
    expect(sampleSize(stats, 'D7S820')).toBe(200);
    const [row] = await t.database.db.select().from(populations).where(eq(populations.id, p.id));
    const { frequencies } = await loadEnginePopulation(t.database.db, row!);
    // An allele the population never saw: 5/(2 × 202), not the configured 0.001.
    expect(alleleFrequency(frequencies, 'D3S1358', '99')).toBeCloseTo(5 / 404, 15);
  });

  it('reports a marker the sample-size file leaves out, and saves it without N (the population minimum applies)', async () => {
    const p = await create('editorA', { name: 'FBI partial N', organizationIds: [orgA] });
    const previewed = (await uploadWithSizes(`/api/populations/${p.id}/statistics/preview`, fbi(), sizesWithoutTh01(), { population: 'Caucasian' })).json() as StatisticsPreview;
    expect(previewed.errors).toEqual([]);
    expect(previewed.warnings).toEqual([
      { row: null, marker: 'TH01', message: "TH01 has no sample size (N): its rare alleles get the population's minimum allele frequency instead of 5/(2N)" },
    ]);
    const res = await uploadWithSizes(`/api/populations/${p.id}/statistics`, fbi(), sizesWithoutTh01(), { population: 'Caucasian', version: '1' });
    expect(res.statusCode, res.body).toBe(200);
    const stats = await statistics(p.id);
    expect(sampleSize(stats, 'TH01')).toBeNull();
    expect(sampleSize(stats, 'D3S1358')).toBe(202);
    const [row] = await t.database.db.select().from(populations).where(eq(populations.id, p.id));
    expect(alleleFrequency((await loadEnginePopulation(t.database.db, row!)).frequencies, 'TH01', '99')).toBe(0.001);
  });

  it('reads N from a column of the frequency file itself, and reports the marker whose N cell is empty', async () => {
    const p = await create('editorA', { name: 'N column', organizationIds: [orgA] });
    const file = { name: 'with-n.csv', bytes: 'marker,allele,frequency,N\nD3S1358,15,0.25,250\nD3S1358,16,0.75,250\nTH01,9.3,1,\n' };
    const body = (await preview('editorA', p.id, file)).json() as StatisticsPreview;
    expect(body.markers.map((m) => [m.marker, m.sampleSize])).toEqual([
      ['D3S1358', 250],
      ['TH01', null],
    ]);
    expect(body.warnings.map((w) => w.marker)).toEqual(['TH01']);
    expect((await save('editorA', p.id, file, { version: '1' })).statusCode).toBe(200);
    expect(sampleSize(await statistics(p.id), 'D3S1358')).toBe(250);
  });

  it('says what is wrong with a sample-size file that is not one, or empty, and saves nothing', async () => {
    const p = await create('editorA', { name: 'Bad N file', organizationIds: [orgA] });
    const wrong = await uploadWithSizes(`/api/populations/${p.id}/statistics`, fbi(), { name: 'other.csv', bytes: SMALL }, { population: 'Caucasian', version: '1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('other.csv is not a sample-size table (expected columns population, marker, n_alleles)');
    const empty = await uploadWithSizes(`/api/populations/${p.id}/statistics/preview`, fbi(), { name: 'empty-n.csv', bytes: '' }, { population: 'Caucasian' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('The file empty-n.csv is empty.');
    expect((await call('editorA', 'GET', `/api/populations/${p.id}`)).json()).toMatchObject({ version: 1, statistics: { markerCount: 0 } });
  });
});

describe('populations: download (spec 7.1)', () => {
  it('downloads the statistics as a CSV long table named after the population, alleles in repeat order', async () => {
    const p = await create('editorA', { name: 'Download Ø', organizationIds: [orgA] });
    await save('editorA', p.id, { name: 'small.csv', bytes: SMALL }, { version: '1' });
    const res = await call('readerA', 'GET', `/api/populations/${p.id}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Download _.csv"; filename*=UTF-8''Download%20%C3%98.csv`);
    expect(res.body.split('\r\n')).toEqual([
      'marker,allele,frequency',
      'D3S1358,15,0.25',
      'D3S1358,16,0.75',
      'TH01,6,0.5',
      'TH01,9.3,0.4',
      'TH01,10,0.1',
      '',
    ]);
  });

  it('downloads a Y-STR population as its haplotype table, multi-copy values in one quoted cell', async () => {
    const p = await create('editorA', { name: 'Y download', kind: 'YStr', organizationIds: [orgA] });
    await save('editorA', p.id, { name: 'european.csv', bytes: sharedFile(YSTR_EUROPEAN) }, { version: '1' });
    const lines = (await call('editorA', 'GET', `/api/populations/${p.id}/download`)).body.trim().split('\r\n');
    expect(lines[0]!.split(',')).toEqual(expect.arrayContaining(['count', 'DYS385', 'DYF387S1', 'DYS19']));
    expect(lines.slice(1).some((l) => /"\d+,\d+"/.test(l))).toBe(true);
  });

  it('keeps a spreadsheet from running a cell as a formula, and quotes what CSV needs quoted', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe('+1');
    expect(csvCell('-2')).toBe('-2');
    expect(csvCell('-2+A1')).toBe("'-2+A1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('12,13')).toBe('"12,13"');
    expect(csvCell('9.3')).toBe('9.3');
    expect(csvCell(0.25)).toBe('0.25');
  });
});
