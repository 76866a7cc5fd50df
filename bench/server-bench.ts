// Issue 29 "The server table": the real server process (node server/server.ts, its search workers, its database),
// measured from outside over HTTP with personal access tokens, on N approved GlobalFiler references and H hits
// (bench/scale-bench.ts load()). Each scenario is timed call by call (p50, p95, max), and during each one the
// server's own event-loop delay (bench/loop-delay-probe.ts, preloaded into the server) and a GET /api/health
// probe every 100 ms from this process are recorded. Every call's status is checked: a table never shows the
// time of an error.
//   node --import tsx bench/server-bench.ts <PostgreSQL|PGlite> <profiles> <hits> [postgres-url]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { systemClock } from '../server/clock';
import type { Database } from '../server/db/database';
import { encodeGenotype } from '../server/db/genotype-codec';
import { analyses, chemistries, markers, searchRules, users } from '../server/db/schema';
import { applySeedUpgrades } from '../server/db/seed/upgrades';
import type { Genotype } from '../server/genetics/types';
import { createAccessToken } from '../server/identity/access-tokens';
import { createAccessGroup, createUser } from '../tests/helpers/factories';
import { BENCH_POPULATIONS } from './approval-bench';
import { ADMIN, CASES, caseNumber, load, profileName, REFERENCE_SEED } from './scale-bench';
import { familyOf, fbi2015Population, profileGenerator, seededRandom, siblingOf } from './synthetic-profiles';
import { runFromCommandLine } from './command-line';
import { uploadFbi2015Population } from './population-upload';
import { Client, HealthProbe, type LoopDelaySample, rssMb, sleep, startServer, WAIT_LIMIT_MS } from './server-process';

/** One scenario's row: its calls' times and what the server and the health probe showed meanwhile. */
export interface ServerScenario {
  name: string;
  runs: number;
  p50: number;
  p95: number;
  max: number;
  /** The server's event-loop delay during the scenario (ms). */
  loopP99: number;
  loopMax: number;
  /** GET /api/health every 100 ms during the scenario (ms). */
  healthProbes: number;
  healthP99: number;
  healthMax: number;
  /** What the scenario found or did (items, hits, approvals per second). */
  note: string;
}

export interface ServerBenchResult {
  database: 'PostgreSQL' | 'PGlite';
  profiles: number;
  hits: number;
  searchThreads: string;
  readyMs: number;
  /** The server's resident memory when its index was ready, and at the end. */
  readyRssMb: number;
  endRssMb: number;
  scenarios: ServerScenario[];
}

const PAGE_SIZE = 50;
const LIST_RUNS = Number(process.env.BENCH_SERVER_LIST_RUNS ?? 20);
const SEARCH_RUNS = Number(process.env.BENCH_SERVER_SEARCH_RUNS ?? 10);
const APPROVALS = Number(process.env.BENCH_SERVER_APPROVALS ?? 100);
/** Mixture approvals and mixture searches: each weighs a 3-person stain's tables over four populations, seconds apiece whatever N. */
const MIXTURES = Number(process.env.BENCH_SERVER_MIXTURES ?? APPROVALS);
const MIXTURE_RUNS = Number(process.env.BENCH_SERVER_MIXTURE_RUNS ?? SEARCH_RUNS);
/** Missing-person families (father, mother and full sister typed), each missing person among the remains approved. */
const FAMILIES = Math.min(APPROVALS, Number(process.env.BENCH_SERVER_FAMILIES ?? 20));
/** The seed family shapes the families take in turn: the typed parents, or the mother and the sister. */
const FAMILY_SHAPES = [
  { analysis: 'Both parents', relatives: [['Father', 'father'], ['Mother', 'mother']] },
  { analysis: 'Mother and full sister', relatives: [['Mother', 'mother'], ['Full sister', 'sister']] },
] as const;
const REMAINS = 'Unidentified Human (Remains)';
/** Pending profiles besides those approved: the Review list holds about 420 before the approvals. */
const REVIEW_EXTRA = 120;
/** References drawn again (load()'s first ones, by its seed): the queries, the planted copies, the mixtures' contributors. */
const KNOWN = 400;
/** Scenarios left out (a quick run): their names matching this pattern. The familial search needs the forensic unknowns' approvals. */
const SKIP = process.env.BENCH_SERVER_SKIP ? new RegExp(process.env.BENCH_SERVER_SKIP, 'i') : null;

/** Nearest rank: p95 of 20 runs is the 19th fastest, of 10 the slowest. */
const percentile = (xs: readonly number[], p: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * xs.length) - 1)]!);
const markerList = (g: ReadonlyMap<string, Genotype>, ids: ReadonlyMap<string, string>) => [...g].map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles: [...alleles] }));
/** A stain of the contributors: every allele any of them carries, in allele order. */
const stainOf = (contributors: readonly ReadonlyMap<string, Genotype>[]) =>
  new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...(c.get(m) ?? [])]))].sort((a, b) => Number(a) - Number(b))] as [string, Genotype]));
/** A partial second source: the same genotypes with about one marker in seven not typed. */
const partialCopy = (g: ReadonlyMap<string, Genotype>, random: () => number) => new Map([...g].filter(() => random() > 0.15));

interface PendingProfile {
  id: string;
  version: number;
  genotypes: Map<string, Genotype>;
}

export async function runServerBench(opts: { database: 'PostgreSQL' | 'PGlite'; profiles: number; hits: number; url: string; log?: (l: string) => void }): Promise<ServerBenchResult> {
  const log = (l: string) => (opts.log ?? console.log)(`${opts.database} server: ${l}`);
  if (opts.profiles < KNOWN) throw new Error(`the server bench needs at least ${KNOWN} profiles`);
  const { openPglite } = await import('../server/db/database');
  const folder = mkdtempSync(path.join(tmpdir(), 'locus-server-bench-'));
  const loopFile = path.join(folder, 'loop-delay.json');
  let database: Database | undefined;
  let serverEnv: Record<string, string>;
  if (opts.database === 'PostgreSQL') {
    const { freshPostgres } = await import('../tests/helpers/database');
    const fresh = await freshPostgres(opts.url);
    database = fresh;
    serverEnv = { DATABASE_URL: fresh.url, DATA_DIR: path.join(folder, 'data') };
  } else {
    database = await openPglite(path.join(folder, 'data'));
    await database.migrate();
    serverEnv = { DATA_DIR: path.join(folder, 'data') };
  }
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let probe: HealthProbe | undefined;
  try {
    // 1. The database: load()'s references and hits, then (before the server opens it: PGlite is one process's)
    // the users and their tokens, and the pending profiles the Review list shows and the approvals decide.
    const { organizationId } = await load(database, opts.profiles, opts.hits, log);
    const db = database.db;
    // What the server does at every start, done first so the mixture analysis and its rule can be named here.
    await applySeedUpgrades(db);
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN.email));
    const analystGroup = await createAccessGroup(db, { name: 'Bench analysts', grants: { Cases: ['Read', 'Edit'], Profiles: ['Read', 'Edit'], Hits: ['Read', 'Publish'], Populations: ['Read'], Analyses: ['Read'] } });
    const analyst = await createUser(db, { email: 'analyst@locus.test', accessGroupId: analystGroup.id, organizationIds: [organizationId] });
    const adminToken = (await createAccessToken(db, systemClock, admin!.id, 'server bench (administrator)', 1)).token;
    const token = (await createAccessToken(db, systemClock, analyst.id, 'server bench (analyst)', 1)).token;
    const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
    const markerRows = await db.select({ id: markers.id, name: markers.name, code: markers.code }).from(markers);
    const markerIds = new Map(markerRows.map((m) => [m.name, m.id]));
    const codes = new Map(markerRows.map((m) => [m.name, m.code]));
    const [mixtureAnalysis] = await db.select({ id: analyses.id }).from(analyses).where(eq(analyses.name, 'Mixture, 3 contributors'));
    const [familialRule] = await db.select({ id: searchRules.id }).from(searchRules).where(eq(searchRules.name, 'Familial search of offenders and arrestees (full siblings)'));
    if (!mixtureAnalysis || !familialRule) throw new Error('the seed mixture analysis or familial rule is missing');
    const shapeIds = await Promise.all(FAMILY_SHAPES.map(async (shape) => (await db.select({ id: analyses.id }).from(analyses).where(eq(analyses.name, shape.analysis)))[0]?.id));
    if (shapeIds.some((id) => !id)) throw new Error(`a seed family shape (${FAMILY_SHAPES.map((f) => f.analysis).join(', ')}) is missing`);
    const caseRows = ((await db.execute(sql`select id from cases where organization_id = ${organizationId}::uuid order by case_number`)) as unknown as { rows: { id: string }[] }).rows;

    // load()'s first references, drawn again: their genotypes are the database's.
    const caucasian = fbi2015Population();
    const drawReference = profileGenerator(caucasian, REFERENCE_SEED);
    const known = Array.from({ length: KNOWN }, () => drawReference());
    const fresh = profileGenerator(caucasian, 29_000_029);
    const random = seededRandom(2929);
    /** Profiles added straight to the database (pending unless said; the case of each by its place, else in turn). */
    const insertPending = async (sampleType: string, prefix: string, genotypes: Map<string, Genotype>[], options: { status?: 'approved'; caseOf?: (k: number) => string } = {}): Promise<PendingProfile[]> => {
      const caseOf = options.caseOf ?? ((k: number) => caseRows[k % caseRows.length]!.id);
      // Approved earlier and searched then (as load()'s references): a start does not queue their searches again.
      const reviewed = options.status ? new Date().toISOString() : null;
      const out: PendingProfile[] = [];
      for (let start = 0; start < genotypes.length; start += 500) {
        const batch = genotypes.slice(start, start + 500);
        const rows = ((await db.execute(sql`
          insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, reviewed_at, searched_at, genotype)
          select p.name, p.case_id, ${organizationId}::uuid, 'Autosomal', ${chemistry!.id}::uuid, ${sampleType}::sample_type, ${options.status ?? 'pending'}::profile_status,
                 ${reviewed}::timestamptz, ${reviewed}::timestamptz, decode(p.genotype, 'hex')
          from unnest(${`{${batch.map((_, k) => `${prefix}-${String(start + k + 1).padStart(4, '0')}`).join(',')}}`}::text[],
                      ${`{${batch.map((_, k) => caseOf(start + k)).join(',')}}`}::uuid[],
                      ${`{${batch.map((g) => Buffer.from(encodeGenotype([...g].map(([m, alleles]) => ({ code: codes.get(m)!, alleles })))).toString('hex')).join(',')}}`}::text[]) as p(name, case_id, genotype)
          returning id, version, profile_id`)) as unknown as { rows: { id: string; version: number; profile_id: string }[] }).rows;
        const byName = new Map(rows.map((r) => [r.profile_id, r]));
        batch.forEach((genotypes, k) => {
          const row = byName.get(`${prefix}-${String(start + k + 1).padStart(4, '0')}`)!;
          out.push({ id: row.id, version: row.version, genotypes });
        });
      }
      return out;
    };
    // Forensic unknowns: one in ten a partial second source of a reference (an identity hit); the first a full
    // sibling of reference 5 (the familial search's stain).
    const unknownGenotypes = Array.from({ length: APPROVALS }, (_, j) => (j === 0 ? siblingOf(known[5]!, caucasian, 2901) : j % 10 === 1 ? partialCopy(known[10 + (j % 100)]!, random) : fresh()));
    const unknowns = await insertPending('Forensic, Unknown', 'BENCH-FU', unknownGenotypes);
    // Mixtures of two or three references (each a mixture hit), of references no other scenario uses.
    const mixtures = await insertPending('Forensic Mixture', 'BENCH-MIX', Array.from({ length: MIXTURES }, (_, j) => stainOf(known.slice(120 + 2 * (j % 100), 120 + 2 * (j % 100) + (j % 2 ? 2 : 3)))));
    // Offenders: one in ten the donor of an earlier forensic unknown (an identity hit the other way round).
    const offenders = await insertPending('Convicted Offender', 'BENCH-OFF', Array.from({ length: APPROVALS }, (_, j) => (j % 10 === 5 ? new Map(unknownGenotypes[j]!) : fresh())));
    // Remains against families: each family's missing person drawn afresh, its father, mother and full sister typed and
    // approved earlier in the family's case (family k in case k); among the remains approved, the missing persons at
    // even intervals, the rest unrelated. The families are added and activated through the API once the server runs.
    const missingPersons = Array.from({ length: FAMILIES }, () => fresh());
    const relatives = missingPersons.map((mp, k) => familyOf(mp, caucasian, 2_900_000 + 10 * k));
    const familyCase = (k: number) => caseRows[k % caseRows.length]!.id;
    const typed = async (sampleType: string, role: string) =>
      insertPending(sampleType, `BENCH-${role.toUpperCase()}`, relatives.map((r) => r.get(role)!), { status: 'approved', caseOf: familyCase });
    const relativeIds = { father: await typed('Biological Father', 'father'), mother: await typed('Biological Mother', 'mother'), sister: await typed('Biological Sibling', 'sister') };
    const plantedAt = (k: number) => Math.floor((k * APPROVALS) / FAMILIES);
    const plantedIndex = new Map(missingPersons.map((_, k) => [plantedAt(k), k]));
    const remains = await insertPending(REMAINS, 'BENCH-UHR', Array.from({ length: APPROVALS }, (_, j) => (plantedIndex.has(j) ? missingPersons[plantedIndex.get(j)!]! : fresh())));
    await insertPending('Forensic, Unknown', 'BENCH-REVIEW', Array.from({ length: REVIEW_EXTRA }, () => fresh()));
    if (opts.database === 'PGlite') {
      await database.close();
      database = undefined;
    }

    // 2. The real server, with the loop-delay probe inside it.
    server = await startServer(serverEnv, loopFile, log);
    log(`index ready after ${(server.readyMs / 1000).toFixed(1)} s, RSS ${server.readyRssMb.toFixed(0)} MB`);
    const client = new Client(server.origin);
    const loop = server.loop;

    // 3. Four FBI 2015 populations uploaded through the API by the administrator, shared with the organization.
    const populationIds: string[] = [];
    for (const name of BENCH_POPULATIONS) populationIds.push(await uploadFbi2015Population(client, adminToken, name, [organizationId]));
    log(`${populationIds.length} populations uploaded`);

    // The families, added and activated by the analyst as a laboratory would (activation searches the approved remains: none yet).
    type FamilyAnswer = { family: { id: string }; searchedProfiles: number; hitsAdded: number };
    const familyIds: string[] = [];
    for (let k = 0; k < FAMILIES; k++) {
      const shape = FAMILY_SHAPES[k % FAMILY_SHAPES.length]!;
      const created = await client.call<{ id: string; version: number }>(token, 'POST', `/api/cases/${familyCase(k)}/families`, {
        name: `Family of missing person ${k + 1}`,
        analysisId: shapeIds[k % FAMILY_SHAPES.length]!,
        relatives: shape.relatives.map(([role, who]) => ({ role, profileId: relativeIds[who][k]!.id })),
        populationIds,
        threshold: 10_000,
      });
      familyIds.push((await client.call<FamilyAnswer>(token, 'POST', `/api/families/${created.body.id}/activate`, { version: created.body.version })).body.family.id);
    }
    log(`${FAMILIES} families added and activated`);

    // 4. The scenarios, one after another; the health probe runs through all of them.
    probe = new HealthProbe(server.origin);
    const scenarios: ServerScenario[] = [];
    const record = (name: string, times: readonly number[], delay: LoopDelaySample, health: readonly number[], note: string) => {
      const row: ServerScenario = {
        name,
        runs: times.length,
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        max: Math.max(...times),
        loopP99: delay.p99,
        loopMax: delay.max,
        healthProbes: health.length,
        healthP99: percentile(health, 0.99),
        healthMax: Math.max(...health),
        note,
      };
      scenarios.push(row);
      log(`${name}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, max ${row.max.toFixed(1)} ms; loop p99 ${row.loopP99.toFixed(1)} / max ${row.loopMax.toFixed(1)} ms; health p99 ${row.healthP99.toFixed(1)} / worst ${row.healthMax.toFixed(1)} ms (${row.healthProbes}); ${note}`);
    };
    // The start: timed from the process's start until its index was ready; GET /api/health every 100 ms and the loop delay from its first answer.
    record('server start-up, until the index is ready', [server.readyMs], server.startLoop, server.startProbes, `${(opts.profiles + 3 * FAMILIES).toLocaleString('en')} approved profiles indexed`);
    const scenario = async (name: string, run: () => Promise<{ times: number[]; note: string }>) => {
      if (SKIP && SKIP.test(name)) return;
      await loop.sample();
      probe!.take();
      const { times, note } = await run();
      record(name, times, await loop.sample(), probe!.take(), note);
    };
    const repeat = async <T>(runs: number, call: (i: number) => Promise<{ ms: number; body: T }>, describe: (body: T) => string) => {
      const times: number[] = [];
      let last: T | undefined;
      for (let i = 0; i < runs; i++) {
        const r = await call(i);
        times.push(r.ms);
        last = r.body;
      }
      return { times, note: describe(last!) };
    };
    type List = { items: unknown[]; count: number; estimated?: true };
    const listed = (b: List) => `${b.items.length} items of ${b.estimated ? 'about ' : ''}${b.count.toLocaleString('en')}`;
    const get = (url: string) => repeat<List>(LIST_RUNS, () => client.call<List>(token, 'GET', url), listed);
    const org = `/api/organizations/${organizationId}`;
    const deep = (count: number) => Math.max(0, Math.floor((count * 0.9) / PAGE_SIZE));
    const pendingCount = APPROVALS * 3 + MIXTURES + REVIEW_EXTRA;

    await scenario('profile list, first page', () => get(`${org}/profiles?pageSize=${PAGE_SIZE}&page=0`));
    await scenario('profile list, 90% page', () => get(`${org}/profiles?pageSize=${PAGE_SIZE}&page=${deep(opts.profiles + 3 * FAMILIES + pendingCount)}`));
    await scenario('Review (pending profiles), first page', () => get(`${org}/profiles?status=pending&pageSize=${PAGE_SIZE}&page=0`));
    await scenario('Review (pending profiles), 90% page', () => get(`${org}/profiles?status=pending&pageSize=${PAGE_SIZE}&page=${deep(pendingCount)}`));
    await scenario('review counts', () => repeat(LIST_RUNS, () => client.call<{ profilesPending: number; hitsPending: number }>(token, 'GET', `${org}/review-counts`), (b) => `${b.profilesPending} profiles, ${b.hitsPending} hits pending`));
    if (opts.hits > 0) {
      await scenario('hit list (Review), first page', () => get(`${org}/pending-hits?pageSize=${PAGE_SIZE}&page=0`));
      await scenario('hit list (Review), 90% page', () => get(`${org}/pending-hits?pageSize=${PAGE_SIZE}&page=${deep(opts.hits)}`));
    }
    await scenario('case list, first page', () => get(`${org}/cases?pageSize=${PAGE_SIZE}&page=0`));
    await scenario('case list, 90% page', () => get(`${org}/cases?pageSize=${PAGE_SIZE}&page=${deep(CASES)}`));
    // Different names each run: a search the database has not just answered.
    await scenario('profile search by name', () =>
      repeat<List>(LIST_RUNS, (i) => client.call<List>(token, 'GET', `${org}/profiles?pageSize=${PAGE_SIZE}&page=0&search=${encodeURIComponent(profileName(Math.floor(opts.profiles * (0.05 + 0.047 * i))).slice(4))}`), listed),
    );
    await scenario('profile search by case number', () =>
      repeat<List>(LIST_RUNS, (i) => client.call<List>(token, 'GET', `${org}/profiles?pageSize=${PAGE_SIZE}&page=0&search=${encodeURIComponent(caseNumber(37 + 47 * i))}`), listed),
    );
    await scenario('case search by number', () => repeat<List>(LIST_RUNS, (i) => client.call<List>(token, 'GET', `${org}/cases?pageSize=${PAGE_SIZE}&page=0&search=${encodeURIComponent(caseNumber(37 + 47 * i))}`), listed));

    type Keyboard = { candidates: { sampleName: string }[] };
    const keyboard = (populations: string[]) =>
      repeat<Keyboard>(
        SEARCH_RUNS,
        (i) => client.call<Keyboard>(token, 'POST', '/api/profiles/get-all-possible-hits', { organizationId, chemistryId: chemistry!.id, markerValues: markerList(known[330 + (i % 10)]!, markerIds), populationIds: populations }),
        (b) => `${b.candidates.length} candidates, first ${b.candidates[0]?.sampleName ?? 'none'}`,
      );
    await scenario('keyboard search, 1 population', () => keyboard(populationIds.slice(0, 1)));
    await scenario('keyboard search, 4 populations', () => keyboard(populationIds));

    // Approvals: one reviewer approving as fast as the server answers; the searches run behind them. Timed from the
    // first approval until every search of the batch is done (its hits written).
    type Job = { profileId: string; status: string; hits: number; error: string | null };
    const approveAll = async (batch: PendingProfile[]) => {
      const times: number[] = [];
      const t0 = performance.now();
      for (const p of batch) {
        const r = await client.call(token, 'POST', `/api/profiles/${p.id}/approve`, { markerValues: markerList(p.genotypes, markerIds), comments: 'server bench', version: p.version });
        times.push(r.ms);
      }
      const approvedMs = performance.now() - t0;
      const ids = new Set(batch.map((p) => p.id));
      const finished = new Map<string, Job>();
      let told = performance.now();
      for (;;) {
        const jobs = (await client.call<{ items: Job[] }>(adminToken, 'GET', '/api/organizations/all/searches')).body.items;
        for (const j of jobs) {
          if (!ids.has(j.profileId)) continue;
          if (j.status === 'failed') throw new Error(`the search of ${j.profileId} failed: ${j.error}`);
          if (j.status === 'done') finished.set(j.profileId, j);
        }
        if (finished.size === ids.size) break;
        if (performance.now() - told > 30_000) {
          told = performance.now();
          log(`  ${finished.size}/${ids.size} searched after ${((told - t0) / 1000).toFixed(0)} s`);
        }
        if (performance.now() - t0 > WAIT_LIMIT_MS) throw new Error(`${ids.size - finished.size} searches not done after ${WAIT_LIMIT_MS / 1000} s`);
        await sleep(100);
      }
      const totalMs = performance.now() - t0;
      const hits = [...finished.values()].reduce((a, j) => a + j.hits, 0);
      return { times, note: `${batch.length} approved in ${(approvedMs / 1000).toFixed(1)} s; all searched in ${(totalMs / 1000).toFixed(1)} s (${((1000 * batch.length) / totalMs).toFixed(1)}/s); ${hits} hits` };
    };
    await scenario(`${APPROVALS} approvals: forensic unknowns`, () => approveAll(unknowns));
    await scenario(`${MIXTURES} approvals: forensic mixtures (2–3 references)`, () => approveAll(mixtures));
    // Each planted missing person found: its remains profile holds a hit of its own family.
    type HitPage = { items: { familyId: string | null }[] };
    await scenario(`${APPROVALS} approvals: unidentified remains against ${FAMILIES} families`, async () => {
      const approved = await approveAll(remains);
      let found = 0;
      for (const [j, k] of plantedIndex) {
        const page = (await client.call<HitPage>(token, 'GET', `/api/profiles/${remains[j]!.id}/hits?pageSize=${PAGE_SIZE}&page=0`)).body;
        if (page.items.some((h) => h.familyId === familyIds[k])) found++;
      }
      return { times: approved.times, note: `${approved.note}; ${found} of ${FAMILIES} planted missing persons found by their families` };
    });
    await scenario(`${APPROVALS} approvals: convicted offenders`, () => approveAll(offenders));

    // A familial search of the approved stain that is a full sibling of reference 5, with the seed on-request rule.
    type Familial = { candidates: { sampleName: string }[] };
    await scenario('familial search (full siblings, 4 populations)', () =>
      repeat<Familial>(
        SEARCH_RUNS,
        () => client.call<Familial>(token, 'POST', `/api/profiles/${unknowns[0]!.id}/familial-search`, { searchRuleId: familialRule.id, populationIds, limit: 50 }),
        (b) => `${b.candidates.length} candidates; ${profileName(5)} ranked ${b.candidates.findIndex((c) => c.sampleName === profileName(5)) + 1 || 'not'}`,
      ),
    );
    // A typed 3-person stain of references, searched against every reference.
    type Mixture = { candidates: { sampleName: string }[]; searchedProfiles: number };
    await scenario('mixture search (3 contributors, 4 populations)', () =>
      repeat<Mixture>(
        MIXTURE_RUNS,
        (i) => {
          const stain = stainOf(known.slice(340 + 3 * (i % 10), 343 + 3 * (i % 10)));
          return client.call<Mixture>(token, 'POST', '/api/mixture-search', { organizationId, analysisId: mixtureAnalysis.id, replicates: [{ markers: [...stain].map(([marker, alleles]) => ({ marker, alleles: [...alleles] })) }], populationIds, limit: 50 });
        },
        (b) => `${b.searchedProfiles.toLocaleString('en')} weighed; top 3: ${b.candidates.slice(0, 3).map((c) => c.sampleName).join(', ')}`,
      ),
    );

    await probe.stop();
    probe = undefined;
    return {
      database: opts.database,
      profiles: opts.profiles,
      hits: opts.hits,
      searchThreads: process.env.SEARCH_THREADS ?? 'one per core',
      readyMs: server.readyMs,
      readyRssMb: server.readyRssMb,
      endRssMb: rssMb(server.child.pid!),
      scenarios,
    };
  } finally {
    await probe?.stop();
    await server?.stop();
    await database?.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runFromCommandLine(runServerBench);
