import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ForeignQueryAnswer, ReleaseRequest } from '../../../../core/schemas/foreign-queries';
import { auditLog, caseTypes, chemistries, markers, profiles, serviceClients } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { newClientCredentials } from '../../../../server/identity/service-clients';
import { buildApp } from '../../../../server/app';
import { upperToken } from '../../../../server/network/upper-instance';
import { createTestApp, testConfig, type TestApp } from '../../../helpers/app';
import { freshPglite } from '../../../helpers/database';
import { freePort } from '../../../helpers/free-port';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

/** Issue 32, Prüm II: a foreign instance's query answered hit / no hit; data leave only when a person releases them. */
const OFFENDER: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'],
};
const STRANGER = { ...OFFENDER, D3S1358: ['17', '18'], vWA: ['14'], FGA: ['19', '20'] };

let t: TestApp;
let orgA: string;
let orgB: string;
let chemistryId: string;
let offenderId: string;
const markerIds = new Map<string, string>();
const tokens = {} as Record<'admin' | 'reviewerA' | 'reviewerB' | 'readerA' | 'foreign' | 'otherForeign', string>;

const call = (who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
/** A query as a foreign instance sends it: marker names (any spelling the markers' aliases know), the kit by name. */
const query = (reference: string, genotypes: Record<string, string[]>, extra: object = {}) => ({
  reference,
  requestingCountry: 'DE',
  requestingInstance: 'BKA Wiesbaden',
  kit: 'globalfiler',
  markerValues: Object.entries(genotypes).map(([marker, alleles]) => ({ marker, alleles })),
  ...extra,
});
const send = async (reference: string, genotypes: Record<string, string[]>) => {
  const res = await call('foreign', 'POST', '/api/network/foreign-queries', query(reference, genotypes));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ForeignQueryAnswer;
};
const poll = async (id: string, who: 'foreign' | 'otherForeign' = 'foreign') => call(who, 'GET', `/api/network/foreign-queries/${id}`);
const pending = async (who: 'reviewerA' | 'admin', organizationId: string) =>
  ((await call(who, 'GET', `/api/network/release-requests?organizationId=${organizationId}`)).json() as { items: ReleaseRequest[] }).items;

/** A profile approved through the route, so the server's matcher indexes it. */
async function approvedProfile(caseId: string, organizationId: string, sampleName: string, genotypes: Record<string, string[]>) {
  const db = t.database.db;
  const [row] = await db.insert(profiles).values({ profileId: sampleName, caseId, organizationId, kind: 'Autosomal', chemistryId, sampleType: 'Convicted Offender', status: 'pending' }).returning();
  const values = Object.entries(genotypes).map(([m, alleles], position) => ({ markerId: markerIds.get(m)!, alleles, position }));
  await writeMarkerValues(db, row!.id, values);
  const approved = await call('admin', 'POST', `/api/profiles/${row!.id}/approve`, { markerValues: values.map(({ markerId, alleles }) => ({ markerId, alleles })), comments: '', version: row!.version });
  expect(approved.statusCode, approved.body).toBe(200);
  return row!.id;
}

async function serviceToken(name: string) {
  const made = newClientCredentials();
  await t.database.db.insert(serviceClients).values({ name, clientId: made.clientId, secretHash: made.secretHash });
  return t.verifier.issue(made.clientId, { clientId: made.clientId });
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read', 'Publish'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.reviewerA = t.verifier.issue((await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgA] })).id);
  tokens.reviewerB = t.verifier.issue((await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgB] })).id);
  tokens.readerA = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [orgA] })).id);
  tokens.foreign = await serviceToken('Bundeskriminalamt');
  tokens.otherForeign = await serviceToken('Politie NL');
  for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const created = await call('admin', 'POST', '/api/cases', { caseNumber: 'OFF-1', caseTypeId: caseType!.id, organizationId: orgA, assignedUserIds: [] });
  offenderId = await approvedProfile(created.json().id as string, orgA, 'NDNAD-0042', OFFENDER);
}, 60_000);
afterAll(() => t.close());

describe('foreign queries (Prüm II)', () => {
  it('answers no hit, and keeps no release request', async () => {
    const answer = await send('DE-NOHIT-1', STRANGER);
    expect(answer).toMatchObject({ reference: 'DE-NOHIT-1', hit: false, stringency: null, candidateCount: 0, status: 'no-hit', matches: [] });
    expect(await pending('admin', 'all')).toEqual([]);
    const [trail] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'ForeignQuery'), eq(auditLog.entityId, answer.id)));
    expect(trail!.action).toBe('Answered no hit');
    expect(JSON.stringify(trail!.after)).not.toContain('9.3');
  });

  it('answers a hit with its stringency and count only: no id, name or genotype before a release', async () => {
    const answer = await send('DE-HIT-1', OFFENDER);
    expect(answer).toEqual({ id: answer.id, reference: 'DE-HIT-1', hit: true, stringency: 'high', candidateCount: 1, status: 'pending', matches: [{ status: 'pending', reason: null, profile: null }] });
    const polled = await poll(answer.id);
    expect(polled.statusCode).toBe(200);
    for (const secret of [offenderId, 'NDNAD-0042', 'Oslo Lab', 'OFF-1']) expect(polled.body).not.toContain(secret);
    // Another foreign instance is not told the query exists.
    expect((await poll(answer.id, 'otherForeign')).statusCode).toBe(404);
    // The holding laboratory sees it waiting, with its own profile named.
    const [request] = await pending('reviewerA', orgA);
    expect(request).toMatchObject({ reference: 'DE-HIT-1', requestingCountry: 'DE', requestingInstance: 'BKA Wiesbaden', stringency: 'high', sampleName: 'NDNAD-0042', caseNumber: 'OFF-1', status: 'pending' });
  });

  it('reports a moderate-stringency hit when only one allele set lies inside the other', async () => {
    const answer = await send('DE-MOD-1', { ...OFFENDER, CSF1PO: ['10'] });
    expect(answer).toMatchObject({ hit: true, stringency: 'moderate', candidateCount: 1 });
  });

  it('lets the holding laboratory release: the sender then fetches the specimen id, laboratory and genotypes', async () => {
    const answer = await send('DE-REL-1', OFFENDER);
    const request = (await pending('reviewerA', orgA)).find((r) => r.reference === 'DE-REL-1')!;
    const released = await call('reviewerA', 'POST', `/api/network/release-requests/${request.id}/release`, { version: request.version });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json()).toMatchObject({ status: 'released' });
    const polled = (await poll(answer.id)).json() as ForeignQueryAnswer;
    expect(polled.status).toBe('released');
    const profile = polled.matches[0]!.profile!;
    expect(profile).toMatchObject({ specimenId: 'NDNAD-0042', laboratory: 'Oslo Lab', kit: 'GlobalFiler' });
    expect(profile.markerValues).toContainEqual({ marker: 'TH01', alleles: ['6', '9.3'] });
    // Deciding twice is refused; the trail holds the request, the release and the fetch.
    expect((await call('reviewerA', 'POST', `/api/network/release-requests/${request.id}/refuse`, { reason: 'no', version: request.version + 1 })).statusCode).toBe(409);
    const trail = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, request.id));
    expect(trail.map((r) => r.action)).toEqual(['Requested', 'Released']);
    expect(trail.every((r) => r.organizationId === orgA)).toBe(true);
    const fetched = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entityId, answer.id), eq(auditLog.action, 'Released data fetched')));
    expect(fetched).toHaveLength(1);
  });

  it('lets the holding laboratory refuse with a reason, which the sender is told, and nothing else', async () => {
    const answer = await send('DE-REF-1', OFFENDER);
    const request = (await pending('reviewerA', orgA)).find((r) => r.reference === 'DE-REF-1')!;
    const noReason = await call('reviewerA', 'POST', `/api/network/release-requests/${request.id}/refuse`, { reason: '  ', version: request.version });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toContain('Say why the data are not released');
    const refused = await call('reviewerA', 'POST', `/api/network/release-requests/${request.id}/refuse`, { reason: 'Court order pending', version: request.version });
    expect(refused.statusCode, refused.body).toBe(200);
    const polled = await poll(answer.id);
    expect(polled.json()).toMatchObject({ status: 'refused', matches: [{ status: 'refused', reason: 'Court order pending', profile: null }] });
    expect(polled.body).not.toContain('NDNAD-0042');
    expect((await pending('reviewerA', orgA)).map((r) => r.reference)).not.toContain('DE-REF-1');
  });

  it('lets no person post a query, nor a user of another organization (or without Hits Publish) decide', async () => {
    expect((await call('admin', 'POST', '/api/network/foreign-queries', query('DE-ADMIN', OFFENDER))).statusCode).toBe(403);
    expect((await call('reviewerA', 'POST', '/api/network/foreign-queries', query('DE-USER', OFFENDER))).statusCode).toBe(403);
    // A service client cannot decide, nor read the laboratory's list.
    await send('DE-SCOPE-1', OFFENDER);
    const request = (await pending('reviewerA', orgA)).find((r) => r.reference === 'DE-SCOPE-1')!;
    expect((await call('foreign', 'POST', `/api/network/release-requests/${request.id}/release`, { version: request.version })).statusCode).toBe(403);
    const otherLab = await call('reviewerB', 'POST', `/api/network/release-requests/${request.id}/release`, { version: request.version });
    expect(otherLab.statusCode).toBe(404);
    expect((await call('reviewerB', 'GET', `/api/network/release-requests?organizationId=${orgA}`)).statusCode).toBe(403);
    expect(((await call('reviewerB', 'GET', '/api/network/release-requests?organizationId=all')).json() as { items: unknown[] }).items).toEqual([]);
    expect((await call('readerA', 'POST', `/api/network/release-requests/${request.id}/release`, { version: request.version })).statusCode).toBe(403);
    expect((await pending('reviewerA', orgA)).find((r) => r.id === request.id)!.status).toBe('pending');
    // A profile reset since the query is no match to release.
    await t.database.db.update(profiles).set({ status: 'pending' }).where(eq(profiles.id, offenderId));
    const reset = await call('reviewerA', 'POST', `/api/network/release-requests/${request.id}/release`, { version: request.version });
    await t.database.db.update(profiles).set({ status: 'approved' }).where(eq(profiles.id, offenderId));
    expect(reset.statusCode).toBe(409);
    expect(reset.json().error).toBe('The profile is no longer approved (it was reset since the query): refuse the request instead');
  });

  it('refuses bad marker values, an unknown marker or kit, and a repeated reference with a clear 400 / 409', async () => {
    const bad = await call('foreign', 'POST', '/api/network/foreign-queries', query('DE-BAD-1', { ...OFFENDER, TH01: ['six'] }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: '/markerValues/10/alleles' })]);
    expect(bad.json().error).toMatch(/six/);
    const unknown = await call('foreign', 'POST', '/api/network/foreign-queries', query('DE-BAD-2', { ...OFFENDER, D99S999: ['1'] }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'Marker D99S999 is unknown here', details: [{ path: '/markerValues/13/marker' }] });
    const kit = await call('foreign', 'POST', '/api/network/foreign-queries', query('DE-BAD-3', OFFENDER, { kit: 'NoSuchKit' }));
    expect(kit.statusCode).toBe(400);
    expect(kit.json().error).toBe('This instance has no kit named "NoSuchKit"');
    const empty = await call('foreign', 'POST', '/api/network/foreign-queries', query('DE-BAD-4', {}));
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Send at least one marker');
    const again = await call('foreign', 'POST', '/api/network/foreign-queries', query('DE-HIT-1', OFFENDER));
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('"DE-HIT-1" was already sent');
  });
});

describe('a foreign instance over HTTP, with the embedded provider’s client-credentials token', () => {
  it('signs in as its service client, is answered, and is refused once the client is revoked', async () => {
    // The answering instance listens on its own port with its own database, as another country's instance reaches it.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const database = await freshPglite();
    const answering = await buildApp({ database, config: testConfig({ PUBLIC_URL: url }) });
    try {
      await answering.listen({ port, host: '127.0.0.1' });
      await database.db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
      const made = newClientCredentials();
      await database.db.insert(serviceClients).values({ name: 'Bundeskriminalamt', clientId: made.clientId, secretHash: made.secretHash });
      const token = await upperToken({ url, clientId: made.clientId, clientSecret: made.secret });
      const post = (reference: string) =>
        fetch(`${url}/api/network/foreign-queries`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(query(reference, OFFENDER)) });
      const answered = await post('DE-HTTP-1');
      expect(answered.status).toBe(201);
      expect(await answered.json()).toMatchObject({ reference: 'DE-HTTP-1', hit: false, status: 'no-hit' });
      await database.db.update(serviceClients).set({ revokedAt: new Date() }).where(eq(serviceClients.clientId, made.clientId));
      expect((await post('DE-HTTP-2')).status).toBe(401);
    } finally {
      await answering.close();
      await database.close();
    }
  }, 90_000);
});
