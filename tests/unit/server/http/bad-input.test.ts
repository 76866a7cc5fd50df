/**
 * Issue 14 "Security and bad input": text PostgreSQL cannot store and multipart bodies the parser
 * cannot read are the sender's mistake (400 with a message naming the field), never a 500, and
 * nothing is written. The write and list routes come from the app's own route list.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { registerErrorHandler } from '../../../../server/http/errors';
import { caseTypes, cases, citations, populationOrganizations, populations, serviceClients } from '../../../../server/db/schema';
import { FOREIGN_SENDER, NETWORK_SERVICE } from '../../../../server/http/network/access';
import { newClientCredentials } from '../../../../server/identity/service-clients';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { multipartBody } from '../../../helpers/multipart';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let token: string;
/** Another instance's token: the routes only a service client may call (Prüm II queries, upload batches) check its input too. */
let serviceToken: string;
const ids: Record<string, string> = {};

/** A well-formed id that names nothing: the text check runs before any handler looks it up. */
const NO_ID = '00000000-0000-4000-8000-000000000000';
const NUL = 'text may not contain the NUL character';
const SURROGATE = 'text may not contain a lone surrogate (broken UTF-16)';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  token = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [org.id] })).id);
  const [caseType] = await db.insert(caseTypes).values({ name: 'Bad input case type' }).returning();
  const [aCase] = await db.insert(cases).values({ caseNumber: 'BAD-1', caseTypeId: caseType!.id, organizationId: org.id }).returning();
  const [population] = await db.insert(populations).values({ name: 'Bad input population' }).returning();
  await db.insert(populationOrganizations).values({ populationId: population!.id, organizationId: org.id });
  const [citation] = await db.insert(citations).values({ title: 'Bad input citation' }).returning();
  Object.assign(ids, { caseId: aCase!.id, populationId: population!.id, citationId: citation!.id });
  const service = newClientCredentials();
  await db.insert(serviceClients).values({ name: 'Bad input instance', clientId: service.clientId, secretHash: service.secretHash });
  serviceToken = t.verifier.issue(service.clientId, { clientId: service.clientId });
});
afterAll(() => t.close());

const auth = (route?: { access: unknown }) => ({ authorization: `Bearer ${route?.access === FOREIGN_SENDER || route?.access === NETWORK_SERVICE ? serviceToken : token}` });
const fill = (url: string) => url.replace(/:[A-Za-z]+/g, NO_ID);
const routes = (methods: string[]) => t.app.accessCatalogue.filter((r) => methods.includes(r.method));
const caseTypeCount = async () => (await t.database.db.select({ n: count() }).from(caseTypes))[0]!.n;

/** A JSON body exactly as sent: JSON.stringify would not let a test write "\ud800" by itself. */
const rawJson = (method: 'POST' | 'PUT', url: string, json: string) =>
  t.app.inject({ method, url, headers: { ...auth(), 'content-type': 'application/json' }, payload: json });

describe('text PostgreSQL cannot store, in a JSON body', () => {
  it('refuses a NUL character with 400 naming the field, and stores nothing', async () => {
    const before = await caseTypeCount();
    const res = await rawJson('POST', '/api/case-types', '{"name":"a\\u0000b"}');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: `name: ${NUL}`, details: [{ path: '/name', message: NUL }] });
    expect(await caseTypeCount()).toBe(before);
  });

  it('refuses a lone surrogate rather than storing U+FFFD, and keeps a whole pair as sent', async () => {
    const before = await caseTypeCount();
    for (const lone of ['\\ud800', 'x\\udc00y', '\\ude00\\ud83d']) {
      const res = await rawJson('POST', '/api/case-types', `{"name":"${lone}"}`);
      expect(res.statusCode, lone).toBe(400);
      expect(res.json().error).toBe(`name: ${SURROGATE}`);
    }
    expect(await caseTypeCount()).toBe(before);
    const pair = await rawJson('POST', '/api/case-types', '{"name":"Emoji \\ud83d\\ude00"}');
    expect(pair.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(caseTypes).where(eq(caseTypes.id, pair.json().id));
    expect(row!.name).toBe('Emoji \u{1F600}');
  });

  it('names a nested field and a key', async () => {
    const nested = await rawJson('PUT', `/api/case-types/${NO_ID}`, '{"items":[{"label":"ok"},{"label":"\\u0000"}]}');
    expect(nested.json()).toEqual({ error: `items/1/label: ${NUL}`, details: [{ path: '/items/1/label', message: NUL }] });
    const key = await rawJson('PUT', `/api/case-types/${NO_ID}`, '{"a\\u0000":1}');
    // The key is shown with the character escaped, so the message itself stays printable.
    expect(key.json()).toEqual({ error: `a\\u0000: ${NUL}`, details: [{ path: '/a\\u0000', message: NUL }] });
  });

  it('refuses a NUL in the body of every write route with 400 (31 of them gave 500)', async () => {
    const wrong: string[] = [];
    for (const route of routes(['POST', 'PUT', 'PATCH', 'DELETE'])) {
      const res = await t.app.inject({ method: route.method as 'POST', url: fill(route.url), headers: auth(route), payload: { name: 'a\u0000b', title: 'a\u0000b' } });
      if (res.statusCode !== 400 || !res.json().error.endsWith(NUL)) wrong.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('text PostgreSQL cannot store, in the query string', () => {
  it('refuses ?search=%00 on every GET route with 400 (all 43 list routes gave 500)', async () => {
    const wrong: string[] = [];
    for (const route of routes(['GET'])) {
      const res = await t.app.inject({ method: 'GET', url: `${fill(route.url)}?search=%00`, headers: auth(route) });
      if (res.statusCode !== 400 || res.json().error !== `query parameter search: ${NUL}`) wrong.push(`${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a NUL in a path parameter', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/settings/a%00b', headers: auth() });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`path parameter id: ${NUL}`);
  });
});

/** Every route that reads a multipart body, with records it can find (some look the record up first). */
const uploadRoutes = () => [
  `/api/cases/${ids.caseId}/agency-files`,
  '/api/citations',
  `/api/citations/${ids.citationId}/file`,
  `/api/populations/${ids.populationId}/statistics/preview`,
  `/api/populations/${ids.populationId}/statistics`,
  '/api/profile-imports',
  '/api/profiles/import',
];

const postRaw = (url: string, contentType: string, payload: string | Buffer) =>
  t.app.inject({ method: 'POST', url, headers: { ...auth(), 'content-type': contentType }, payload });

describe('malformed multipart bodies', () => {
  const part = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nA,B\r\n';
  const malformed: [string, string, string][] = [
    ['no boundary', 'multipart/form-data', `${part}--XYZ--\r\n`],
    ['another boundary', 'multipart/form-data; boundary=OTHER', `${part}--XYZ--\r\n`],
    ['no closing delimiter', 'multipart/form-data; boundary=XYZ', part],
  ];

  it.each(malformed)('answers %s with 400 on every upload route', async (_, contentType, body) => {
    const wrong: string[] = [];
    for (const url of uploadRoutes()) {
      const res = await postRaw(url, contentType, body);
      if (res.statusCode !== 400 || !/multipart/.test(res.json().error)) wrong.push(`${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a NUL in an uploaded file name with 400 on every upload route', async () => {
    const wrong: string[] = [];
    for (const url of uploadRoutes()) {
      const body = await multipartBody({ title: 'A citation', version: '1' }, { name: 'a\u0000b.csv', bytes: 'A,B\n' });
      const res = await t.app.inject({ method: 'POST', url, headers: { ...auth(), ...body.headers }, payload: body.payload });
      if (res.statusCode !== 400 || res.json().error !== `file name of file: ${NUL}`) wrong.push(`${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a caseId form field that is no id with 400 on both import routes (the fuzz found a 500)', async () => {
    for (const url of ['/api/profile-imports', '/api/profiles/import']) {
      const body = await multipartBody({ caseId: '|#\uFFFDki4' }, { name: 'a.csv', bytes: 'A,B\n' });
      const res = await t.app.inject({ method: 'POST', url, headers: { ...auth(), ...body.headers }, payload: body.payload });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatch(/caseId must be a case id/);
    }
  });

  it('refuses a NUL in a form field, and stores nothing', async () => {
    const before = (await t.database.db.select({ n: count() }).from(citations))[0]!.n;
    const body = await multipartBody({ title: 'a\u0000b' });
    const res = await t.app.inject({ method: 'POST', url: '/api/citations', headers: { ...auth(), ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(`title: ${NUL}`);
    expect((await t.database.db.select({ n: count() }).from(citations))[0]!.n).toBe(before);
  });
});

describe('PostgreSQL refusing text of a request (a backstop behind the text check)', () => {
  it.each([
    ['NUL in text (22021)', () => t.database.db.insert(caseTypes).values({ name: 'a\u0000b' })],
    ['\\u0000 in jsonb (22P05)', () => t.database.db.execute(sql`select ${JSON.stringify({ a: 'a\u0000' })}::jsonb`)],
  ])('answers %s with 400, not 500', async (_, query) => {
    const refusal = await Promise.resolve(query()).then(() => null, (err: unknown) => err);
    expect(refusal).not.toBeNull();
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/', async () => {
      throw refusal;
    });
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The request holds text that cannot be stored (a NUL character or an invalid byte sequence)' });
    await app.close();
  });
});

describe('a deeply nested body', () => {
  it('is checked without overflowing the stack, and a NUL at the bottom is found', async () => {
    const depth = 100_000;
    const res = await rawJson('POST', '/api/case-types', `{"name":${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^name\/0\/0\/.*\/0: text may not contain the NUL character$/);
  });
});
