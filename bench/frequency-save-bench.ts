// Issue 13 "Heavy work off the request thread": a 100,000-row Y-STR haplotype table uploaded through
// POST /populations/{id}/statistics (parse, check and the all-or-nothing save), timing the request and
// the longest stretch the event loop was blocked meanwhile, which every other request would have waited.
// Run alone: node --import tsx bench/frequency-save-bench.ts [rows] [engine…] with engines pglite (a data
// directory, as the server keeps it), pglite-memory (the tests' in-memory PGlite) and postgres; one engine a
// process gives each its own peak RSS. REPLACE=1 measures a save over an earlier one of the same size.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { markers } from '../server/db/schema';
import { SEED_MARKERS } from '../server/db/seed/reference/markers';
import { closeWorkerPools } from '../server/jobs/worker-pool';
import type { Database } from '../server/db/database';
import { createTestApp } from '../tests/helpers/app';
import { openPglite } from '../server/db/database';
import { freshPglite, freshPostgres, TEST_POSTGRES_URL } from '../tests/helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../tests/helpers/factories';
import { multipartBody } from '../tests/helpers/multipart';
import { seededRandom } from './synthetic-profiles';

export interface FrequencySaveBenchResult {
  engine: 'PGlite' | 'PostgreSQL';
  /** Data rows in the uploaded table (one man each). */
  rows: number;
  /** Distinct haplotypes stored. */
  haplotypes: number;
  /** The save request, from sending to its answer. */
  ms: number;
  /** The longest the event loop was blocked while it ran (every other request waited that long). */
  maxEventLoopDelayMs: number;
  /**
   * The most CPU the main thread spent within one such stretch (Linux; null elsewhere): on a busy machine a
   * stretch is longer than the work in it, since the thread also waits for a core.
   */
  maxBlockedCpuMs: number | null;
  /** The process's peak resident memory so far (workers included). */
  peakRssMb: number;
}

/** A Yfiler Plus-like haplotype table: marker, lowest value and how many values it spans (DYS385 takes two). */
const Y_MARKERS: readonly (readonly [string, number, number])[] = [
  ['DYS576', 14, 9], ['DYS389I', 11, 5], ['DYS635', 19, 8], ['DYS389II', 26, 7], ['DYS627', 17, 9], ['DYS460', 8, 5],
  ['DYS458', 14, 7], ['DYS19', 12, 6], ['YGATAH4', 10, 4], ['DYS448', 17, 5], ['DYS391', 9, 4], ['DYS456', 13, 5],
  ['DYS390', 21, 6], ['DYS438', 9, 5], ['DYS392', 10, 6], ['DYS518', 36, 9], ['DYS570', 15, 8], ['DYS437', 13, 4],
  ['DYS385', 10, 10], ['DYS449', 26, 8], ['DYS393', 12, 4], ['DYS439', 10, 5], ['DYS481', 20, 8],
];

/** `rows` men, one line each, most of them with a haplotype of their own (as in a real database). */
export function haplotypeTable(rows: number, seed = 13): string {
  const random = seededRandom(seed);
  const value = (low: number, span: number) => low + Math.floor(random() * span);
  const lines = [['Sample Name', ...Y_MARKERS.map(([name]) => name)].join(',')];
  for (let i = 0; i < rows; i++) {
    const cells = Y_MARKERS.map(([name, low, span]) => {
      if (name !== 'DYS385') return String(value(low, span));
      const a = value(low, span);
      return `"${a},${a + value(0, 5)}"`;
    });
    lines.push([`S${i}`, ...cells].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Watches the event loop until stopped, answering the longest stretch it was blocked (ms): the
 * histogram of perf_hooks, and a timer's own gaps, since a loop that never yields (work chained on
 * promises alone) leaves the histogram without a sample until the end.
 */
function blockedStretches(): { stop(): Promise<{ wallMs: number; cpuMs: number | null }> } {
  const TICK_MS = 5;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let longest = 0;
  let longestCpu: number | null = lastCpu === null ? null : 0;
  const tick = () => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    longest = Math.max(longest, now - last - TICK_MS);
    if (cpu !== null && lastCpu !== null) longestCpu = Math.max(longestCpu ?? 0, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, TICK_MS);
  return {
    async stop() {
      tick();
      // Lets a starved histogram timer fire once before it is read.
      await new Promise((resolve) => setTimeout(resolve, 20));
      clearInterval(timer);
      histogram.disable();
      return { wallMs: Math.max(longest, histogram.max / 1e6), cpuMs: longestCpu };
    },
  };
}

/** CPU time (user + system) of the main thread so far, from /proc (10 ms ticks); null where there is none. */
function mainThreadCpuMs(): number | null {
  try {
    // Fields after the command name: state is the 3rd, utime the 14th and stime the 15th of the whole line.
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ of Linux's /proc times. */
const CLOCK_TICKS = 100;

/**
 * Uploads a generated `rows`-row haplotype table to a new Y-STR population on `database` and measures the
 * save; `replace` first saves another table of that size, so the measured save also deletes it.
 */
export async function runFrequencySaveBench(opts: { database: Database; rows?: number; replace?: boolean }): Promise<FrequencySaveBenchResult> {
  const rows = opts.rows ?? 100_000;
  const t = await createTestApp({ database: opts.database });
  try {
    const db = t.database.db;
    await db.insert(markers).values(SEED_MARKERS.map((m) => ({ name: m.name, kind: m.kind, aliases: [...m.aliases], multiCopy: m.multiCopy ?? false })));
    const org = await createOrganization(db, 'Bench laboratory');
    const group = await createAccessGroup(db, { grants: { Populations: ['Read', 'Add', 'Edit'] } });
    const headers = { authorization: `Bearer ${t.verifier.issue((await createUser(db, { accessGroupId: group.id, organizationIds: [org.id] })).id)}` };
    const created = await t.app.inject({ method: 'POST', url: '/api/populations', headers, payload: { name: 'Bench Y-STR', kind: 'YStr', organizationIds: [org.id] } });
    const population = created.json() as { id: string; version: number };
    const url = `/api/populations/${population.id}/statistics`;
    let version = population.version;
    if (opts.replace) {
      const first = await multipartBody({ version: String(version) }, { name: 'earlier.csv', bytes: haplotypeTable(rows, 7), type: 'text/csv' });
      const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, ...first.headers }, payload: first.payload });
      if (res.statusCode !== 200) throw new Error(`The first save answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
      version = (res.json() as { version: number }).version;
    }
    const body = await multipartBody({ version: String(version) }, { name: 'haplotypes.csv', bytes: haplotypeTable(rows), type: 'text/csv' });

    const blocked = blockedStretches();
    const t0 = performance.now();
    const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, ...body.headers }, payload: body.payload });
    const ms = performance.now() - t0;
    const { wallMs: maxEventLoopDelayMs, cpuMs: maxBlockedCpuMs } = await blocked.stop();
    if (res.statusCode !== 200) throw new Error(`The save answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    const saved = res.json() as { statistics: { haplotypeCount: number; haplotypeTotal: number } };
    if (saved.statistics.haplotypeTotal !== rows) throw new Error(`Saved ${saved.statistics.haplotypeTotal} men of ${rows}`);
    return {
      engine: opts.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      rows,
      haplotypes: saved.statistics.haplotypeCount,
      ms,
      maxEventLoopDelayMs,
      maxBlockedCpuMs,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
    };
  } finally {
    await t.close();
  }
}

/** The engines the script can measure on, as the server (a data directory) and the tests (in memory) open them. */
const ENGINES: Record<string, () => Promise<Database>> = {
  pglite: async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'locus-bench-'));
    const database = await openPglite(dir);
    await database.migrate();
    return { ...database, close: async () => (await database.close(), rmSync(dir, { recursive: true, force: true })) };
  },
  'pglite-memory': freshPglite,
  postgres: () => freshPostgres(process.env.BENCH_DATABASE_URL ?? TEST_POSTGRES_URL),
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = Number(process.argv[2] ?? 100_000);
  const names = process.argv.length > 3 ? process.argv.slice(3) : Object.keys(ENGINES);
  for (const name of names) {
    const open = ENGINES[name];
    if (!open) throw new Error(`Unknown engine ${name}; use ${Object.keys(ENGINES).join(', ')}`);
    let database: Database;
    try {
      database = await open();
    } catch (err) {
      console.log(`${name}: skipped (${err instanceof Error ? err.message : String(err)})`);
      continue;
    }
    const r = await runFrequencySaveBench({ database, rows, replace: process.env.REPLACE === '1' });
    console.log(
      `${name}${process.env.REPLACE === '1' ? ' (replacing as many)' : ''}: ${r.rows.toLocaleString('en')} rows (${r.haplotypes.toLocaleString('en')} haplotypes) ` +
        `saved in ${(r.ms / 1000).toFixed(2)} s; longest event-loop block ${r.maxEventLoopDelayMs.toFixed(1)} ms` +
        `${r.maxBlockedCpuMs === null ? '' : ` (at most ${r.maxBlockedCpuMs.toFixed(0)} ms of main-thread CPU in one)`}; peak RSS ${r.peakRssMb.toFixed(0)} MB`,
    );
  }
  await closeWorkerPools();
}
