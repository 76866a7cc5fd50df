import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_RECORD_MESSAGE } from '../../../../core/schemas/list';
import { chemistries, chemistryMarkers, markers, populationAlleles, populationHaplotypes, populations } from '../../../../server/db/schema';
import { SEED_MARKERS } from '../../../../server/db/seed/reference/markers';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let adminAll: string;
let adminOrg: string;
let reader: string;
let noRights: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id })).id);
  adminOrg = t.verifier.issue((await createUser(db, { scope: 'Organization', accessGroupId: admins.id, organizationIds: [org.id] })).id);
  const readers = await createAccessGroup(db, { grants: { Markers: ['Read'] } });
  reader = t.verifier.issue((await createUser(db, { accessGroupId: readers.id, organizationIds: [org.id] })).id);
  noRights = t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db)).id, organizationIds: [org.id] })).id);
}, 60_000);
afterAll(() => t.close());

interface MarkerBody {
  id: string;
  name: string;
  kind: string;
  aliases: string[];
  multiCopy: boolean;
  version: number;
}

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (payload: object, token = adminAll) => t.app.inject({ method: 'POST', url: '/api/markers', headers: as(token), payload });
const put = (id: string, payload: object, token = adminAll) => t.app.inject({ method: 'PUT', url: `/api/markers/${id}`, headers: as(token), payload });
const del = (id: string, token = adminAll) => t.app.inject({ method: 'DELETE', url: `/api/markers/${id}`, headers: as(token) });
const get = (url: string, token = adminAll) => t.app.inject({ method: 'GET', url, headers: as(token) });
async function add(name: string, kind: 'Autosomal' | 'YStr', aliases: string[] = [], multiCopy = false): Promise<MarkerBody> {
  const res = await post({ name, kind, aliases, multiCopy });
  if (res.statusCode !== 201) throw new Error(`adding ${name}: ${res.statusCode} ${res.body}`);
  return res.json() as MarkerBody;
}
const detailMessages = (body: string) => ((JSON.parse(body) as { details?: { message: string }[] }).details ?? []).map((d) => d.message);

describe('adding a marker', () => {
  it('stores name, kind, trimmed aliases and the multi-copy flag', async () => {
    const res = await post({ name: ' DYS385 ', kind: 'YStr', aliases: [' DYS385a/b', 'DYS385 a/b '], multiCopy: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'DYS385', kind: 'YStr', aliases: ['DYS385a/b', 'DYS385 a/b'], multiCopy: true, version: 1 });
    expect((await get(`/api/markers/${(res.json() as MarkerBody).id}`)).json()).toMatchObject({ name: 'DYS385', aliases: ['DYS385a/b', 'DYS385 a/b'] });
  });

  it('answers Required for a missing name and kind', async () => {
    const res = await post({ name: '  ', kind: '', aliases: [], multiCopy: false });
    expect(res.statusCode).toBe(400);
    expect(detailMessages(res.body)).toEqual(['Required', 'Required']);
  });

  it('refuses an empty alias, an alias listed twice, and the name repeated as an alias', async () => {
    expect(detailMessages((await post({ name: 'D99S1', kind: 'Autosomal', aliases: ['  '], multiCopy: false })).body)).toEqual(['An alias cannot be empty']);
    expect(detailMessages((await post({ name: 'D99S1', kind: 'Autosomal', aliases: ['D99-S1', 'D99-S1'], multiCopy: false })).body)).toEqual(['Alias D99-S1 is listed twice']);
    expect(detailMessages((await post({ name: 'D99S1', kind: 'Autosomal', aliases: ['D99S1'], multiCopy: false })).body)).toEqual(["Alias D99S1 is the marker's own name"]);
  });

  it('keeps aliases that differ from each other or from the name only in case or separators (one marker may list them all)', async () => {
    const penta = await add('Penta D', 'Autosomal', ['Penta_D', 'PentaD', 'PENTAD', 'PENTA_D']);
    expect(penta.aliases).toEqual(['Penta_D', 'PentaD', 'PENTAD', 'PENTA_D']);
    expect((await add('vWA', 'Autosomal', ['VWA'])).aliases).toEqual(['VWA']);
  });

  it('refuses multi-copy on an autosomal marker', async () => {
    const res = await post({ name: 'D98S1', kind: 'Autosomal', aliases: [], multiCopy: true });
    expect(res.statusCode).toBe(400);
    expect(detailMessages(res.body)).toEqual(['Only a Y-STR marker can be multi-copy']);
  });

  it('refuses a name made only of separators, which no import could match', async () => {
    const res = await post({ name: '-_-', kind: 'Autosomal', aliases: [], multiCopy: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Name -_- is only spaces, dots, dashes or underscores');
  });
});

describe('names and aliases are unique across markers, as imports compare them', () => {
  it('refuses an alias that is another marker name in other case', async () => {
    await add('D97S1', 'Autosomal');
    const res = await post({ name: 'D97 S1 bis', kind: 'Autosomal', aliases: ['d97s1'], multiCopy: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Alias d97s1 is already used by marker D97S1');
  });

  it('refuses a name that only differs by case from another name (Alias vWA … marker VWA style)', async () => {
    const res = await post({ name: 'VWA', kind: 'Autosomal', aliases: [], multiCopy: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Name VWA is already used by marker vWA');
  });

  it('refuses a spelling that matches another marker after spaces, dashes and underscores are ignored, naming the alias it hit', async () => {
    await add('TH01', 'Autosomal', ['TH 01', 'THO1']);
    const res = await post({ name: 'D96S1', kind: 'Autosomal', aliases: ['THO-1'], multiCopy: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Alias THO-1 is already used by marker TH01 (as THO1)');
    expect((await post({ name: 'Penta-D', kind: 'Autosomal', aliases: [], multiCopy: false })).json().error).toBe('Name Penta-D is already used by marker Penta D');
  });

  it('lets a marker be saved with its own spellings, and checks a changed alias against the others', async () => {
    const th01 = (await get('/api/markers?search=TH01')).json().items[0] as MarkerBody;
    const same = await put(th01.id, { name: 'TH01', kind: 'Autosomal', aliases: ['TH 01', 'THO1', 'th01'], multiCopy: false, version: th01.version });
    expect(same.statusCode).toBe(200);
    expect(same.json()).toMatchObject({ aliases: ['TH 01', 'THO1', 'th01'], version: th01.version + 1 });
    const clash = await put(th01.id, { name: 'TH01', kind: 'Autosomal', aliases: ['PENTA D'], multiCopy: false, version: th01.version + 1 });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('Alias PENTA D is already used by marker Penta D');
  });

  it('accepts every marker Locus seeds, with all their aliases', async () => {
    const seeded = SEED_MARKERS.filter((m) => !['Penta D', 'vWA', 'TH01', 'DYS385'].includes(m.name));
    for (const m of seeded) {
      const res = await post({ name: m.name, kind: m.kind, aliases: m.aliases, multiCopy: m.multiCopy ?? false });
      expect(res.statusCode, `${m.name}: ${res.body}`).toBe(201);
    }
  });
});

describe('listing markers', () => {
  it('filters by kind, searches names and aliases, and sorts', async () => {
    const ystr = (await get('/api/markers?kind=YStr&pageSize=500')).json() as { items: MarkerBody[]; count: number };
    expect(ystr.count).toBeGreaterThan(10);
    expect(ystr.items.every((m) => m.kind === 'YStr')).toBe(true);
    expect(ystr.items.map((m) => m.name)).toContain('DYS385');
    const byAlias = (await get(`/api/markers?filter=${encodeURIComponent(JSON.stringify({ aliases: 'PENTA_E' }))}`)).json() as { items: MarkerBody[] };
    expect(byAlias.items.map((m) => m.name)).toEqual(['Penta E']);
    const names = async (sort: string) => ((await get(`/api/markers?sort=${sort}&pageSize=500`)).json() as { items: MarkerBody[] }).items.map((m) => m.name);
    expect(await names('name:desc')).toEqual((await names('name:asc')).reverse());
  });

  it('refuses an unknown kind (400)', async () => {
    expect((await get('/api/markers?kind=Mitochondrial')).statusCode).toBe(400);
  });
});

describe('changing and deleting', () => {
  it('refuses a stale version (409) and keeps the newer record', async () => {
    const m = await add('D95S1', 'Autosomal');
    expect((await put(m.id, { name: 'D95S1', kind: 'Autosomal', aliases: ['D95'], multiCopy: false, version: 1 })).statusCode).toBe(200);
    const stale = await put(m.id, { name: 'D95S1', kind: 'Autosomal', aliases: ['X95'], multiCopy: false, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe(STALE_RECORD_MESSAGE);
    expect((await get(`/api/markers/${m.id}`)).json()).toMatchObject({ aliases: ['D95'], version: 2 });
  });

  it('refuses to delete a marker that chemistries use, naming them', async () => {
    const db = t.database.db;
    const m = await add('D94S1', 'Autosomal');
    for (const name of ['Identifiler Plus', 'GlobalFiler']) {
      const [kit] = await db.insert(chemistries).values({ name, kind: 'Autosomal' }).returning();
      await db.insert(chemistryMarkers).values({ chemistryId: kit!.id, markerId: m.id, position: 0 });
    }
    const res = await del(m.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Marker D94S1 is used by GlobalFiler, Identifiler Plus');
    expect((await get(`/api/markers/${m.id}`)).statusCode).toBe(200);
  });

  it("refuses to delete a marker that a population's statistics use, naming the populations", async () => {
    const db = t.database.db;
    const m = await add('D93S1', 'Autosomal');
    const y = await add('DYS9001', 'YStr');
    const [norway] = await db.insert(populations).values({ name: 'Norway' }).returning();
    const [sweden] = await db.insert(populations).values({ name: 'Sweden', kind: 'YStr' }).returning();
    await db.insert(populationAlleles).values({ populationId: norway!.id, markerId: m.id, allele: '12', frequency: 0.2 });
    await db.insert(populationHaplotypes).values({ populationId: sweden!.id, values: { [y.id]: ['13'] }, count: 2 });
    expect((await del(m.id)).json().error).toBe('Marker D93S1 is used by the statistics of population Norway');
    expect((await del(y.id)).json().error).toBe('Marker DYS9001 is used by the statistics of population Sweden');
  });

  it('deletes an unused marker', async () => {
    const m = await add('D92S1', 'Autosomal');
    expect((await del(m.id)).statusCode).toBe(204);
    expect((await get(`/api/markers/${m.id}`)).statusCode).toBe(404);
  });

  it('keeps a marker Y-STR while a Y-STR chemistry holds it', async () => {
    const db = t.database.db;
    const m = await add('DYS9002', 'YStr');
    const [kit] = await db.insert(chemistries).values({ name: 'Yfiler Plus', kind: 'YStr' }).returning();
    await db.insert(chemistryMarkers).values({ chemistryId: kit!.id, markerId: m.id, position: 0 });
    const res = await put(m.id, { name: 'DYS9002', kind: 'Autosomal', aliases: [], multiCopy: false, version: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Marker DYS9002 must stay Y-STR: the Y-STR chemistry Yfiler Plus uses it');
    const [stored] = await db.select().from(markers).where(eq(markers.id, m.id));
    expect(stored!.kind).toBe('YStr');
  });
});

describe('who may do what (spec 6)', () => {
  it('lets a role with Markers Read list and read, but not write', async () => {
    const [first] = ((await get('/api/markers', reader)).json() as { items: MarkerBody[] }).items;
    expect((await get(`/api/markers/${first!.id}`, reader)).statusCode).toBe(200);
    expect((await post({ name: 'D91S1', kind: 'Autosomal', aliases: [], multiCopy: false }, reader)).statusCode).toBe(403);
    expect((await put(first!.id, { name: 'X', kind: 'Autosomal', aliases: [], multiCopy: false, version: first!.version }, reader)).statusCode).toBe(403);
    expect((await del(first!.id, reader)).statusCode).toBe(403);
  });

  it('refuses an administrator with organization scope even reading (403)', async () => {
    expect((await get('/api/markers', adminOrg)).statusCode).toBe(403);
    expect((await post({ name: 'D91S1', kind: 'Autosomal', aliases: [], multiCopy: false }, adminOrg)).statusCode).toBe(403);
  });

  it('refuses a role without Markers Read (403) and a caller without a token (401)', async () => {
    expect((await get('/api/markers', noRights)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/markers' })).statusCode).toBe(401);
  });
});
