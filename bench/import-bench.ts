// Issue 13 "Speed": 100,000 reference profiles in a generated GeneMapper long table, uploaded through the
// HTTP API, parsed in the worker, previewed (first and last page) and added to the database in batches —
// on PGlite and on PostgreSQL. Measured from this process: total time, peak RSS, and the worst event-loop
// delay seen while it ran (every other request waits at least that long).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import type { ProfileImportJob } from '../core/schemas/profile-imports';
import type { Database } from '../server/db/database';
import { caseTypes, cases, chemistries, organizations } from '../server/db/schema';
import { seedReferenceData } from '../server/db/seed/reference-data';
import { createTestApp } from '../tests/helpers/app';
import { createAccessGroup, createUser } from '../tests/helpers/factories';
import { CODIS_CORE, fbi2015Population, profileGenerator } from './synthetic-profiles';
import { watchStalls, type Stall } from './thread-stalls';

/** POSTs a file as multipart/form-data with curl (another process); resolves with the status and body. */
async function curlUpload(url: string, token: string, fields: Record<string, string>, file: string): Promise<{ statusCode: number; body: string }> {
  const { execFile } = await import('node:child_process');
  const args = ['-s', '-w', '\n%{http_code}', '-H', `Authorization: Bearer ${token}`, ...Object.entries(fields).flatMap(([k, v]) => ['-F', `${k}=${v}`]), '-F', `file=@${file}`, url];
  const out = await new Promise<string>((resolve, reject) => execFile('curl', args, { maxBuffer: 1 << 24 }, (err, stdout) => (err ? reject(err) : resolve(stdout))));
  const cut = out.lastIndexOf('\n');
  return { statusCode: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

/** A migrated PGlite in a fresh temporary data folder, removed again on close. */
async function pgliteInFolder(): Promise<Database> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { openPglite } = await import('../server/db/database');
  const folder = mkdtempSync(join(tmpdir(), 'locus-import-bench-'));
  const database = await openPglite(folder);
  await database.migrate();
  return { ...database, close: async () => { await database.close(); rmSync(folder, { recursive: true, force: true }); } };
}

export interface ImportBenchResult {
  database: 'PGlite' | 'PostgreSQL';
  profiles: number;
  fileMb: number;
  parseMs: number;
  addMs: number;
  totalMs: number;
  profilesPerSecond: number;
  peakRssMb: number;
  maxEventLoopDelayMs: number;
  /** Longest wait of a GET /api/health sent every 250 ms while the import ran. */
  maxHealthMs: number;
  /** The worst probe while the add ran (the rest was during the upload and parse). */
  maxHealthAddMs: number;
  /** Another user's list pages (cases, profiles; one every 250 ms) while the add ran (issue 29): how long each took. */
  listPageMs: { count: number; p50: number; p95: number; max: number };
  /** The request thread's longest late tick in each phase ('parse', 'add') and how much of it was spent waiting for a CPU (null off Linux). */
  stalls: Record<string, Stall> | null;
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;

/** A GeneMapper ID-X genotypes table (long layout): one row per sample and marker. */
export function genemapperLongTable(count: number, seed = 13): string {
  const generate = profileGenerator(fbi2015Population(), seed);
  const lines = ['Sample Name\tMarker\tAllele 1\tAllele 2'];
  for (let i = 0; i < count; i++) {
    const name = `OFF-${String(i + 1).padStart(7, '0')}`;
    for (const [marker, alleles] of generate()) {
      if (!(CODIS_CORE as readonly string[]).includes(marker)) continue;
      lines.push(`${name}\t${marker}\t${alleles[0]}\t${alleles[1] ?? alleles[0]}`);
    }
  }
  return `${lines.join('\r\n')}\r\n`;
}

export async function runImportBench(opts: { profiles: number; database: Database; label: ImportBenchResult['database']; log?: (line: string) => void }): Promise<ImportBenchResult> {
  const log = opts.log ?? (() => undefined);
  const t = await createTestApp({ database: opts.database });
  let folder: string | undefined;
  try {
    const db = t.database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    const [org] = await db.insert(organizations).values({ name: 'Bench laboratory' }).returning();
    const group = await createAccessGroup(db, { name: 'Bench analysts', grants: { Profiles: ['Read', 'Add'], Cases: ['Read'] } });
    const user = await createUser(db, { email: 'bench@locus.test', accessGroupId: group.id, organizationIds: [org!.id] });
    const token = t.verifier.issue(user.id);
    // Issue 29: a colleague in the same laboratory reading lists while the import is added.
    const readers = await createAccessGroup(db, { name: 'Bench readers', grants: { Profiles: ['Read'], Cases: ['Read'] } });
    const colleague = await createUser(db, { email: 'colleague@locus.test', accessGroupId: readers.id, organizationIds: [org!.id] });
    const colleagueToken = t.verifier.issue(colleague.id);
    const [caseType] = await db.select().from(caseTypes).limit(1);
    const [caseRow] = await db.insert(cases).values({ caseNumber: 'BENCH-IMPORT', caseTypeId: caseType!.id, organizationId: org!.id }).returning();
    const [chemistry] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
    const text = genemapperLongTable(opts.profiles);
    const file = Buffer.from(text);
    log(`${opts.label}: importing ${opts.profiles.toLocaleString('en')} references (${(file.length / 1e6).toFixed(1)} MB)…`);
    const auth = { authorization: `Bearer ${token}` };
    // Every call goes over a real socket, as a browser's would: an injected 50 MB upload would reach the
    // multipart parser as one chunk, which no real client sends.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const call = async (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) => {
      const res = await fetch(`${origin}${url}`, {
        method,
        headers: { ...auth, ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { body: JSON.stringify(payload) } : {}),
      });
      const body = await res.text();
      return { statusCode: res.status, body, json: () => JSON.parse(body) as unknown, headers: Object.fromEntries(res.headers) };
    };

    // The upload comes from another process (curl), as a browser's would: building a 50 MB multipart body
    // is the client's work, not the server's, and must not count in this process's event-loop delay. Its file is
    // written before the probes start and removed after they stop: a synchronous write of 52 MB in this process
    // (the server's too) held its event loop 96-143 ms, counted as the server's longest stall and a late probe.
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    folder = mkdtempSync(join(tmpdir(), 'locus-import-upload-'));
    const where = join(folder, 'offenders.txt');
    writeFileSync(where, file);

    const delay = monitorEventLoopDelay({ resolution: 10 });
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
    // A second user's requests over a real socket (inject would bypass the event loop): how long each waits.
    // The worst probe per phase: the upload and parse (a worker thread), then the add (batches on the database).
    const maxHealth = { parse: 0, add: 0 };
    let phase: keyof typeof maxHealth = 'parse';
    // Whether a late answer was this process's code or the machine's busy cores (thread-stalls.ts).
    const stalls = watchStalls(phase);
    const prober = setInterval(() => {
      const t0 = performance.now();
      const during = phase;
      void fetch(`${origin}/api/health`).then(async (r) => {
        await r.arrayBuffer();
        maxHealth[during] = Math.max(maxHealth[during], performance.now() - t0);
      });
    }, 250);
    const poll = async (id: string, until: ReadonlySet<string>): Promise<{ job: ProfileImportJob; token: string | undefined }> => {
      for (;;) {
        const res = await call('GET', `/api/profile-imports/${id}`);
        const job = res.json() as ProfileImportJob;
        if (until.has(job.state)) return { job, token: res.headers['approval-token'] };
        await new Promise((r) => setTimeout(r, 200));
      }
    };

    delay.enable();
    const t0 = performance.now();
    const started = await curlUpload(`${origin}/api/profile-imports`, token, { caseId: caseRow!.id }, where);
    const startedJob = JSON.parse(started.body) as ProfileImportJob;
    if (started.statusCode !== 202) throw new Error(`upload: ${started.statusCode} ${started.body.slice(0, 300)}`);
    const { job: parsed, token: approval } = await poll(startedJob.id, new Set(['parsed', 'failed']));
    if (parsed.state !== 'parsed' || parsed.profileCount !== opts.profiles || parsed.flaggedCount !== 0) throw new Error(`parse: ${JSON.stringify(parsed).slice(0, 400)}`);
    for (const page of [0, Math.floor((opts.profiles - 1) / 100)]) {
      const res = await call('GET', `/api/profile-imports/${parsed.id}/profiles?page=${page}&pageSize=100`);
      if (res.statusCode !== 200) throw new Error(`preview: ${res.body}`);
    }
    const t1 = performance.now();
    phase = 'add';
    stalls.phase(phase);
    // The colleague's list pages, one every 250 ms over a socket, the case list and the profile list in turn.
    const listPages: number[] = [];
    const listFailures: string[] = [];
    let nextList = 0;
    const lister = setInterval(() => {
      const url = nextList++ % 2 === 0 ? '/api/cases?page=0&pageSize=50' : '/api/profiles?page=0&pageSize=50';
      const t0 = performance.now();
      void fetch(`${origin}${url}`, { headers: { authorization: `Bearer ${colleagueToken}` } }).then(async (r) => {
        await r.arrayBuffer();
        if (r.status === 200) listPages.push(performance.now() - t0);
        else listFailures.push(`${url}: ${r.status}`);
      }, (err: unknown) => listFailures.push(`${url}: ${String(err)}`));
    }, 250);
    const add = await call(
      'POST',
      `/api/profile-imports/${parsed.id}/add`,
      { caseId: caseRow!.id, chemistryId: chemistry!.id, sampleType: 'Convicted Offender', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '' },
      { approval: approval! },
    );
    if (add.statusCode !== 202) throw new Error(`add: ${add.statusCode} ${add.body}`);
    const { job: added } = await poll(parsed.id, new Set(['added', 'parsed', 'interrupted', 'cancelled']));
    const t2 = performance.now();
    clearInterval(lister);
    delay.disable();
    clearInterval(sampler);
    clearInterval(prober);
    const requestThreadStalls = stalls.stop();
    if (added.state !== 'added' || added.addedCount !== opts.profiles) throw new Error(`add ended: ${JSON.stringify(added).slice(0, 400)}`);
    if (listFailures.length > 0) throw new Error(`list pages failed: ${listFailures.slice(0, 3).join('; ')}`);
    return {
      database: opts.label,
      profiles: opts.profiles,
      fileMb: file.length / 1e6,
      parseMs: t1 - t0,
      addMs: t2 - t1,
      totalMs: t2 - t0,
      profilesPerSecond: opts.profiles / ((t2 - t0) / 1000),
      peakRssMb: peakRss / 1e6,
      maxEventLoopDelayMs: delay.max / 1e6,
      maxHealthMs: Math.max(maxHealth.parse, maxHealth.add),
      maxHealthAddMs: maxHealth.add,
      listPageMs: { count: listPages.length, p50: percentile(listPages, 0.5), p95: percentile(listPages, 0.95), max: Math.max(...listPages) },
      stalls: requestThreadStalls,
    };
  } finally {
    if (folder) (await import('node:fs')).rmSync(folder, { recursive: true, force: true });
    await t.close();
  }
}


// Run alone (`node --import tsx bench/import-bench.ts <PGlite|PostgreSQL> <profiles> [url]`) so each
// database's peak memory is its own process's: bench/run.ts starts one such process per database.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/bench\//, '/bench/'))) {
  const [label, count, url] = process.argv.slice(2) as [ImportBenchResult['database'], string, string | undefined];
  const { freshPostgres } = await import('../tests/helpers/database');
  // PGlite as the server runs it: in a data folder (DATA_DIR), not in memory as the tests keep it.
  const database = label === 'PGlite' ? await pgliteInFolder() : await freshPostgres(url);
  const result = await runImportBench({ profiles: Number(count), database, label, log: (l) => console.error(l) });
  console.log(`RESULT ${JSON.stringify(result)}`);
  process.exit(0);
}
