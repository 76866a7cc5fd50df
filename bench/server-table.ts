// The server table of `npm run bench`.
import { ms, printTable } from './bench-table';
import { runInItsOwnProcess } from './own-process';
import type { ServerBenchResult } from './server-bench';

// Issue 29 "The server table": the real server process over HTTP (bench/server-bench.ts), each database in a process
// of its own; BENCH_SERVER_SIZES=database:profiles:hits,… (PostgreSQL 1,000,000 / 100,000 and PGlite 100,000 / 10,000 by default).
export function runServerTable(databaseUrl: string): void {
  const serverRuns = (process.env.BENCH_SERVER_SIZES ?? 'PostgreSQL:1000000:100000,PGlite:100000:10000').split(',').map((s) => {
    const [kind, profiles, hitCount] = s.split(':');
    return { kind: kind === 'PGlite' ? ('PGlite' as const) : ('PostgreSQL' as const), profiles: Number(profiles), hits: Number(hitCount ?? 0) };
  });
  const serverResults: ServerBenchResult[] = [];
  for (const run of serverRuns) {
    const { result, status } = runInItsOwnProcess<ServerBenchResult>('server-bench.ts', [run.kind, String(run.profiles), String(run.hits), databaseUrl]);
    if (result) serverResults.push(result);
    else console.log(`\nServer benchmark on ${run.kind} (${run.profiles.toLocaleString('en')} profiles) ended without a result (exit ${status}): see its log above`);
  }
  if (serverResults.length === 0) return;
  const rows = serverResults.flatMap((r) =>
    r.scenarios.map((s) => [
      r.database,
      `${r.profiles.toLocaleString('en')} / ${r.hits.toLocaleString('en')}`,
      s.name,
      String(s.runs),
      ms(s.p50),
      ms(s.p95),
      ms(s.max),
      `${ms(s.loopP99)} / ${ms(s.loopMax)}`,
      `${ms(s.healthP99)} / ${ms(s.healthMax)} (${s.healthProbes})`,
      s.note,
    ]),
  );
  const started = serverResults.map((r) => `${r.database}: index ready ${(r.readyMs / 1000).toFixed(1)} s after start, RSS ${r.readyRssMb.toFixed(0)} MB then, ${r.endRssMb.toFixed(0)} MB at the end; search threads ${r.searchThreads}`).join('; ');
  printTable(
    `\nThe real server over HTTP (node server/server.ts; personal access tokens; four FBI 2015 populations uploaded through the API; page size 50; approvals timed from the first call until every search is done and its hits written; the event-loop delay measured inside the server and GET /api/health every 100 ms, both during each scenario only; the start-up row timed from the process's start until its index was ready, its probes and loop delay from its first answer). ${started}:\n`,
    ['database', 'profiles / hits', 'scenario', 'runs', 'p50', 'p95', 'max', 'server event-loop delay p99 / max', 'GET /api/health p99 / worst (probes)', 'result'],
    rows,
  );
}
