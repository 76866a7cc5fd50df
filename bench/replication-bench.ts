// Issue 32 "Speed", upward replication: N eligible profiles from a local instance L to a state instance S, two real
// server processes (bench/network-instance.ts) on two PostgreSQL databases of this machine, joined through the API.
// L's database is seeded in bulk with what the approvals would have written (approved profiles and, in the same
// shape as queueUpload's, their outbox entries with the CMF written by the exports' writer), so the time is the
// delivery's alone: from Deliver now until S holds every profile, then until S's searches over them are done.
// GET /api/health of both processes every 100 ms meanwhile.
//   node --import tsx bench/replication-bench.ts <profiles>
import { sql, type SQL } from 'drizzle-orm';
import { encodeGenotype } from '../server/db/genotype-codec';
import { profilesToCmf } from '../server/exports/profiles/cmf';
import type { Genotype } from '../server/genetics/types';
import { UPLOAD_SUBMITTER } from '../server/network/upload-outbox';
import { startNetworkInstance, type NetworkInstance } from './network-instance';
import { joinUpper, nameInstance } from './network-setup';
import { uploadFbi2015Population } from './population-upload';
import { Client, HealthProbe, sleep, WAIT_LIMIT_MS } from './server-process';
import { CODIS_CORE, fbi2015Population, profileGenerator } from './synthetic-profiles';

export interface ReplicationResult {
  profiles: number;
  /** Of them, forensic unknowns planted as partial copies of an offender (each an identity hit at S). */
  plantedPairs: number;
  /** Bulk seeding of L's database (not part of the delivery). */
  seedMs: number;
  /** From Deliver now at L until S holds every profile. */
  deliveryMs: number;
  profilesPerSecond: number;
  /** Batches S applied (its trail's NetworkBatch rows). */
  batches: number;
  /** From Deliver now until S's searches over the held profiles are done (the hits written). */
  searchedMs: number;
  /** S's hits: the candidate matches it would send down (issue 32), counted at S until they are. */
  hitsAtS: number;
  /** GET /api/health every 100 ms during the delivery, each process: worst and p99 (ms), probes. */
  health: { local: HealthFigures; state: HealthFigures };
  /** Each process's event-loop delay during the delivery (ms, measured inside it): p99 and worst. */
  loopDelay: { local: LoopFigures; state: LoopFigures };
}

interface LoopFigures {
  p99: number;
  max: number;
}

interface HealthFigures {
  probes: number;
  p99: number;
  worst: number;
}

const LAB = 'Laboratory L';
const CASE_NUMBER = 'L-2026-REPLICATION';
/** One forensic unknown in this many profiles is a partial copy (12 core loci) of the offender before it. */
const PAIR_EVERY = 100;
const ROWS_PER_INSERT = 1000;

const rowsOf = async <T>(instance: NetworkInstance, query: SQL) => ((await instance.database.db.execute(query)) as unknown as { rows: T[] }).rows;

const figures = (xs: number[]): HealthFigures => {
  const sorted = [...xs].sort((a, b) => a - b);
  return { probes: xs.length, p99: sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? NaN, worst: sorted.at(-1) ?? NaN };
};

/** Bulk-writes N approved profiles and their upload entries to L's database; the planted pairs' count. */
async function seedLocal(local: NetworkInstance, organizationId: string, caseId: string, profiles: number, log: (l: string) => void): Promise<number> {
  const db = local.database.db;
  const [kit] = await rowsOf<{ id: string }>(local, sql`select id from chemistries where name = 'GlobalFiler'`);
  const codes = new Map((await rowsOf<{ name: string; code: number }>(local, sql`select name, code from markers`)).map((m) => [m.name, m.code]));
  const draw = profileGenerator(fbi2015Population(), 32_100_032);
  const now = new Date();
  let planted = 0;
  let previous: Map<string, Genotype> | undefined;
  for (let start = 0; start < profiles; start += ROWS_PER_INSERT) {
    const rows = Array.from({ length: Math.min(ROWS_PER_INSERT, profiles - start) }, (_, k) => {
      const n = start + k + 1;
      const stain = n % PAIR_EVERY === 0 && previous !== undefined;
      const genotypes: Map<string, Genotype> = stain ? new Map(CODIS_CORE.slice(0, 12).map((m) => [m, previous!.get(m)!])) : draw();
      if (stain) planted++;
      previous = genotypes;
      const sampleType = stain ? 'Forensic, Unknown' : 'Convicted Offender';
      const name = `L-${String(n).padStart(7, '0')}`;
      const markerValues = [...genotypes].map(([marker, alleles]) => ({ marker, alleles }));
      const cmf = profilesToCmf([{ profileId: name, sampleType, kind: 'Autosomal', chemistryName: 'GlobalFiler', caseNumber: CASE_NUMBER, markerValues }], { sourceLab: LAB, submitByUserId: UPLOAD_SUBMITTER, submitDateTime: now });
      const genotype = Buffer.from(encodeGenotype([...genotypes].map(([m, alleles]) => ({ code: codes.get(m)!, alleles })))).toString('hex');
      return { name, sampleType, genotype, payload: JSON.stringify({ cmf, kit: 'GlobalFiler', caseNumber: CASE_NUMBER }) };
    });
    const batch = JSON.stringify(rows);
    // The profile and its entry in one statement, as the approval writes them in one transaction.
    await db.execute(sql`
      with p as (select * from json_to_recordset(${batch}::json) as p(name text, "sampleType" text, genotype text, payload text)),
      made as (
        insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, reviewed_at, searched_at, genotype)
        select p.name, ${caseId}::uuid, ${organizationId}::uuid, 'Autosomal', ${kit!.id}::uuid, p."sampleType"::sample_type, 'approved', ${now}, ${now}, decode(p.genotype, 'hex') from p
        returning id, profile_id)
      insert into upload_outbox (idempotency_key, action, profile_id, organization_id, laboratory, specimen_id, payload)
      select gen_random_uuid()::text, 'upload', made.id, ${organizationId}::uuid, ${LAB}, made.profile_id, p.payload::jsonb
      from made join p on p.name = made.profile_id`);
    if ((start / ROWS_PER_INSERT) % 10 === 9) log(`${(start + rows.length).toLocaleString('en')} profiles seeded`);
  }
  return planted;
}

export async function runReplicationBench(profiles: number, log: (l: string) => void): Promise<ReplicationResult> {
  const started: NetworkInstance[] = [];
  try {
    const [state, local] = await Promise.all(['s', 'l'].map(async (tag) => {
      const made = await startNetworkInstance(tag, { log });
      started.push(made);
      return made;
    }));
    const s = state!;
    const l = local!;
    log(`S at ${s.origin}, L at ${l.origin}`);
    await nameInstance(s, 'State DNA index', 'State');
    const lab = await l.call<{ id: string }>('POST', '/api/organizations', { name: LAB });
    const caseTypes = await l.call<{ items: { id: string }[] }>('GET', '/api/case-types');
    const made = await l.call<{ id: string }>('POST', '/api/cases', { caseNumber: CASE_NUMBER, caseTypeId: caseTypes.items[0]!.id, organizationId: lab.id, assignedUserIds: [] });
    const joined = await joinUpper(s, l, 'Local instance L', [LAB]);
    const labAtS = joined.laboratories.get(LAB)!;
    await uploadFbi2015Population(new Client(s.origin), s.adminToken, 'Caucasian', [labAtS]);

    const t0 = performance.now();
    const plantedPairs = await seedLocal(l, lab.id, made.id, profiles, log);
    const seedMs = performance.now() - t0;
    log(`L seeded in ${(seedMs / 1000).toFixed(1)} s (${plantedPairs} planted pairs)`);

    // Sampling starts each process's event-loop histogram afresh: the next sample covers the delivery alone.
    await Promise.all([l.loopDelay(), s.loopDelay()]);
    const probes = { local: new HealthProbe(l.origin), state: new HealthProbe(s.origin) };
    const heldAtS = async () => (await s.call<{ count: number }>('GET', `/api/organizations/${labAtS}/profiles?pageSize=1`)).count;
    const start = performance.now();
    // Deliver now; the round drains the whole backlog, far longer than an HTTP answer is waited for, so its answer is not.
    void fetch(`${l.origin}/api/network/outbox/deliver`, { method: 'POST', headers: { authorization: `Bearer ${l.adminToken}` } }).then((r) => r.body?.cancel(), () => undefined);
    let held = 0;
    let lastLog = start;
    while (held < profiles) {
      if (performance.now() - start > WAIT_LIMIT_MS) throw new Error(`S held ${held} of ${profiles} after ${WAIT_LIMIT_MS / 1000} s`);
      await sleep(1000);
      held = await heldAtS();
      if (performance.now() - lastLog > 30_000) {
        lastLog = performance.now();
        log(`${held.toLocaleString('en')} held at S after ${((lastLog - start) / 1000).toFixed(0)} s`);
      }
    }
    const deliveryMs = performance.now() - start;
    const health = { local: figures(probes.local.take()), state: figures(probes.state.take()) };
    const [localLoop, stateLoop] = await Promise.all([l.loopDelay(), s.loopDelay()]);
    const loopDelay = { local: { p99: localLoop.p99, max: localLoop.max }, state: { p99: stateLoop.p99, max: stateLoop.max } };
    await Promise.all([probes.local.stop(), probes.state.stop()]);
    // S searches each held profile as it arrives (searched_at set once its hits are written); its hits are counted after the last.
    for (;;) {
      const [left] = await rowsOf<{ n: number }>(s, sql`select count(*)::int as n from profiles where status = 'approved' and (searched_at is null or searched_at <> reviewed_at)`);
      if (left!.n === 0) break;
      if (performance.now() - start > WAIT_LIMIT_MS) throw new Error(`S had ${left!.n} held profiles still to search after ${WAIT_LIMIT_MS / 1000} s`);
      await sleep(1000);
    }
    const searchedMs = performance.now() - start;
    const hitsAtS = (await s.call<{ count: number }>('GET', '/api/organizations/all/hits?pageSize=1')).count;
    const today = new Date().toISOString().slice(0, 10);
    const batches = (await s.call<{ count: number }>('GET', `/api/organizations/all/audit?from=${today}&to=${today}&entity=NetworkBatch&search=Applied&pageSize=1`)).count;
    return { profiles, plantedPairs, seedMs, deliveryMs, profilesPerSecond: profiles / (deliveryMs / 1000), batches, searchedMs, hitsAtS, health, loopDelay };
  } finally {
    await Promise.all(started.map((i) => i.close()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await runReplicationBench(Number(process.argv[2] ?? 100_000), (l) => console.error(`replication: ${l}`));
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}
