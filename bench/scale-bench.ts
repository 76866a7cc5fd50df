// Issue 15 "An honest benchmark": a national database through the real server and its database. N approved
// GlobalFiler references (20 CODIS core markers, FBI 2015 frequencies) and H hits are written to a fresh
// database; then, measured from outside: the bytes the database holds per profile, the real server's
// start-up (`node server/server.ts`) until /api/health answers and until it reports the matching index
// ready, its memory then, and through the API on the same database the profile and hit lists (first page,
// a page near the end) and their free-text searches.
//   node --import tsx bench/scale-bench.ts <PostgreSQL|PGlite> <profiles> <hits> [postgres-url]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../server/db/database';
import { encodeGenotype } from '../server/db/genotype-codec';
import { analyses, chemistries, markers, organizations, populations, users } from '../server/db/schema';
import { seedFirstStart } from '../server/db/seed/first-start';
import { createTestApp } from '../tests/helpers/app';
import { createAccessGroup, createUser } from '../tests/helpers/factories';
import { fbi2015Population, profileGenerator } from './synthetic-profiles';
import { freePort } from '../tests/helpers/free-port';
import { runFromCommandLine } from './command-line';

export interface ScaleBenchResult {
  database: 'PostgreSQL' | 'PGlite';
  profiles: number;
  hits: number;
  /** pg_total_relation_size(profiles) per profile: every column and every index of the table. */
  profileTableBytes: number;
  /** avg(pg_column_size(genotype)): the marker values of one profile. */
  genotypeBytes: number;
  healthMs: number;
  readyMs: number;
  readyRssMb: number;
  profileFirstPageMs: number;
  profileDeepPageMs: number;
  /** The Review list: the PENDING profiles among the N approved, first page and its last page. */
  reviewFirstPageMs: number;
  reviewDeepPageMs: number;
  caseFirstPageMs: number;
  caseDeepPageMs: number;
  /** The review figures (pending profiles and hits of the organization). */
  reviewCountsMs: number;
  profileSearchMs: number;
  profileCaseSearchMs: number;
  hitFirstPageMs: number;
  hitDeepPageMs: number;
  hitSearchMs: number;
  found: { profileSearch: number; caseSearch: number; hitSearch: number };
}

export const ADMIN = { email: 'scale-bench@locus.test', password: 'bench-only-password-Not-A-Secret-1' };
export const CASES = 1000;
/** The seed of load()'s references: profileGenerator(fbi2015Population(), REFERENCE_SEED) draws them again, in order. */
export const REFERENCE_SEED = 15_000_001;
const BATCH = 10_000;
/** The fixed review time of every loaded profile: searchedAt equal to reviewedAt means "searched", so start-up queues nothing. */
const REVIEWED = '2026-01-01T00:00:00Z';
const PAGE_SIZE = 50;
/** Profiles waiting for review among the approved ones (issue 29 measured its Review list with 420). */
const PENDING = 420;

// The PGlite run's server must not find a DATABASE_URL in the environment it inherits.
const withoutDatabaseUrl = ({ DATABASE_URL: _ignored, ...env }: NodeJS.ProcessEnv) => env;
/** A PostgreSQL array literal of plain words (names, UUIDs, hex): one parameter, where drizzle would spread a JS array into a row. */
const arrayLiteral = (words: readonly string[]) => `{${words.join(',')}}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const profileName = (i: number) => `OFF-${String(i + 1).padStart(7, '0')}`;
export const caseNumber = (c: number) => `SCALE-${String(c + 1).padStart(4, '0')}`;

/** Writes the organization, cases, N approved references with packed genotypes and H pending hits. */
export async function load(database: Database, n: number, h: number, log: (l: string) => void): Promise<{ organizationId: string }> {
  const db = database.db;
  await seedFirstStart(db, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, demo: false });
  const [org] = await db.insert(organizations).values({ name: 'Scale laboratory' }).returning();
  const [caseType] = await db.execute<{ id: string }>(sql`select id from case_types limit 1`).then((r) => (r as unknown as { rows: { id: string }[] }).rows);
  await db.execute(sql`
    insert into cases (case_number, case_type_id, organization_id)
    select 'SCALE-' || lpad(g::text, 4, '0'), ${caseType!.id}::uuid, ${org!.id}::uuid from generate_series(1, ${CASES}) g`);
  const caseIds = ((await db.execute(sql`select id from cases where organization_id = ${org!.id}::uuid order by case_number`)) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const codes = new Map((await db.select({ name: markers.name, code: markers.code }).from(markers)).map((m) => [m.name, m.code]));
  const generate = profileGenerator(fbi2015Population(), REFERENCE_SEED);
  log(`writing ${n.toLocaleString('en')} approved references…`);
  for (let start = 0; start < n; start += BATCH) {
    const count = Math.min(BATCH, n - start);
    const names: string[] = [];
    const caseOf: string[] = [];
    const genotypes: string[] = [];
    for (let k = 0; k < count; k++) {
      const i = start + k;
      names.push(profileName(i));
      // A case's profiles are entered together (an import, a batch of offenders), as a laboratory enters them.
      caseOf.push(caseIds[Math.floor((i * CASES) / n)]!);
      const entries = [...generate()].map(([marker, alleles]) => ({ code: codes.get(marker)!, alleles }));
      genotypes.push(Buffer.from(encodeGenotype(entries)).toString('hex'));
    }
    await db.execute(sql`
      insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, reviewed_at, searched_at, genotype)
      select p.name, p.case_id, ${org!.id}::uuid, 'Autosomal', ${chemistry!.id}::uuid, 'Convicted Offender', 'approved', ${REVIEWED}::timestamptz, ${REVIEWED}::timestamptz, decode(p.genotype, 'hex')
      from unnest(${arrayLiteral(names)}::text[], ${arrayLiteral(caseOf)}::uuid[], ${arrayLiteral(genotypes)}::text[]) as p(name, case_id, genotype)`);
  }
  // Entered before the approved ones were loaded: the Review list's rows sit at the far end of the list's order.
  await db.execute(sql`
    insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, status, created_at, updated_at)
    select 'PENDING-' || g, ${caseIds[0]!}::uuid, ${org!.id}::uuid, 'Autosomal', ${chemistry!.id}::uuid, 'Forensic, Unknown', 'pending', ${REVIEWED}::timestamptz - g * interval '1 hour', ${REVIEWED}::timestamptz - g * interval '1 hour'
    from generate_series(1, ${PENDING}) g`);
  if (h > 0) {
    log(`writing ${h.toLocaleString('en')} pending hits…`);
    const [analysis] = await db.select({ id: analyses.id }).from(analyses).limit(1);
    const [population] = await db.select({ id: populations.id }).from(populations).limit(1);
    // Hit i pairs the profiles of two neighbouring rows (ids in insertion order).
    await db.execute(sql`create temporary table scale_ids as select row_number() over (order by created_at, id) - 1 as i, id from profiles`);
    await db.execute(sql`create index on scale_ids (i)`);
    for (let start = 0; start < h; start += 100_000) {
      const end = Math.min(h, start + 100_000) - 1;
      await db.execute(sql`
        with pairs as (
          select g, a.id as a, b.id as b from generate_series(${start}::bigint, ${end}::bigint) g
          join scale_ids a on a.i = g % ${n}
          join scale_ids b on b.i = (g + 1 + (g / ${n})) % ${n}
        ), made as (
          insert into hits (organization_id, analysis_id, population_id, combined_index, marker_count, status, dedupe_key, match_kind, profile_set, created_at, updated_at)
          select ${org!.id}::uuid, ${analysis!.id}::uuid, ${population!.id}::uuid, 1000 + g, 20, 'pending', 'scale|' || g, 'kinship',
                 least(a::text, b::text) || ',' || greatest(a::text, b::text), now() - g::int * interval '1 second', now() - g::int * interval '1 second'
          from pairs returning id, dedupe_key
        )
        insert into hit_profiles (hit_id, role, position, profile_id)
        select m.id, r.role, r.position, case r.position when 0 then p.a else p.b end
        from made m join pairs p on m.dedupe_key = 'scale|' || p.g
        cross join (values ('Person 1', 0), ('Person 2', 1)) r(role, position)`);
    }
    await db.execute(sql`drop table scale_ids`);
  }
  // What autovacuum does within a minute of a bulk insert on PostgreSQL (statistics, and the visibility map that
  // lets the lists read their indexes without the table). PGlite runs no autovacuum: there it stands for a VACUUM run by hand.
  await db.execute(sql`vacuum analyze`);
  return { organizationId: org!.id };
}

/** Starts the real server on the database and times /api/health until it answers and until the index is ready. */
async function startServer(env: Record<string, string>, log: (l: string) => void): Promise<{ healthMs: number; readyMs: number; readyRssMb: number }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../server/server.ts')], {
    env: { ...withoutDatabaseUrl(process.env), ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: origin, LOCUS_DEMO: 'false', LOCUS_ADMIN_EMAIL: ADMIN.email, LOCUS_ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let healthMs = 0;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before its index was ready`);
      const body = await fetch(`${origin}/api/health`)
        .then((r) => (r.ok ? (r.json() as Promise<{ index?: { state?: string; loaded?: number; total?: number } }>) : undefined))
        .catch(() => undefined);
      if (body) {
        if (healthMs === 0) {
          healthMs = performance.now() - t0;
          log(`health answered after ${(healthMs / 1000).toFixed(1)} s: ${JSON.stringify(body)}`);
        }
        if (body.index?.state === 'ready') break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const readyMs = performance.now() - t0;
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return { healthMs, readyMs, readyRssMb: rss ? Number(rss[1]) / 1024 : NaN };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** Median time of an authenticated GET through the app on the same database; returns the last body's count of items. */
async function timeGet(app: Awaited<ReturnType<typeof createTestApp>>['app'], token: string, url: string, runs = 5): Promise<{ ms: number; items: number }> {
  const times: number[] = [];
  let items = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    times.push(performance.now() - t0);
    if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    items = (res.json() as { items?: unknown[] }).items?.length ?? 0;
  }
  return { ms: median(times), items };
}

export async function runScaleBench(opts: { database: 'PostgreSQL' | 'PGlite'; profiles: number; hits: number; url: string; log?: (l: string) => void }): Promise<ScaleBenchResult> {
  const log = (l: string) => (opts.log ?? console.log)(`${opts.database}: ${l}`);
  const { openPglite } = await import('../server/db/database');
  const folder = mkdtempSync(path.join(tmpdir(), 'locus-scale-bench-'));
  let database: Database;
  let serverEnv: Record<string, string>;
  if (opts.database === 'PostgreSQL') {
    const { freshPostgres } = await import('../tests/helpers/database');
    // Closing it (createTestApp's close, below) drops the database again.
    const fresh = await freshPostgres(opts.url);
    database = fresh;
    serverEnv = { DATABASE_URL: fresh.url, DATA_DIR: folder };
  } else {
    database = await openPglite(folder);
    await database.migrate();
    serverEnv = { DATA_DIR: folder };
  }
  try {
    const { organizationId } = await load(database, opts.profiles, opts.hits, log);
    const size = async (q: ReturnType<typeof sql>) => Number(((await database.db.execute(q)) as unknown as { rows: { v: string | number }[] }).rows[0]!.v);
    const profileTableBytes = (await size(sql`select pg_total_relation_size('profiles') as v`)) / opts.profiles;
    const genotypeBytes = await size(sql`select avg(pg_column_size(genotype)) as v from profiles`);
    log(`profiles table ${profileTableBytes.toFixed(0)} B/profile (genotype ${genotypeBytes.toFixed(0)} B)`);
    // PGlite is one process's: the server opens the folder only after this process lets go of it.
    if (opts.database === 'PGlite') await database.close();
    const started = await startServer(serverEnv, log);
    log(`index ready after ${(started.readyMs / 1000).toFixed(1)} s, RSS ${started.readyRssMb.toFixed(0)} MB`);
    if (opts.database === 'PGlite') {
      database = await openPglite(folder);
    }

    const t = await createTestApp({ database });
    try {
      const group = await createAccessGroup(database.db, { name: 'Scale readers', grants: { Profiles: ['Read'], Cases: ['Read'], Hits: ['Read', 'Publish'] } });
      const user = await createUser(database.db, { email: 'reader@locus.test', accessGroupId: group.id, organizationIds: [organizationId] });
      const token = t.verifier.issue(user.id);
      const deepPage = Math.floor((opts.profiles * 0.9) / PAGE_SIZE);
      const deepHitPage = Math.floor((opts.hits * 0.9) / PAGE_SIZE);
      const list = `/api/organizations/${organizationId}/profiles?pageSize=${PAGE_SIZE}`;
      const hitList = `/api/organizations/${organizationId}/hits?pageSize=${PAGE_SIZE}`;
      const target = profileName(Math.floor(opts.profiles * 0.77));
      const first = await timeGet(t.app, token, `${list}&page=0`);
      const deep = await timeGet(t.app, token, `${list}&page=${deepPage}`);
      const search = await timeGet(t.app, token, `${list}&page=0&search=${encodeURIComponent(target.slice(4))}`);
      const caseSearch = await timeGet(t.app, token, `${list}&page=0&search=${encodeURIComponent(caseNumber(777))}`);
      const review = `${list}&status=pending`;
      const reviewFirst = await timeGet(t.app, token, `${review}&page=0`);
      const reviewDeep = await timeGet(t.app, token, `${review}&page=${Math.floor((PENDING * 0.9) / PAGE_SIZE)}`);
      const caseList = `/api/organizations/${organizationId}/cases?pageSize=${PAGE_SIZE}`;
      const caseFirst = await timeGet(t.app, token, `${caseList}&page=0`);
      const caseDeep = await timeGet(t.app, token, `${caseList}&page=${Math.floor((CASES * 0.9) / PAGE_SIZE)}`);
      const counts = await timeGet(t.app, token, `/api/organizations/${organizationId}/review-counts`);
      const hitFirst = opts.hits > 0 ? await timeGet(t.app, token, `${hitList}&page=0`) : { ms: NaN, items: 0 };
      const hitDeep = opts.hits > 0 ? await timeGet(t.app, token, `${hitList}&page=${deepHitPage}`) : { ms: NaN, items: 0 };
      const hitSearch = opts.hits > 0 ? await timeGet(t.app, token, `${hitList}&page=0&search=${encodeURIComponent(target.slice(4))}`) : { ms: NaN, items: 0 };
      return {
        database: opts.database,
        profiles: opts.profiles,
        hits: opts.hits,
        profileTableBytes,
        genotypeBytes,
        ...started,
        profileFirstPageMs: first.ms,
        profileDeepPageMs: deep.ms,
        profileSearchMs: search.ms,
        profileCaseSearchMs: caseSearch.ms,
        reviewFirstPageMs: reviewFirst.ms,
        reviewDeepPageMs: reviewDeep.ms,
        caseFirstPageMs: caseFirst.ms,
        caseDeepPageMs: caseDeep.ms,
        reviewCountsMs: counts.ms,
        hitFirstPageMs: hitFirst.ms,
        hitDeepPageMs: hitDeep.ms,
        hitSearchMs: hitSearch.ms,
        found: { profileSearch: search.items, caseSearch: caseSearch.items, hitSearch: hitSearch.items },
      };
    } finally {
      await t.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runFromCommandLine(runScaleBench);
