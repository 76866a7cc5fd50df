/**
 * GET organizations/{orgId}/events (issue 12): a page that has the hits open hears when hits or
 * searches of its organization change, without reloading; another organization's user hears
 * nothing of it and may not open its stream. Read over a real socket, as a browser would.
 */
import http from 'node:http';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationEvent } from '../../../../core/schemas/organization-events';
import type { HitView } from '../../../../core/schemas/hits';
import type { ProfileWithMarkers } from '../../../../core/schemas/profiles';
import type { SearchJob } from '../../../../core/schemas/searches';
import { chemistries, markers } from '../../../../server/db/schema';
import { createOrganizationEvents, type OrganizationEvents } from '../../../../server/events/organization-events';
import { organizationEventsRoutes } from '../../../../server/http/events/routes';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { multipartBody } from '../../../helpers/multipart';
import { CODIS_PROFILE, matchingWorld, type MatchingWorld } from '../../../component/hits/hit-fixtures';

/** An open event stream: its status and headers, every event heard so far, and waiting for one. */
interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  text(): string;
  events: OrganizationEvent[];
  /** Resolves with the first event heard (already, or from now on) that `matches`. */
  next(matches: (e: OrganizationEvent, index: number) => boolean, timeoutMs?: number): Promise<OrganizationEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The page goes away: the connection is closed. */
  close(): void;
}

/** Opens `url` as a browser's fetch would, on a connection of its own (node:http, so closing it closes the socket). */
function openStream(url: string, token?: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (response) => {
      let text = '';
      const events: OrganizationEvent[] = [];
      const waiters = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        events.length = 0;
        for (const block of text.split('\n\n')) {
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)) as OrganizationEvent);
        }
        for (const wake of [...waiters]) wake();
      });
      const ended = new Promise<void>((done) => response.on('end', done));
      ended.catch(() => undefined);
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        text: () => text,
        events,
        ended,
        next: (matches, timeoutMs = 10_000) =>
          new Promise((found, fail) => {
            const check = () => {
              const event = events.find((e, i) => matches(e, i));
              if (!event) return;
              waiters.delete(check);
              clearTimeout(timer);
              found(event);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event; heard ${JSON.stringify(events)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

describe('the organization event stream over the whole app', () => {
  let world: MatchingWorld;
  let base = '';
  let orgB = '';
  const tokens = {} as Record<'reviewerA' | 'approverA' | 'readerA' | 'profileReaderA' | 'deleterA' | 'casesOnlyA' | 'userB' | 'adminAll', string>;
  const streams: Stream[] = [];
  const open = async (orgId: string, who: keyof typeof tokens) => {
    const stream = await openStream(`${base}/api/organizations/${orgId}/events`, tokens[who]);
    streams.push(stream);
    return stream;
  };
  const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) =>
    world.t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}`, ...headers }, ...(payload ? { payload } : {}) });
  /** A pending hit of organization B (its profiles are A's: only the organization matters here). */
  const hitOfB = async () => {
    const hitA = (await call('reviewerA', 'GET', `/api/hits/${await world.identityHit(`B${streams.length}`)}`)).json() as HitView;
    const [hit] = await world.t.database.db.transaction((tx) =>
      recordHitCandidates(tx as never, {
        organizationId: orgB,
        // The same profiles in swapped roles: another hit (a hit is one per set of role–profile pairs).
        candidates: [{ analysisId: world.analysisIds.Identity!, populationId: world.populationId, combinedIndex: 1e12, markerCount: 13, nonExclusionMarkerCount: null, profiles: [{ role: 'Evidence', profileId: hitA.hit.profiles[1]!.profileId }, { role: 'Reference', profileId: hitA.hit.profiles[0]!.profileId }] }],
      }),
    );
    return hit!;
  };

  /** A forensic unknown entered by one reviewer and approved by another, so the server searches it. */
  const approveForensic = async (sampleName: string) => {
    const db = world.t.database.db;
    const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
    const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
    const added = await call('reviewerA', 'POST', '/api/profiles', { caseId: world.caseId, chemistryId: chemistry!.id, sampleType: 'Forensic, Unknown', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: sampleName, markerValues: [] }] });
    expect(added.statusCode, added.body).toBe(201);
    const { id, version } = (added.json() as { items: ProfileWithMarkers[] }).items[0]!;
    const markerValues = Object.entries(CODIS_PROFILE).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles }));
    const typed = await call('reviewerA', 'PUT', `/api/profiles/${id}/markers`, { version, markerValues });
    expect(typed.statusCode, typed.body).toBe(200);
    const approved = await call('approverA', 'POST', `/api/profiles/${id}/approve`, { version: (typed.json() as ProfileWithMarkers).version, markerValues, comments: '' });
    expect(approved.statusCode, approved.body).toBe(200);
  };
  /** The organization's searches once none is queued or running. */
  const searchesSettled = async (): Promise<SearchJob[]> => {
    let jobs: SearchJob[] = [];
    await expect
      .poll(async () => {
        jobs = ((await call('reviewerA', 'GET', `/api/organizations/${world.orgId}/searches`)).json() as { items: SearchJob[] }).items;
        return jobs.every((j) => j.status === 'done' || j.status === 'failed');
      }, { timeout: 30_000 })
      .toBe(true);
    return jobs;
  };

  beforeAll(async () => {
    world = await matchingWorld('CASE-EVENTS-1');
    const db = world.t.database.db;
    tokens.reviewerA = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read', 'Add', 'Edit', 'Reset'], Hits: ['Read', 'Publish', 'Reset'] });
    tokens.approverA = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read', 'Edit'], Hits: ['Read'] });
    tokens.readerA = await world.tokenFor({ Hits: ['Read'] });
    tokens.profileReaderA = await world.tokenFor({ Profiles: ['Read'] });
    tokens.deleterA = await world.tokenFor({ Profiles: ['Read', 'Delete'] });
    tokens.casesOnlyA = await world.tokenFor({ Cases: ['Read'] });
    orgB = (await createOrganization(db, 'Bergen Lab')).id;
    const reviewer = await createAccessGroup(db, { grants: { Hits: ['Read', 'Publish', 'Reset'] } });
    tokens.userB = world.t.verifier.issue((await createUser(db, { accessGroupId: reviewer.id, organizationIds: [orgB] })).id);
    tokens.adminAll = world.t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id);
    base = await world.t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    // Streams still open end as the server closes (preClose), so closing does not hang.
    await world.t.close();
  });

  it('opens a text/event-stream at once, uncached and unbuffered by proxies', async () => {
    const stream = await open(world.orgId, 'readerA');
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-cache, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    // The security headers still apply.
    expect(stream.headers['content-security-policy']).toContain("default-src 'self'");
    await expect.poll(() => stream.text()).toContain(': connected');
  });

  it('tells another user of the organization when a hit is published, and tells organization B nothing of it', async () => {
    const hitId = await world.identityHit('PUB');
    const reader = await open(world.orgId, 'readerA');
    const other = await open(orgB, 'userB');
    await expect.poll(() => reader.text() + other.text()).toMatch(/connected[\s\S]*connected/);
    const hit = (await call('reviewerA', 'GET', `/api/hits/${hitId}`)).json() as HitView;
    const published = await call('reviewerA', 'POST', `/api/hits/${hitId}/publish`, { version: hit.hit.version, comments: 'Confirmed', notify: false });
    expect(published.statusCode, published.body).toBe(200);
    expect(await reader.next((e) => e.type === 'hits')).toEqual({ type: 'hits', organizationId: world.orgId });

    // Organization B's stream is open and hears B's own change, but never heard A's.
    const hitB = await hitOfB();
    const rejected = await call('userB', 'POST', `/api/hits/${hitB.id}/reject`, { version: hitB.version, reason: 'Not the same person' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    await other.next((e) => e.type === 'hits');
    expect(other.events).toEqual([{ type: 'hits', organizationId: orgB }]);
    expect(other.text()).not.toContain(world.orgId);
  });

  it('tells the page when a reset withdraws the pending hits of a profile', async () => {
    const hitId = await world.identityHit('RESET');
    const profileId = ((await call('reviewerA', 'GET', `/api/hits/${hitId}`)).json() as HitView).hit.profiles[0]!.profileId;
    const profile = (await call('reviewerA', 'GET', `/api/profiles/${profileId}`)).json() as ProfileWithMarkers;
    const reader = await open(world.orgId, 'readerA');
    await expect.poll(() => reader.text()).toContain(': connected');
    const reset = await call('reviewerA', 'POST', `/api/profiles/${profileId}/reset`, { version: profile.version, comments: 'Typed again' });
    expect(reset.statusCode, reset.body).toBe(200);
    await reader.next((e) => e.type === 'hits');
  });

  it('tells the page as an approval’s database search moves on, and when it records hits', async () => {
    const reader = await open(world.orgId, 'readerA');
    await expect.poll(() => reader.text()).toContain(': connected');
    await approveForensic('LIVE-1');
    await reader.next((e) => e.type === 'searches');
    await searchesSettled();
    const heardBefore = reader.events.length;
    // LIVE-2's search finds LIVE-1: new pending hits, and the page hears of them.
    await approveForensic('LIVE-2');
    const jobs = await searchesSettled();
    expect(jobs.find((j) => j.sampleName === 'LIVE-2')!.hits).toBeGreaterThan(0);
    await reader.next((e, i) => i >= heardBefore && e.type === 'hits');
    await reader.next((e, i) => i >= heardBefore && e.type === 'searches');
  }, 60_000);

  it('streams every organization at `all` to a user with scope All', async () => {
    const all = await open('all', 'adminAll');
    await expect.poll(() => all.text()).toContain(': connected');
    const hitB = await hitOfB();
    await call('userB', 'POST', `/api/hits/${hitB.id}/reject`, { version: hitB.version, reason: 'Not the same person' });
    const hitId = await world.identityHit('ALL');
    const hit = (await call('reviewerA', 'GET', `/api/hits/${hitId}`)).json() as HitView;
    await call('reviewerA', 'POST', `/api/hits/${hitId}/reject`, { version: hit.hit.version, reason: 'Contamination' });
    await all.next((e) => e.organizationId === orgB);
    await all.next((e) => e.organizationId === world.orgId);
  });

  /** Runs `act` and waits until `stream` hears a change of the organization's profiles after it. */
  const heardProfiles = async (stream: Stream, act: () => Promise<unknown>) => {
    const before = stream.events.length;
    await act();
    return stream.next((e, i) => i >= before && e.type === 'profiles');
  };
  const globalFiler = async () => (await world.t.database.db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const addByHand = async (sampleName: string) => {
    const added = await call('reviewerA', 'POST', '/api/profiles', { caseId: world.caseId, chemistryId: await globalFiler(), sampleType: 'Forensic, Unknown', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: sampleName, markerValues: [] }] });
    expect(added.statusCode, added.body).toBe(201);
    return (added.json() as { items: ProfileWithMarkers[] }).items[0]!;
  };
  const current = async (id: string) => (await call('reviewerA', 'GET', `/api/profiles/${id}`)).json() as ProfileWithMarkers;

  it('tells a reader of profiles each time profiles are added, imported, approved, rejected, reset or deleted (issue 18)', async () => {
    const profilesOnly = await open(world.orgId, 'profileReaderA');
    expect(profilesOnly.status).toBe(200);
    await expect.poll(() => profilesOnly.text()).toContain(': connected');

    // Entered by hand.
    let profile!: ProfileWithMarkers;
    expect(await heardProfiles(profilesOnly, async () => (profile = await addByHand('PROFILE-EVENTS-1')))).toEqual({ type: 'profiles', organizationId: world.orgId });

    // Approved by a second person, then reset, then rejected, then deleted.
    const markerIds = new Map((await world.t.database.db.select().from(markers)).map((m) => [m.name, m.id]));
    const markerValues = Object.entries(CODIS_PROFILE).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles }));
    const typed = await call('reviewerA', 'PUT', `/api/profiles/${profile.id}/markers`, { version: profile.version, markerValues });
    expect(typed.statusCode, typed.body).toBe(200);
    await heardProfiles(profilesOnly, async () => {
      const approved = await call('approverA', 'POST', `/api/profiles/${profile.id}/approve`, { version: (typed.json() as ProfileWithMarkers).version, markerValues, comments: '' });
      expect(approved.statusCode, approved.body).toBe(200);
    });
    await heardProfiles(profilesOnly, async () => {
      const reset = await call('reviewerA', 'POST', `/api/profiles/${profile.id}/reset`, { version: (await current(profile.id)).version, comments: 'Typed again' });
      expect(reset.statusCode, reset.body).toBe(200);
    });
    await heardProfiles(profilesOnly, async () => {
      const rejected = await call('approverA', 'POST', `/api/profiles/${profile.id}/reject`, { version: (await current(profile.id)).version, reason: 'Degraded' });
      expect(rejected.statusCode, rejected.body).toBe(200);
    });
    await heardProfiles(profilesOnly, async () => {
      const deleted = await call('deleterA', 'DELETE', `/api/profiles/${profile.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
    });

    // Imported from a file (parsed, then added with the approval token).
    await heardProfiles(profilesOnly, async () => {
      const csv = ['SampleName,Marker,Allele1,Allele2', ...Object.entries(CODIS_PROFILE).map(([m, [a, b]]) => `PROFILE-EVENTS-2,${m},${a},${b ?? a}`)].join('\n');
      const form = await multipartBody({}, { name: 'events.csv', bytes: csv });
      const parsed = await world.t.app.inject({ method: 'POST', url: '/api/profiles/import', payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.reviewerA}` } });
      expect(parsed.statusCode, parsed.body).toBe(200);
      const drafts = (parsed.json() as { profiles: { profileId: string; markerValues: { markerId: string; alleles: string[] }[] }[] }).profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })) }));
      const body = { caseId: world.caseId, chemistryId: await globalFiler(), sampleType: 'Forensic, Unknown', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: drafts };
      const added = await call('reviewerA', 'POST', '/api/profiles', body, { approval: parsed.headers['approval-token'] as string });
      expect(added.statusCode, added.body).toBe(201);
    });

    // Several rejected at once.
    const [first, second] = [await addByHand('PROFILE-EVENTS-3'), await addByHand('PROFILE-EVENTS-4')];
    await heardProfiles(profilesOnly, async () => {
      const bulk = await call('approverA', 'POST', '/api/profiles/bulk-review', { action: 'reject', reason: 'Contaminated run', items: [first!, second!].map(({ id, version }) => ({ id, version })) });
      expect(bulk.statusCode, bulk.body).toBe(200);
      expect(bulk.json()).toMatchObject({ done: 2, refused: 0 });
    });
  });

  it('sends each user only the kinds of change they may read', async () => {
    const profilesOnly = await open(world.orgId, 'profileReaderA');
    const hitsOnly = await open(world.orgId, 'readerA');
    await expect.poll(() => profilesOnly.text() + hitsOnly.text()).toMatch(/connected[\s\S]*connected/);
    await heardProfiles(profilesOnly, () => addByHand('PROFILE-EVENTS-5'));
    const hitId = await world.identityHit('KINDS');
    const hit = (await call('reviewerA', 'GET', `/api/hits/${hitId}`)).json() as HitView;
    expect((await call('reviewerA', 'POST', `/api/hits/${hitId}/reject`, { version: hit.hit.version, reason: 'Contamination' })).statusCode).toBe(200);
    // The hit reader hears the hit, written after the profile's change on the same connection: it heard no profiles before it.
    await hitsOnly.next((e) => e.type === 'hits');
    expect(hitsOnly.events.map((e) => e.type)).not.toContain('profiles');
    await heardProfiles(profilesOnly, () => addByHand('PROFILE-EVENTS-6'));
    expect(profilesOnly.events.map((e) => e.type)).toEqual(['profiles', 'profiles']);
  });

  it('refuses another organization’s stream, `all` to organization scope, a user who reads neither hits nor profiles, and a caller without a token', async () => {
    expect((await openStream(`${base}/api/organizations/${world.orgId}/events`, tokens.casesOnlyA)).status).toBe(403);
    expect((await openStream(`${base}/api/organizations/${world.orgId}/events`, tokens.userB)).status).toBe(403);
    expect((await openStream(`${base}/api/organizations/all/events`, tokens.userB)).status).toBe(403);
    expect((await openStream(`${base}/api/organizations/${world.orgId}/events`)).status).toBe(401);
  });
});

describe('one event stream (the route alone)', () => {
  /** The route with a user who reaches organization `org-a`, over a hub that counts its subscribers. */
  async function routeAlone(opts: { heartbeatMs?: number; maxStreamMs?: number } = {}) {
    const hub = createOrganizationEvents();
    let subscribers = 0;
    const events: OrganizationEvents = {
      publish: hub.publish,
      subscribe: (ids, listener) => {
        subscribers++;
        const stop = hub.subscribe(ids, listener);
        return () => {
          subscribers--;
          stop();
        };
      },
    };
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorateRequest('user');
    app.addHook('onRequest', async (request) => {
      // Hits Read: hears hits and searches (issue 18: a user hears only the kinds they may read).
      request.user = { isAdmin: false, scope: 'Organization', organizationIds: ['00000000-0000-4000-8000-00000000000a'], permissions: { Hits: ['Read'] } } as never;
    });
    await app.register(organizationEventsRoutes, { events, ...opts });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return { app, hub, subscribers: () => subscribers, url: `${base}/organizations/00000000-0000-4000-8000-00000000000a/events` };
  }

  it('stops listening for a page that went away', async () => {
    const r = await routeAlone();
    const stream = await openStream(r.url);
    await expect.poll(() => stream.text()).toContain(': connected');
    expect(r.subscribers()).toBe(1);
    stream.close();
    await expect.poll(() => r.subscribers()).toBe(0);
    await r.app.close();
  });

  it('sends a comment line as a heartbeat while nothing happens', async () => {
    const r = await routeAlone({ heartbeatMs: 20 });
    const stream = await openStream(r.url);
    await expect.poll(() => stream.text()).toContain(': heartbeat\n\n');
    stream.close();
    await r.app.close();
  });

  it('writes each change as one data line of JSON', async () => {
    const r = await routeAlone();
    const stream = await openStream(r.url);
    await expect.poll(() => stream.text()).toContain(': connected');
    r.hub.publish('00000000-0000-4000-8000-00000000000a', 'searches');
    r.hub.publish('00000000-0000-4000-8000-00000000000b', 'hits');
    await stream.next((e) => e.type === 'searches');
    expect(stream.text()).toBe(': connected\n\ndata: {"type":"searches","organizationId":"00000000-0000-4000-8000-00000000000a"}\n\n');
    stream.close();
    await r.app.close();
  });

  it('ends a stream after its longest life, so the page connects again with fresh rights', async () => {
    const r = await routeAlone({ maxStreamMs: 50 });
    const stream = await openStream(r.url);
    await stream.ended;
    expect(stream.text()).toBe(': connected\n\n');
    expect(r.subscribers()).toBe(0);
    await r.app.close();
  });

  it('ends open streams when the server closes', async () => {
    const r = await routeAlone();
    const stream = await openStream(r.url);
    await expect.poll(() => stream.text()).toContain(': connected');
    await r.app.close();
    await stream.ended;
    expect(r.subscribers()).toBe(0);
  });
});
