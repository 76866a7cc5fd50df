// The import table of `npm run bench`.
import { ms, printTable } from './bench-table';
import type { ImportBenchResult } from './import-bench';
import { resultOfOwnProcess } from './own-process';

// Issue 13 "Speed": 100,000 references in a generated GeneMapper long table, uploaded, parsed in the
// worker, previewed and added through the HTTP API, to PGlite and to PostgreSQL (BENCH_IMPORT_PROFILES).
const IMPORT_PROFILES = Number(process.env.BENCH_IMPORT_PROFILES ?? 100_000);

export function runImportTable(databaseUrl: string): void {
  const importRows: string[][] = [];
  for (const kind of (process.env.BENCH_IMPORT_DATABASES ?? 'PGlite,PostgreSQL').split(',') as ('PGlite' | 'PostgreSQL')[]) {
    try {
      // In a process of its own: its peak RSS is then the import's, not the earlier runs'.
      const r = resultOfOwnProcess<ImportBenchResult>('import-bench.ts', [kind, String(IMPORT_PROFILES), databaseUrl], `${kind} import`);
      importRows.push([
        r.database,
        r.profiles.toLocaleString('en'),
        `${r.fileMb.toFixed(1)} MB`,
        `${(r.parseMs / 1000).toFixed(1)} s`,
        `${(r.addMs / 1000).toFixed(1)} s`,
        `${(r.totalMs / 1000).toFixed(1)} s`,
        r.profilesPerSecond.toFixed(0),
        `${r.peakRssMb.toFixed(0)} MB`,
        ms(r.maxEventLoopDelayMs),
        `${ms(r.maxHealthMs)} (${ms(r.maxHealthAddMs)})`,
        `${ms(r.listPageMs.p50)} / ${ms(r.listPageMs.p95)} / ${ms(r.listPageMs.max)} (${r.listPageMs.count})`,
        r.stalls ? (['parse', 'add'] as const).map((p) => (r.stalls![p] ? `${ms(r.stalls![p].ms)} (${ms(r.stalls![p].waitingForCpuMs)})` : '-')).join(' / ') : '-',
      ]);
    } catch (err) {
      console.log(`\nImport benchmark on ${kind} skipped: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  printTable(
    `\nImport of references (GeneMapper long table, CODIS 20, through the HTTP API; a second client polls /api/health every 250 ms; another user of the laboratory asks for the case list or the profile list every 250 ms while the add runs — target on PGlite p95 ≤ 500 ms, issue 29):\n`,
    ['database', 'profiles', 'file', 'upload + parse + preview', 'add', 'total', 'profiles/s', 'peak RSS', 'worst event-loop delay', 'worst GET /api/health (during the add)', "another user's list page during the add p50 / p95 / max (pages)", 'request thread longest stall, upload + parse / add (of it waiting for a CPU)'],
    importRows,
  );
}
