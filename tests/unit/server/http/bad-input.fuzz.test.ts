/**
 * Issue 14, generated: thousands of bad requests spread over every write route (from the app's own
 * route list), sent as an administrator with scope All. None may answer 5xx, and one answered 4xx
 * must have written nothing: the row count of every table is the same after it as before.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { analyses, analysisGroups, caseTypes, cases, chemistries, citations, populationOrganizations, populations, profiles } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let token: string;
/** Path parameter values by name: a record that exists, so handlers get past their lookups. */
const existing = new Map<string, string>();
/** Ids for body fields, by field name, so a template body names records that exist. */
const idsByField = new Map<string, string>();
const NO_ID = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  const admins = await createAccessGroup(db, { isAdmin: true });
  const admin = await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [org.id] });
  token = t.verifier.issue(admin.id);
  const [caseType] = await db.insert(caseTypes).values({ name: 'Fuzz case type' }).returning();
  const [aCase] = await db.insert(cases).values({ caseNumber: 'FUZZ-1', caseTypeId: caseType!.id, organizationId: org.id }).returning();
  const [chemistry] = await db.insert(chemistries).values({ name: 'Fuzz kit', kind: 'Autosomal' }).returning();
  const [profile] = await db
    .insert(profiles)
    .values({ profileId: 'FUZZ-P1', caseId: aCase!.id, organizationId: org.id, kind: 'Autosomal', chemistryId: chemistry!.id, sampleType: 'Reference' })
    .returning();
  const [population] = await db.insert(populations).values({ name: 'Fuzz population' }).returning();
  await db.insert(populationOrganizations).values({ populationId: population!.id, organizationId: org.id });
  const [citation] = await db.insert(citations).values({ title: 'Fuzz citation' }).returning();
  const [group] = await db.insert(analysisGroups).values({ name: 'Fuzz group' }).returning();
  const [analysis] = await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Fuzz analysis', kind: 'Computational' }).returning();
  // ":id" means a different record on each route; these are the ones whose lookups come before the body is read.
  for (const [name, value] of Object.entries({ caseId: aCase!.id, orgId: org.id, analysisId: analysis!.id, groupId: group!.id, formulaId: analysis!.id, constantId: analysis!.id }))
    existing.set(name, value);
  for (const [field, value] of Object.entries({ caseTypeId: caseType!.id, organizationId: org.id, chemistryId: chemistry!.id, populationId: population!.id, analysisGroupId: group!.id, profileIds: profile!.id, profileId: profile!.id, assignedUserIds: admin.id, userId: admin.id }))
    idsByField.set(field, value);
  for (const [segment, value] of Object.entries({ cases: aCase!.id, profiles: profile!.id, populations: population!.id, citations: citation!.id, analyses: analysis!.id, 'analysis-groups': group!.id, 'case-types': caseType!.id, users: admin.id, organizations: org.id }))
    existing.set(`${segment}/id`, value);
}, 60_000);
afterAll(() => t.close());

/** The row count of every table, in one statement. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await t.database.db.execute<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`);
  const names = (tables as unknown as { rows: { table_name: string }[] }).rows.map((r) => r.table_name);
  const union = sql.join(names.map((n) => sql`select ${n} as name, count(*)::int as n from ${sql.identifier(n)}`), sql` union all `);
  const counted = await t.database.db.execute<{ name: string; n: number }>(union);
  return Object.fromEntries((counted as unknown as { rows: { name: string; n: number }[] }).rows.map((r) => [r.name, r.n]));
}

/** Counts once background work a successful request started (an import's parse, a search) has stopped changing them. */
async function settledCounts(): Promise<Record<string, number>> {
  let last = JSON.stringify(await rowCounts());
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = JSON.stringify(await rowCounts());
    if (now === last) return JSON.parse(now) as Record<string, number>;
    last = now;
  }
}

// ---- What the generated requests are made of ------------------------------------------------

/** Field names the routes' bodies use, so bad values land on fields a schema reads. */
const FIELDS = ['name', 'title', 'caseNumber', 'description', 'version', 'email', 'firstName', 'lastName', 'kind', 'status', 'comments', 'reason', 'label', 'hook', 'subject', 'body', 'itemId', 'caseId', 'organizationId', 'markerIds', 'markerValues', 'profileIds', 'pattern', 'value', 'password', 'isAdmin', 'scope', 'items'];

/** Text PostgreSQL cannot store as sent, somewhere in an ordinary string. */
const badText = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udfff', '\udc00\ud800', 'a\u0000\u0000'), fc.string({ maxLength: 8 }))
  .map(([a, bad, b]) => a + bad + b);
const hugeNumber = fc.constantFrom('1e400', '-1e400', '1e308', '9007199254740993', '99999999999999999999999999', '-2147483649', '2147483648', '-0', '1e-400', '0.1e-7');
const anyJson = fc.jsonValue({ maxDepth: 3 });

/** A JSON text, not a value: huge numbers and nesting are written as a client could send them. */
const jsonBodies = fc.oneof(
  // A bad string in a field the route reads (or in a key).
  fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(badText, fc.array(badText, { maxLength: 2 }), fc.record({ name: badText })), { minKeys: 1, maxKeys: 4 }).map((o) => JSON.stringify(o)),
  fc.tuple(badText, anyJson).map(([key, value]) => JSON.stringify({ [key]: value })),
  // Wrong types everywhere.
  fc.dictionary(fc.constantFrom(...FIELDS), anyJson, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  anyJson.map((v) => JSON.stringify(v)),
  // Numbers JavaScript or PostgreSQL cannot hold.
  fc.tuple(fc.subarray(FIELDS, { minLength: 1, maxLength: 4 }), hugeNumber).map(([keys, n]) => `{${keys.map((k) => `"${k}":${n}`).join(',')}}`),
  fc.tuple(fc.constantFrom(...FIELDS), hugeNumber).map(([k, n]) => `{"${k}":[${n}],"version":${n}}`),
  // Deep nesting, up to what the 1 MB body limit lets through.
  fc.tuple(fc.constantFrom(...FIELDS), fc.integer({ min: 100, max: 100_000 }), fc.constantFrom('[', '{"a":')).map(([k, depth, open]) => `{"${k}":${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}}`),
  // Not JSON at all, or cut short.
  fc.constantFrom('', '{', '{"name":', '{"name":"a', 'null', '[]', '"\\u0000"', '{"name":"\\ud800"}', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'),
);

const BOUNDARY = 'FuzzBoundary';
const filePart = (name: string, fileName: string, content: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${content}\r\n`;
const fieldPart = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const END = `--${BOUNDARY}--\r\n`;
/** File contents: printable text, or any 7-bit characters, NUL included (file contents are not text fields: parsers must cope). */
const content = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary-ascii', maxLength: 40 }));

/** A multipart body with its content type: malformed, or well formed around bad text. */
const multipartBodies = fc.oneof(
  content.map((content) => ({ type: 'multipart/form-data', body: filePart('file', 'a.csv', content) + END })),
  content.map((content) => ({ type: 'multipart/form-data; boundary=Other', body: filePart('file', 'a.csv', content) + END })),
  content.map((content) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: filePart('file', 'a.csv', content) })),
  fc.tuple(badText, content).map(([name, content]) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: filePart('file', name, content) + END })),
  fc.tuple(fc.constantFrom('title', 'version', 'caseId', 'population'), badText).map(([name, value]) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: fieldPart(name, value) + filePart('file', 'a.csv', 'x') + END })),
  fc.tuple(fc.constantFrom('title', 'version', 'caseId'), fc.oneof(hugeNumber, fc.string({ maxLength: 10 }))).map(([name, value]) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: fieldPart(name, value) + END })),
  // Three files where one (or two) may come.
  fc.constant({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: filePart('file', 'a.csv', 'x') + filePart('sampleSizes', 'b.csv', 'y') + filePart('other', 'c.csv', 'z') + END }),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: Buffer.from(bytes).toString('latin1') })),
  fc.string({ maxLength: 20 }).map((junk) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, body: `--${BOUNDARY}\r\n${junk}\r\n\r\nx\r\n${END}` })),
);

/** The part of a JSON Schema (from the OpenAPI document) a template body needs. */
interface Schema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  minLength?: number;
  minimum?: number;
  minItems?: number;
}

/**
 * A plausible body for a route, built from its request schema with every property filled in, so a
 * mutation below lands on a body that otherwise passes validation and reaches the handler.
 */
function template(schema: Schema | undefined, field = '', depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return template(choice.find((c) => c.type !== 'null') ?? choice[0], field, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, s]) => [key, template(s, key, depth + 1)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => template(schema.items, field, depth + 1));
    case 'string':
      if (schema.format === 'uuid') return idsByField.get(field) ?? NO_ID;
      if (schema.format === 'date-time') return '2026-01-02T03:04:05.000Z';
      if (schema.format === 'date') return '2026-01-02';
      if (schema.format === 'email') return 'fuzz@lab.test';
      return 'Fuzz'.padEnd(schema.minLength ?? 1, 'z');
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Every place in a value (its root included), as key paths. */
function placesIn(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const children = Array.isArray(value) ? value.map((v, i) => placesIn(v, [...path, i])) : value && typeof value === 'object' ? Object.entries(value).map(([k, v]) => placesIn(v, [...path, k])) : [];
  return [path, ...children.flat()];
}

/** Replaces the value at `path` (a copy: the template is shared by every run of its route). */
function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = replaceAt(copy[head!], rest, replacement);
  return copy;
}

/** Stand-ins JSON.stringify cannot write (1e400, a 50,000-deep array), put in as text after it. */
const RAW = '\u0001raw:';
const raw = (text: string) => `${RAW}${text}`;
const writeJson = (value: unknown) => JSON.stringify(value).replace(/"\\u0001raw:((?:[^"\\]|\\.)*)"/g, (_, text: string) => JSON.parse(`"${text}"`) as string);

/** One bad value: text PostgreSQL cannot store, a number nothing can hold, the wrong type, or deep nesting. */
const badValue = fc.oneof(
  { weight: 4, arbitrary: badText },
  { weight: 2, arbitrary: hugeNumber.map(raw) },
  { weight: 2, arbitrary: anyJson },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 50_000 }).map((depth) => raw(`${'['.repeat(depth)}${']'.repeat(depth)}`)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }).map((s) => ({ [s]: s, __proto__: null })) },
);

/** A route's template body with one or two of its places given a bad value. */
const mutatedTemplate = (base: unknown) =>
  fc.array(fc.tuple(fc.nat(), badValue), { minLength: 1, maxLength: 2 }).map((changes) => {
    let body = base;
    for (const [at, bad] of changes) {
      const places = placesIn(body);
      body = replaceAt(body, places[at % places.length]!, bad);
    }
    return writeJson(body);
  });

/** A path parameter: the existing record, one that does not exist, or text that is no id at all. */
const paramValue = fc.constantFrom<'existing' | string>('existing', 'existing', NO_ID, 'not-an-id', '%00', '%ED%A0%80', 'x'.repeat(300), '1e400');

// Mostly none: a bad query string is refused before the body is looked at.
const queryString = fc.oneof(
  { weight: 5, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('?version=1e400', '?search=%00', '?x=%ED%A0%80', '?limit=-1&offset=1e400', '?sort=%00:asc', '?a[b][c]=1') },
);

/** Bodies in media types the API does not read as sent (or not at all). */
const otherMediaTypes = fc.constantFrom(
  { type: 'text/plain', body: 'name=a' },
  { type: 'application/x-www-form-urlencoded', body: 'name=%00' },
  { type: 'application/json; charset=utf-16', body: '{"name":"a"}' },
  { type: 'application/merge-patch+json', body: '{"name":"\\u0000"}' },
  { type: 'multipart/mixed; boundary=x', body: '--x--' },
);

const requestOf = (routes: { method: string; url: string; template: unknown }[]) =>
  fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      params: fc.array(paramValue, { minLength: 3, maxLength: 3 }),
      query: queryString,
      body: fc.oneof(
        { weight: 4, arbitrary: mutatedTemplate(route.template).map((json) => ({ type: 'application/json', body: json })) },
        { weight: 2, arbitrary: jsonBodies.map((json) => ({ type: 'application/json', body: json })) },
        { weight: 2, arbitrary: multipartBodies },
        { weight: 1, arbitrary: otherMediaTypes },
      ),
    }),
  );

/** The route's URL with its parameters filled in from `values`, 'existing' naming the fixture record. */
function urlOf(url: string, values: string[]): string {
  let i = 0;
  const segment = url.split('/')[2] ?? '';
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = values[i++ % values.length]!;
    if (value !== 'existing') return value;
    return existing.get(name === 'id' ? `${segment}/id` : name) ?? existing.get(`${segment}/id`) ?? NO_ID;
  });
}

it('answers thousands of bad requests to every write route without a 5xx, and a refused one writes nothing', async () => {
  const paths = (t.app.swagger() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>> }).paths;
  const writeRoutes = t.app.accessCatalogue
    .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
    .map((r) => ({ ...r, template: template(paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()]?.requestBody?.content['application/json']?.schema) ?? {} }));
  expect(writeRoutes.length).toBeGreaterThan(50);
  const reached = new Set<string>();
  let before = await settledCounts();
  await fc.assert(
    fc.asyncProperty(requestOf(writeRoutes), async ({ route, params, query, body }) => {
      const url = urlOf(route.url, params) + query;
      reached.add(`${route.method} ${route.url}`);
      const res = await t.app.inject({ method: route.method as 'POST', url, headers: { authorization: `Bearer ${token}`, 'content-type': body.type }, payload: body.body });
      const where = `${route.method} ${url} (${body.type}) ${JSON.stringify(body.body).slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
      expect(res.statusCode, where).toBeLessThan(500);
      if (res.statusCode < 400) {
        before = await settledCounts();
        return;
      }
      expect(await rowCounts(), where).toEqual(before);
    }),
    { numRuns: 2_500, seed: 14_2026, endOnFailure: true },
  );
  expect([...reached].sort()).toEqual(writeRoutes.map((r) => `${r.method} ${r.url}`).sort());
}, 180_000);
