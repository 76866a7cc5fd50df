/**
 * Issue 32 "Done means", with real processes: three instances of `node server/server.ts` (local A, local B, state S),
 * each on a PostgreSQL database of its own and its own port (bench/network-instance.ts), set up through the HTTP API
 * as their administrators would (bench/network-setup.ts). A stain approved at A and an offender approved at B reach
 * S; B's offender, expunged at B, leaves S with both trails saying so; S killed (SIGKILL) during an upload and
 * restarted loses nothing and applies nothing twice; a forged batch and a replayed one are refused. Each step waits on
 * what the instances answer (Deliver now, then their lists), never on a fixed sleep.
 *
 * The steps run in order over the same three instances: each `it` is one thing an administrator or a reviewer would
 * notice: the two profiles reach S, meet there, and the candidate match goes down to A and B, where A confirms it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBatch } from '../../../../server/network/batch-signature';
import { upperToken } from '../../../../server/network/upper-instance';
import { startNetworkInstance, type NetworkInstance } from '../../../../bench/network-instance';
import { joinUpper, nameInstance, type Joined } from '../../../../bench/network-setup';
import { uploadFbi2015Population } from '../../../../bench/population-upload';
import { Client } from '../../../../bench/server-process';
import { CODIS_CORE, fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { postgresReachable } from '../../../helpers/database';
import type { CandidateMatch } from '../../../../core/schemas/candidate-matches';

const LAB_A = 'Laboratory A';
const LAB_B = 'Laboratory B';
/** Profiles in the upload S is killed during: three batches of the sender's 50. */
const KILLED_UPLOAD = 120;
/** The longest a condition is waited for (a loaded machine: three servers, their search workers, PostgreSQL). */
const WAIT_MS = 90_000;
/** A step's limit: a wait or two, and the calls around them. */
const STEP_MS = 2 * WAIT_MS;

type Genotypes = Map<string, readonly string[]>;
interface Page<T> {
  items: T[];
  count: number;
}
interface AuditRow {
  entity: string;
  entityId: string;
  action: string;
  after: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
}
interface OutboxList {
  items: { id: string; profileId: string; state: string; lastError: string | null }[];
  backlog: { waiting: number; retrying: number; failed: number };
}

/** Waits until `check` returns a value (not undefined), polling; the last value seen in the error otherwise. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() - t0 > WAIT_MS) throw new Error(`${what}: not after ${WAIT_MS / 1000} s${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A laboratory's instance as its people use it: its laboratory, a case, the GlobalFiler kit, and a reviewer besides the administrator (four eyes). */
interface Laboratory {
  instance: NetworkInstance;
  organizationId: string;
  caseId: string;
  chemistryId: string;
  markerIds: Map<string, string>;
  reviewerToken: string;
}

async function laboratory(instance: NetworkInstance, name: string): Promise<Laboratory> {
  const org = await instance.call<{ id: string }>('POST', '/api/organizations', { name });
  const options = await instance.call<{ chemistries: { id: string; name: string; markers: { id: string; name: string }[] }[] }>('GET', '/api/profiles/form-options');
  const kit = options.chemistries.find((c) => c.name === 'GlobalFiler')!;
  const caseTypes = await instance.call<Page<{ id: string }>>('GET', '/api/case-types');
  const made = await instance.call<{ id: string }>('POST', '/api/cases', { caseNumber: `${name} 2026-1`, caseTypeId: caseTypes.items[0]!.id, organizationId: org.id, assignedUserIds: [] });
  const userOptions = await instance.call<{ roles: { id: string; isAdmin: boolean }[] }>('GET', '/api/users/form-options');
  const reviewer = await instance.call<{ id: string }>('POST', '/api/users', {
    email: `reviewer@${name.replace(/\W/g, '').toLowerCase()}.test`,
    firstName: 'Rita',
    lastName: 'Reviewer',
    scope: 'All',
    organizationIds: [],
    accessGroupId: userOptions.roles.find((g) => g.isAdmin)!.id,
    lockedOut: false,
    receiveNotifications: false,
  });
  return { instance, organizationId: org.id, caseId: made.id, chemistryId: kit.id, markerIds: new Map(kit.markers.map((m) => [m.name, m.id])), reviewerToken: await instance.tokenFor(reviewer.id, 'reviewer') };
}

const markerValues = (lab: Laboratory, genotypes: Genotypes) => [...genotypes].filter(([m]) => lab.markerIds.has(m)).map(([m, alleles]) => ({ markerId: lab.markerIds.get(m)!, alleles: [...alleles] }));

/** Enters a profile (the administrator) and returns it pending. */
async function enter(lab: Laboratory, specimenId: string, sampleType: string, genotypes: Genotypes): Promise<{ id: string; version: number }> {
  const added = await lab.instance.call<Page<{ id: string; version: number }>>('POST', '/api/profiles', {
    caseId: lab.caseId,
    chemistryId: lab.chemistryId,
    sampleType,
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: null,
    comments: '',
    profiles: [{ profileId: specimenId, markerValues: markerValues(lab, genotypes) }],
  });
  return added.items[0]!;
}

/** Enters a profile and has the reviewer approve it (another person: four eyes). */
async function approved(lab: Laboratory, specimenId: string, sampleType: string, genotypes: Genotypes): Promise<string> {
  const pending = await enter(lab, specimenId, sampleType, genotypes);
  await lab.instance.call('POST', `/api/profiles/${pending.id}/approve`, { markerValues: markerValues(lab, genotypes), comments: '', version: pending.version }, lab.reviewerToken);
  return pending.id;
}

/** Deliver now, until the instance's outbox has nothing waiting (a round ends early when S refuses or is down). */
const drained = (instance: NetworkInstance) =>
  until('the outbox drained', async () => {
    const answer = await instance.call<OutboxList>('POST', '/api/network/outbox/deliver');
    return answer.backlog.waiting === 0 ? answer : undefined;
  });

const today = () => new Date().toISOString().slice(0, 10);
/** An instance's trail of the day, of one record type, through its audit API (organization "all": the administrator's view). */
async function trail(instance: NetworkInstance, entity: string, orgId = 'all'): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  for (let page = 0; ; page++) {
    const got = await instance.call<Page<AuditRow>>('GET', `/api/organizations/${orgId}/audit?from=${today()}&to=${today()}&entity=${entity}&pageSize=500&page=${page}&sort=at:asc`);
    rows.push(...got.items);
    if (rows.length >= got.count || got.items.length === 0) return rows;
  }
}
/** How many entries S applied in all (its trail's "Applied" batches add them up). */
const appliedAtS = async (s: NetworkInstance) => (await trail(s, 'NetworkBatch')).filter((r) => r.action === 'Applied').reduce((n, r) => n + Number(r.after?.applied ?? 0), 0);
/** The profiles S holds for a laboratory, by specimen id. */
const heldAtS = async (s: NetworkInstance, orgId: string) => (await s.call<Page<{ id: string; profileId: string; status: string }>>('GET', `/api/organizations/${orgId}/profiles?pageSize=500`)).items;

const reachable = await postgresReachable();
const t0 = Date.now();
const mark = (what: string) => process.env.NETWORK_TEST_TIMES && console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

describe.runIf(reachable)('three instances as real processes: local A, local B, state S (issue 32)', () => {
  let s: NetworkInstance;
  let a: Laboratory;
  let b: Laboratory;
  let joinedA: Joined;
  let joinedB: Joined;
  const draw = profileGenerator(fbi2015Population(), 32_000_032);
  const offenderGenotypes = draw();
  /** The stain: the offender's alleles at 12 of the core loci (eligible: ≥ 8 core loci and rarer than 1 in 10 million). */
  const stainGenotypes = new Map(CODIS_CORE.slice(0, 12).map((m) => [m, offenderGenotypes.get(m)!] as const));
  let stainId = '';
  let offenderId = '';

  beforeAll(async () => {
    const instances: NetworkInstance[] = [];
    const start = async (tag: string) => {
      const made = await startNetworkInstance(tag, { env: { SEARCH_THREADS: '1' } });
      instances.push(made);
      return made;
    };
    try {
      const [state, localA, localB] = await Promise.all([start('s'), start('a'), start('b')]);
      s = state!;
      mark('three instances started');
      await nameInstance(s, 'State DNA index', 'State');
      a = await laboratory(localA!, LAB_A);
      b = await laboratory(localB!, LAB_B);
      joinedA = await joinUpper(s, a.instance, 'Instance A', [LAB_A]);
      joinedB = await joinUpper(s, b.instance, 'Instance B', [LAB_B]);
      mark('joined');
      // The stain's rarity is weighed over A's casework populations; S weighs its hits over the level's, shared with the laboratories it holds for.
      await uploadFbi2015Population(new Client(a.instance.origin), a.instance.adminToken, 'Caucasian', [a.organizationId]);
      await uploadFbi2015Population(new Client(s.origin), s.adminToken, 'Caucasian', [joinedA.laboratories.get(LAB_A)!, joinedB.laboratories.get(LAB_B)!]);
    } catch (err) {
      await Promise.all(instances.map((i) => i.close()));
      throw err;
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all([s, a?.instance, b?.instance].filter(Boolean).map((i) => i!.close()));
  }, 120_000);

  it('a stain approved at A and an offender approved at B both reach S, held under their laboratories', async () => {
    stainId = await approved(a, 'A-STAIN-1', 'Forensic, Unknown', stainGenotypes);
    offenderId = await approved(b, 'B-OFF-1', 'Convicted Offender', offenderGenotypes);
    const eligibility = await a.instance.call<{ eligible: boolean; reasons: string[] }>('GET', `/api/profiles/${stainId}/upload-eligibility`);
    expect(eligibility).toMatchObject({ eligible: true });
    mark('approved');
    await drained(a.instance);
    await drained(b.instance);
    mark('delivered');
    expect((await heldAtS(s, joinedA.laboratories.get(LAB_A)!)).map((p) => [p.profileId, p.status])).toEqual([['A-STAIN-1', 'approved']]);
    expect((await heldAtS(s, joinedB.laboratories.get(LAB_B)!)).map((p) => [p.profileId, p.status])).toEqual([['B-OFF-1', 'approved']]);
  }, STEP_MS);

  it('they meet at S as a hit; A and B each receive the candidate match with only the other side’s specimen id, laboratory and statistics; A confirms and S records it', async () => {
    await until('the hit at S', async () => {
      const hits = await s.call<Page<{ profiles: { sampleName: string }[] }>>('GET', '/api/organizations/all/hits?pageSize=50');
      return hits.items.find((h) => ['A-STAIN-1', 'B-OFF-1'].every((name) => h.profiles.some((p) => p.sampleName === name)));
    });
    mark('hit at S');
    // Deliver now also fetches what S sends down (the sender's round pulls the notices).
    const received = (lab: Laboratory) =>
      until('a candidate match sent down', async () => {
        await lab.instance.call('POST', '/api/network/outbox/deliver');
        return (await lab.instance.call<{ items: CandidateMatch[] }>('GET', `/api/candidate-matches?organizationId=${lab.organizationId}`)).items[0];
      });
    const [atA, atB] = [await received(a), await received(b)];
    expect(atA).toMatchObject({ profileId: stainId, sampleName: 'A-STAIN-1', status: 'pending', counterparts: [{ specimenId: 'B-OFF-1', laboratory: LAB_B }] });
    expect(atB).toMatchObject({ profileId: offenderId, sampleName: 'B-OFF-1', status: 'pending', counterparts: [{ specimenId: 'A-STAIN-1', laboratory: LAB_A }] });
    // Nothing of the other laboratory beyond what the match needs (as CODIS): no genotype, no name.
    for (const match of [atA, atB]) {
      expect(Object.keys(match.counterparts[0]!).sort()).toEqual(['instance', 'laboratory', 'specimenId']);
      expect(match.statistics.length).toBeGreaterThan(0);
    }
    const confirmed = await a.instance.call<CandidateMatch>('POST', `/api/candidate-matches/${atA.id}/confirm`, { version: atA.version }, a.reviewerToken);
    expect(confirmed.status).toBe('confirmed');
    // The decision travels up in A's outbox (the confirmation woke its sender); S's trail records it.
    await until('S recorded the confirmation', async () => {
      await a.instance.call('POST', '/api/network/outbox/deliver');
      return (await trail(s, 'CandidateMatch')).find((r) => r.entityId === atA.id && r.action === 'Confirmed by the laboratory');
    });
    expect((await trail(a.instance, 'CandidateMatch', a.organizationId)).filter((r) => r.entityId === atA.id).map((r) => r.action)).toEqual(['Received from the upper instance', 'Confirmed']);
  }, STEP_MS);

  it('B’s offender, expunged at B, is gone from S, and both trails say so', async () => {
    const [row] = (await b.instance.call<Page<{ id: string; version: number }>>('GET', `/api/cases/${b.caseId}/profiles?pageSize=50`)).items.filter((p) => p.id === offenderId);
    await b.instance.call('POST', `/api/profiles/${offenderId}/reset`, { comments: 'Expungement order', version: row!.version }, b.reviewerToken);
    await b.instance.call('DELETE', `/api/profiles/${offenderId}`, undefined, b.reviewerToken);
    await drained(b.instance);
    const labBAtS = joinedB.laboratories.get(LAB_B)!;
    expect(await heldAtS(s, labBAtS)).toEqual([]);
    // S's hit of the stain went with it.
    expect((await s.call<Page<unknown>>('GET', '/api/organizations/all/hits?pageSize=50')).items).toEqual([]);
    const atS = (await trail(s, 'Profile', labBAtS)).map((r) => r.action);
    expect(atS).toEqual(['Received from lower instance', 'Reset by lower instance', 'Expunged by lower instance']);
    const atB = (await trail(b.instance, 'Profile', b.organizationId)).filter((r) => r.entityId === offenderId);
    expect(atB.map((r) => r.action)).toEqual(expect.arrayContaining(['Reset at the upper instance', 'Expunged at the upper instance']));
    expect(atB.find((r) => r.action === 'Expunged at the upper instance')!.after).toMatchObject({ upperInstance: s.origin, specimenId: 'B-OFF-1', outcome: 'applied' });
  }, STEP_MS);

  it('S killed during an upload and restarted loses nothing and applies nothing twice', async () => {
    const labAtS = joinedA.laboratories.get(LAB_A)!;
    const heldBefore = (await heldAtS(s, labAtS)).length;
    const appliedBefore = await appliedAtS(s);
    const genotypes = Array.from({ length: KILLED_UPLOAD }, () => draw());
    const pending: { id: string; version: number }[] = [];
    for (let k = 0; k < KILLED_UPLOAD; k += 8) pending.push(...(await Promise.all(genotypes.slice(k, k + 8).map((g, j) => enter(a, `A-OFF-${k + j + 1}`, 'Convicted Offender', g)))));
    mark('entered');
    for (let k = 0; k < pending.length; k += 100) {
      const result = await a.instance.call<{ done: number; refused: number }>('POST', '/api/profiles/bulk-review', { action: 'approve', items: pending.slice(k, k + 100), comments: '' }, a.reviewerToken);
      expect(result.refused).toBe(0);
    }
    // Deliver now, and S killed as soon as its first batch is in: the sender is on to the next.
    const delivery = a.instance.call<OutboxList>('POST', '/api/network/outbox/deliver').catch((err: unknown) => err);
    await until('S applied a first batch', async () => ((await heldAtS(s, labAtS)).length > heldBefore ? true : undefined));
    await s.kill();
    mark('S killed');
    await delivery;
    const cut = await a.instance.call<OutboxList>('GET', '/api/network/outbox');
    expect(cut.backlog.waiting).toBeGreaterThan(0);
    await s.restart();
    mark('S restarted');
    // The administrator's Retry on what failed while S was down (else the backoff's 30 s), then Deliver now.
    for (const entry of cut.items.filter((i) => i.state === 'retrying')) await a.instance.call('POST', `/api/network/outbox/${entry.id}/retry`);
    await drained(a.instance);
    const held = await heldAtS(s, labAtS);
    const names = held.map((p) => p.profileId).filter((n) => n.startsWith('A-OFF-'));
    expect(names).toHaveLength(KILLED_UPLOAD);
    expect(new Set(names).size).toBe(KILLED_UPLOAD);
    expect(held.length - heldBefore).toBe(KILLED_UPLOAD);
    expect((await appliedAtS(s)) - appliedBefore).toBe(KILLED_UPLOAD);
  }, 2 * STEP_MS);

  it('refuses a forged batch and a replayed one, each in S’s trail, with nothing applied again', async () => {
    const { credentials } = joinedA;
    const labAtS = joinedA.laboratories.get(LAB_A)!;
    const post = async (batch: string) =>
      fetch(`${s.origin}/api/network/batches`, { method: 'POST', headers: { authorization: `Bearer ${await upperToken(credentials)}`, 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
    const content = { batchId: randomUUID(), entries: [{ idempotencyKey: randomUUID(), action: 'delete' as const, profileId: stainId, laboratory: LAB_A, specimenId: 'A-STAIN-1' }] };

    const forged = await post(await signBatch(content, credentials.clientId, `${credentials.clientSecret}-forged`));
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as { error: string }).error).toMatch(/signature does not verify/);
    expect((await heldAtS(s, labAtS)).some((p) => p.profileId === 'A-STAIN-1')).toBe(true);

    // A genuine batch (A's credentials: the stain's expungement) applied once; sent again, it is refused as a replay.
    const signed = await signBatch(content, credentials.clientId, credentials.clientSecret);
    expect((await post(signed)).status).toBe(200);
    const replayed = await post(signed);
    expect(((await replayed.json()) as { status: string }).status).toBe('already applied');
    expect((await heldAtS(s, labAtS)).some((p) => p.profileId === 'A-STAIN-1')).toBe(false);
    const refusals = (await trail(s, 'NetworkBatch')).filter((r) => r.action === 'Refused').map((r) => String(r.after?.reason ?? ''));
    expect(refusals).toEqual(expect.arrayContaining([expect.stringMatching(/signature does not verify/), expect.stringMatching(/^replayed/)]));
    const expunged = (await trail(s, 'Profile', labAtS)).filter((r) => r.action === 'Expunged by lower instance');
    expect(expunged).toHaveLength(1);
  }, STEP_MS);
});
