// The scale table of `npm run bench`.
import { ms, printTable } from './bench-table';
import { resultOfOwnProcess } from './own-process';
import type { ScaleBenchResult } from './scale-bench';

// Issue 15 "An honest benchmark": a national database through the real server — bytes per profile in the
// database, start-up until the matching index is ready, list pages and free-text search (PostgreSQL at
// BENCH_SCALE_PROFILES, 1M by default, with as many hits; PGlite at BENCH_SCALE_PGLITE, 100k).
export function runScaleTable(databaseUrl: string): void {
  const scaleRuns: [ScaleBenchResult['database'], number][] = [
    ['PostgreSQL', Number(process.env.BENCH_SCALE_PROFILES ?? 1_000_000)],
    ['PGlite', Number(process.env.BENCH_SCALE_PGLITE ?? 100_000)],
  ];
  const scaleRows: string[][] = [];
  for (const [kind, n] of scaleRuns) {
    try {
      const r = resultOfOwnProcess<ScaleBenchResult>('scale-bench.ts', [kind, String(n), String(n), databaseUrl], `${kind} scale`);
      scaleRows.push([
        r.database,
        `${r.profiles.toLocaleString('en')} / ${r.hits.toLocaleString('en')}`,
        `${r.genotypeBytes.toFixed(0)} B / ${r.profileTableBytes.toFixed(0)} B`,
        `${(r.healthMs / 1000).toFixed(1)} s / ${(r.readyMs / 1000).toFixed(1)} s`,
        `${r.readyRssMb.toFixed(0)} MB`,
        `${ms(r.profileFirstPageMs)} / ${ms(r.profileDeepPageMs)}`,
        `${ms(r.profileSearchMs)} (${r.found.profileSearch}) / ${ms(r.profileCaseSearchMs)} (${r.found.caseSearch})`,
        `${ms(r.reviewFirstPageMs)} / ${ms(r.reviewDeepPageMs)}`,
        `${ms(r.caseFirstPageMs)} / ${ms(r.caseDeepPageMs)}`,
        ms(r.reviewCountsMs),
        `${ms(r.hitFirstPageMs)} / ${ms(r.hitDeepPageMs)}`,
        `${ms(r.hitSearchMs)} (${r.found.hitSearch})`,
      ]);
    } catch (err) {
      console.log(`\nScale benchmark on ${kind} skipped: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  printTable(
    `\nA national database through the real server (bytes from the database; start-up of server/server.ts; lists through the API, median of 5, page size 50):\n`,
    ['database', 'profiles / hits', 'marker values / whole profile row (indexes incl.)', 'start-up: health / index ready', 'server RSS ready', 'profile list: first / 90% page', 'profile search: name / case (found)', 'Review list (pending profiles): first / 90% page', 'case list: first / 90% page', 'review counts', 'hit list: first / 90% page', 'hit search (found)'],
    scaleRows,
  );
}
