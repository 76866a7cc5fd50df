import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import { chemistryMarkers } from '../../../../server/db/schema';
import { SEED_CHEMISTRIES } from '../../../../server/db/seed/reference/kits';
import { SEED_MARKERS } from '../../../../server/db/seed/reference/markers';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let adminAll: string;
let adminOrg: string;
let autosomalReader: string;
let noRights: string;
/** Marker id by canonical name: every marker Locus seeds, added through the API. */
const id: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id })).id);
  adminOrg = t.verifier.issue((await createUser(db, { scope: 'Organization', accessGroupId: admins.id, organizationIds: [org.id] })).id);
  const readers = await createAccessGroup(db, { grants: { AutosomalChemistries: ['Read'] } });
  autosomalReader = t.verifier.issue((await createUser(db, { accessGroupId: readers.id, organizationIds: [org.id] })).id);
  noRights = t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db)).id, organizationIds: [org.id] })).id);
  for (const m of SEED_MARKERS) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/markers',
      headers: as(adminAll),
      payload: { name: m.name, kind: m.kind, aliases: m.aliases, multiCopy: m.multiCopy ?? false },
    });
    id[m.name] = (res.json() as { id: string }).id;
  }
}, 60_000);
afterAll(() => t.close());

interface ChemistryBody {
  id: string;
  name: string;
  kind: string;
  version: number;
  markers: { id: string; name: string }[];
  markerCount: number;
}
type Path = 'ystr-chemistries' | 'autosomal-chemistries';

function as(token: string) {
  return { authorization: `Bearer ${token}` };
}
const ids = (...names: string[]) => names.map((n) => id[n]!);
const post = (path: Path, payload: object, token = adminAll) => t.app.inject({ method: 'POST', url: `/api/${path}`, headers: as(token), payload });
const put = (path: Path, chemistryId: string, payload: object, token = adminAll) =>
  t.app.inject({ method: 'PUT', url: `/api/${path}/${chemistryId}`, headers: as(token), payload });
const get = (url: string, token = adminAll) => t.app.inject({ method: 'GET', url, headers: as(token) });
async function add(path: Path, name: string, markerNames: string[]): Promise<ChemistryBody> {
  const res = await post(path, { name, markerIds: ids(...markerNames) });
  if (res.statusCode !== 201) throw new Error(`adding ${name}: ${res.statusCode} ${res.body}`);
  return res.json() as ChemistryBody;
}
const names = (c: ChemistryBody) => c.markers.map((m) => m.name);
const detailMessages = (body: string) => ((JSON.parse(body) as { details?: { message: string }[] }).details ?? []).map((d) => d.message);

describe('adding a chemistry', () => {
  it('stores every kit Locus seeds with its markers in the published order', async () => {
    for (const kit of SEED_CHEMISTRIES) {
      const created = await add(kit.kind === 'YStr' ? 'ystr-chemistries' : 'autosomal-chemistries', kit.name, [...kit.markers]);
      expect(created).toMatchObject({ name: kit.name, kind: kit.kind, version: 1, markerCount: kit.markers.length });
      expect(names(created)).toEqual(kit.markers);
    }
    const globalFiler = (await get('/api/autosomal-chemistries?search=GlobalFiler')).json().items[0] as ChemistryBody;
    expect(names((await get(`/api/autosomal-chemistries/${globalFiler.id}`)).json() as ChemistryBody)).toEqual(SEED_CHEMISTRIES[0]!.markers);
  });

  it('lets an autosomal kit carry Amelogenin and the Y markers autosomal kits amplify', async () => {
    const kit = await add('autosomal-chemistries', 'Kit with Y', ['D3S1358', 'Amelogenin', 'DYS391', 'Yindel']);
    expect(names(kit)).toEqual(['D3S1358', 'Amelogenin', 'DYS391', 'Yindel']);
  });

  it('refuses an autosomal marker in a Y-STR chemistry, naming it', async () => {
    const res = await post('ystr-chemistries', { name: 'Y kit with Amelogenin', markerIds: ids('DYS19', 'Amelogenin') });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Marker Amelogenin is autosomal; a Y-STR chemistry holds only Y-STR markers');
  });

  it('answers Required for an empty name and asks for at least one marker', async () => {
    const res = await post('ystr-chemistries', { name: ' ', markerIds: [] });
    expect(res.statusCode).toBe(400);
    expect(detailMessages(res.body)).toEqual(['Required', 'Add at least one marker']);
  });

  it('refuses a marker listed twice and a marker that does not exist', async () => {
    const twice = await post('ystr-chemistries', { name: 'Twice', markerIds: ids('DYS19', 'DYS391', 'DYS19') });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe('Marker DYS19 is listed twice');
    const unknown = await post('ystr-chemistries', { name: 'Unknown', markerIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe('No marker with id 00000000-0000-4000-8000-000000000000');
  });

  it('keeps names unique per kind, ignoring case', async () => {
    const res = await post('ystr-chemistries', { name: 'powerplex y23', markerIds: ids('DYS19') });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('A Y-STR chemistry named "powerplex y23" already exists');
    // The other kind may use the name.
    expect((await post('autosomal-chemistries', { name: 'PowerPlex Y23', markerIds: ids('D3S1358') })).statusCode).toBe(201);
  });
});

describe('changing the marker configuration', () => {
  it('replaces name and markers in the new order, and reads them back in that order', async () => {
    const kit = await add('ystr-chemistries', 'Mini Y', ['DYS19', 'DYS391', 'DYS392']);
    const res = await put('ystr-chemistries', kit.id, { name: 'Mini Y (v2)', markerIds: ids('DYS392', 'DYS19', 'DYS438', 'DYS391'), version: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Mini Y (v2)', version: 2, markerCount: 4 });
    const reread = (await get(`/api/ystr-chemistries/${kit.id}`)).json() as ChemistryBody;
    expect(names(reread)).toEqual(['DYS392', 'DYS19', 'DYS438', 'DYS391']);
  });

  it('refuses a stale version (409) and keeps the stored order', async () => {
    const kit = await add('ystr-chemistries', 'Stale Y', ['DYS19', 'DYS391']);
    expect((await put('ystr-chemistries', kit.id, { name: 'Stale Y', markerIds: ids('DYS391', 'DYS19'), version: 1 })).statusCode).toBe(200);
    const stale = await put('ystr-chemistries', kit.id, { name: 'Stale Y', markerIds: ids('DYS19'), version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(STALE_RECORD_MESSAGE);
    expect(names((await get(`/api/ystr-chemistries/${kit.id}`)).json() as ChemistryBody)).toEqual(['DYS391', 'DYS19']);
  });

  it('changes nothing when the new list is refused', async () => {
    const kit = await add('ystr-chemistries', 'Atomic Y', ['DYS19', 'DYS391']);
    const res = await put('ystr-chemistries', kit.id, { name: 'Atomic Y renamed', markerIds: ids('DYS19', 'TH01'), version: 1 });
    expect(res.statusCode).toBe(400);
    expect((await get(`/api/ystr-chemistries/${kit.id}`)).json()).toMatchObject({ name: 'Atomic Y', version: 1, markers: [{ name: 'DYS19' }, { name: 'DYS391' }] });
  });

  it('does not find a chemistry of the other kind under this kind (404)', async () => {
    const kit = await add('ystr-chemistries', 'Only Y', ['DYS19']);
    expect((await get(`/api/autosomal-chemistries/${kit.id}`)).statusCode).toBe(404);
    expect((await put('autosomal-chemistries', kit.id, { name: 'Only Y', markerIds: ids('TH01'), version: 1 })).statusCode).toBe(404);
  });
});

describe('listing', () => {
  it('lists one kind with count and names, and finds kits by a marker they hold', async () => {
    const ystr = (await get('/api/ystr-chemistries?pageSize=500')).json() as { items: ChemistryBody[] };
    expect(ystr.items.every((c) => c.kind === 'YStr')).toBe(true);
    const withSe33 = (await get(`/api/autosomal-chemistries?filter=${encodeURIComponent(JSON.stringify({ markers: 'SE33' }))}`)).json() as { items: ChemistryBody[] };
    expect(withSe33.items.map((c) => c.name)).toEqual(['GlobalFiler', 'PowerPlex Fusion 6C']);
    const bySize = (await get('/api/autosomal-chemistries?sort=markerCount:desc&pageSize=1')).json() as { items: ChemistryBody[] };
    expect(bySize.items[0]).toMatchObject({ name: 'PowerPlex Fusion 6C', markerCount: 27 });
  });

  it('lists both kinds under /api/chemistries, or one with kind', async () => {
    const all = (await get('/api/chemistries?pageSize=500')).json() as { items: ChemistryBody[] };
    expect(new Set(all.items.map((c) => c.kind))).toEqual(new Set(['YStr', 'Autosomal']));
    const y = (await get('/api/chemistries?kind=YStr&pageSize=500')).json() as { items: ChemistryBody[] };
    expect(y.items.length).toBeGreaterThan(0);
    expect(y.items.every((c) => c.kind === 'YStr')).toBe(true);
  });
});

describe('deleting', () => {
  it('deletes a chemistry with its configuration, after which its markers may go', async () => {
    const lonely = await t.app.inject({ method: 'POST', url: '/api/markers', headers: as(adminAll), payload: { name: 'DYS9003', kind: 'YStr', aliases: [], multiCopy: false } });
    const markerId = (lonely.json() as { id: string }).id;
    const kit = (await post('ystr-chemistries', { name: 'Doomed Y', markerIds: [markerId] })).json() as ChemistryBody;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/markers/${markerId}`, headers: as(adminAll) })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/ystr-chemistries/${kit.id}`, headers: as(adminAll) })).statusCode).toBe(204);
    expect(await t.database.db.select().from(chemistryMarkers).where(eq(chemistryMarkers.chemistryId, kit.id))).toEqual([]);
    expect((await get(`/api/ystr-chemistries/${kit.id}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/markers/${markerId}`, headers: as(adminAll) })).statusCode).toBe(204);
  });
});

describe('who may do what (spec 6)', () => {
  const anyY = async () => ((await get('/api/ystr-chemistries')).json() as { items: ChemistryBody[] }).items[0]!;
  const anyAutosomal = async () => ((await get('/api/autosomal-chemistries')).json() as { items: ChemistryBody[] }).items[0]!;

  it('lets an administrator with organization scope read autosomal kits only, and change none', async () => {
    const autosomal = await anyAutosomal();
    expect((await get('/api/autosomal-chemistries', adminOrg)).statusCode).toBe(200);
    expect((await get('/api/ystr-chemistries', adminOrg)).statusCode).toBe(403);
    expect((await get(`/api/chemistries/${(await anyY()).id}`, adminOrg)).statusCode).toBe(403);
    const general = (await get('/api/chemistries?pageSize=500', adminOrg)).json() as { items: ChemistryBody[] };
    expect(general.items.length).toBeGreaterThan(0);
    expect(general.items.every((c) => c.kind === 'Autosomal')).toBe(true);
    expect((await get('/api/chemistries?kind=YStr', adminOrg)).statusCode).toBe(403);
    expect((await post('autosomal-chemistries', { name: 'Org kit', markerIds: ids('TH01') }, adminOrg)).statusCode).toBe(403);
    expect((await put('autosomal-chemistries', autosomal.id, { name: 'Renamed', markerIds: ids('TH01'), version: autosomal.version }, adminOrg)).statusCode).toBe(403);
  });

  it('lets a role with AutosomalChemistries Read read autosomal kits, and nothing else', async () => {
    const autosomal = await anyAutosomal();
    expect((await get(`/api/autosomal-chemistries/${autosomal.id}`, autosomalReader)).statusCode).toBe(200);
    expect((await get(`/api/chemistries/${autosomal.id}`, autosomalReader)).json()).toMatchObject({ id: autosomal.id, name: autosomal.name });
    expect((await get('/api/ystr-chemistries', autosomalReader)).statusCode).toBe(403);
    expect((await post('autosomal-chemistries', { name: 'Reader kit', markerIds: ids('TH01') }, autosomalReader)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/autosomal-chemistries/${autosomal.id}`, headers: as(autosomalReader) })).statusCode).toBe(403);
  });

  it('refuses the general list to a role with neither Read right (403), and a caller without a token (401)', async () => {
    expect((await get('/api/chemistries', noRights)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/chemistries' })).statusCode).toBe(401);
  });
});
