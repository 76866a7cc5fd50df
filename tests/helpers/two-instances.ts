/**
 * Two instances of a network of laboratories in one process (issue 32): a local instance A (its own PGlite, the fake
 * token verifier) and a state instance S (its own PGlite, the real embedded provider, listening on a port), A's
 * laboratories registered at S as a lower instance's and A configured with S as its upper instance. The upload
 * pipeline's and the candidate matches' tests start from it.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { CODIS_CORE_LOCI } from '../../core/network/codis-core-loci';
import type { SampleType } from '../../core/schemas/profiles';
import { buildApp } from '../../server/app';
import type { Database, Db } from '../../server/db/database';
import { cases, chemistries, instanceSettings, lowerInstanceOrganizations, lowerInstances, markers, organizations, profiles, serviceClients } from '../../server/db/schema';
import { seedReferenceData } from '../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../server/http/profiles/marker-values';
import { newClientCredentials } from '../../server/identity/service-clients';
import { sealSecret } from '../../server/network/secret-box';
import { createTestApp, testConfig, type TestApp } from './app';
import { freshPglite } from './database';
import { createAccessGroup, createOrganization, createUser } from './factories';
import { freePort } from './free-port';

export interface TwoInstances {
  /** S, the state instance; replaced by startUpper after closeUpper. */
  readonly upper: FastifyInstance;
  upperUrl: string;
  upperDatabase: Database;
  sDb: Db;
  /** The lower instance A as S registered it, and A's laboratories' organizations at S by name. */
  instanceId: string;
  heldLaboratories: Map<string, string>;
  a: TestApp;
  aDb: Db;
  /** A's laboratories' organizations by name (the registered ones and the others). */
  laboratories: Map<string, string>;
  /** A's service client at S. */
  credentials: { url: string; clientId: string; clientSecret: string };
  /** A's clock: real time plus what `advance` moved it on by (the sender's backoff reads it). */
  clock: { now(): Date };
  advance(ms: number): void;
  /** An administrator of A (scope All). */
  adminToken: string;
  globalFiler: string;
  markerIds: Map<string, string>;
  /** Stops S (it is down until startUpper). */
  closeUpper(): Promise<void>;
  startUpper(): Promise<void>;
  close(): Promise<void>;
}

export interface TwoInstancesOptions {
  /** A's laboratories registered at S (held there under these names). */
  registered: string[];
  /** A's laboratories S does not know. */
  unregistered?: string[];
  /** false: the test steps A's sender itself (Deliver now) rather than a change waking it. */
  wakeUploadSender?: boolean;
}

export async function startTwoInstances(opts: TwoInstancesOptions): Promise<TwoInstances> {
  // S: the state instance, with the reference data, a service client for A and A registered with its laboratories.
  const port = await freePort();
  const upperUrl = `http://127.0.0.1:${port}`;
  const upperDatabase = await freshPglite();
  const sDb = upperDatabase.db;
  await sDb.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  await sDb.insert(instanceSettings).values({ id: 'instance', name: 'State DNA index', level: 'State' });
  const made = newClientCredentials();
  const [client] = await sDb.insert(serviceClients).values({ name: 'Local instance A', clientId: made.clientId, secretHash: made.secretHash }).returning();
  const [instance] = await sDb.insert(lowerInstances).values({ name: 'Instance A', serviceClientId: client!.id }).returning();
  const held = await sDb.insert(organizations).values(opts.registered.map((name) => ({ name }))).returning();
  await sDb.insert(lowerInstanceOrganizations).values(held.map((o) => ({ lowerInstanceId: instance!.id, organizationId: o.id })));
  let upper: FastifyInstance | undefined;
  const startUpper = async () => {
    upper = await buildApp({ database: upperDatabase, config: testConfig({ PUBLIC_URL: upperUrl }) });
    await upper.listen({ port, host: '127.0.0.1' });
    // S loaded its index and queued again what a stop cut off: a test's queue.idle() then waits for those searches too
    // (without this, one run under load saw idle() return before resume() had queued a batch's searches).
    await upper.searchRuntime.ready;
  };
  await startUpper();

  // A: the local instance, its laboratories, configured with S as its upper instance.
  let skew = 0;
  const clock = { now: () => new Date(Date.now() + skew) };
  const a = await createTestApp({ clock, ...(opts.wakeUploadSender === false ? { wakeUploadSender: false } : {}) });
  const aDb = a.database.db;
  await aDb.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const laboratories = new Map<string, string>();
  for (const name of [...opts.registered, ...(opts.unregistered ?? [])]) laboratories.set(name, (await createOrganization(aDb, name)).id);
  // The sender's first round (at start) may have made the settings row already.
  const settings = { name: 'Instance A', level: 'Local', upperUrl, upperClientId: made.clientId, upperClientSecret: await sealSecret(aDb, made.secret) };
  await aDb.insert(instanceSettings).values({ id: 'instance', ...settings }).onConflictDoUpdate({ target: instanceSettings.id, set: settings });
  const admins = await createAccessGroup(aDb, { isAdmin: true });
  const adminToken = a.verifier.issue((await createUser(aDb, { scope: 'All', accessGroupId: admins.id })).id);
  const globalFiler = (await aDb.select().from(chemistries)).find((c) => c.name === 'GlobalFiler')!.id;
  const markerIds = new Map((await aDb.select({ id: markers.id, name: markers.name }).from(markers)).map((m) => [m.name, m.id]));
  return {
    get upper() {
      return upper!;
    },
    upperUrl,
    upperDatabase,
    sDb,
    instanceId: instance!.id,
    heldLaboratories: new Map(held.map((o) => [o.name, o.id])),
    a,
    aDb,
    laboratories,
    credentials: { url: upperUrl, clientId: made.clientId, clientSecret: made.secret },
    clock,
    advance: (ms) => void (skew += ms),
    adminToken,
    globalFiler,
    markerIds,
    closeUpper: () => upper!.close(),
    startUpper,
    close: async () => {
      await a.close();
      await upper!.close();
      await upperDatabase.close();
    },
  };
}

/** A pending profile at A typed at the 20 core loci, `alleles(position)` each locus's pair. */
export async function pendingCoreProfile(net: TwoInstances, input: { name: string; sampleType: SampleType; caseId: string; chemistryId?: string; alleles: (position: number) => string[] }): Promise<string> {
  const [c] = await net.aDb.select().from(cases).where(eq(cases.id, input.caseId));
  const [row] = await net.aDb.insert(profiles).values({ profileId: input.name, caseId: input.caseId, organizationId: c!.organizationId, kind: 'Autosomal', chemistryId: input.chemistryId ?? net.globalFiler, sampleType: input.sampleType }).returning();
  await writeMarkerValues(net.aDb, row!.id, CODIS_CORE_LOCI.map((m, position) => ({ markerId: net.markerIds.get(m)!, alleles: input.alleles(position), position })));
  return row!.id;
}

/** Approves a pending profile at A as `token` (a reviewer confirming the stored values). */
export async function approveAtA(net: TwoInstances, token: string, id: string): Promise<void> {
  const [row] = await net.aDb.select().from(profiles).where(eq(profiles.id, id));
  const headers = { authorization: `Bearer ${token}` };
  const stored = (await net.a.app.inject({ method: 'GET', url: `/api/profiles/${id}`, headers })).json() as { markerValues: { markerId: string; alleles: string[] }[] };
  expect(stored.markerValues).toHaveLength(CODIS_CORE_LOCI.length);
  const res = await net.a.app.inject({ method: 'POST', url: `/api/profiles/${id}/approve`, headers, payload: { markerValues: stored.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })), comments: '', version: row!.version } });
  expect(res.statusCode, res.body).toBe(200);
}

/** Deliver now at A (its administrator): the outbox's entries and backlog after the round. */
export async function deliverFromA(net: TwoInstances) {
  const res = await net.a.app.inject({ method: 'POST', url: '/api/network/outbox/deliver', headers: { authorization: `Bearer ${net.adminToken}` } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: { profileId: string; state: string; lastError: string | null }[]; backlog: { waiting: number; retrying: number; failed: number; oldestWaitingSeconds: number | null } };
}
