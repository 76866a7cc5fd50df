// The approvals table of `npm run bench`.
import { BENCH_POPULATIONS, runApprovalBench } from './approval-bench';
import { ms, printTable } from './bench-table';

// Issue 12 "Speed": approvals through the search queue the server runs, with the seed search rules, four
// FBI 2015 populations, the expected chance hits and the hit writes to PostgreSQL (BENCH_DATABASE_URL).
export async function runApprovalTable(largest: number, databaseUrl: string): Promise<void> {
  const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 1000);
  try {
    const r = await runApprovalBench({ offenders: largest, approvals: APPROVALS, url: databaseUrl, log: (l) => console.log(l) });
    const approvalRow = [
      r.offenders.toLocaleString('en'),
      r.approvals.toLocaleString('en'),
      `${r.seconds.toFixed(1)} s`,
      ms((1000 * r.seconds) / r.approvals),
      `${r.hitsRecorded} (${(r.hitsRecorded / r.approvals).toFixed(3)})`,
      `${r.plantedFound} hits for ${r.planted} planted`,
      `${ms(r.keyboardP50)} / ${ms(r.keyboardP95)}`,
      `${r.rssMiB.toFixed(0)} MiB`,
    ];
    printTable(
      `\nApprovals of forensic unknowns through the search queue (seed search rules, ${BENCH_POPULATIONS.length} FBI 2015 populations, hits written to PostgreSQL):\n`,
      ['offenders', 'approvals', 'total', 'per approval', 'hits recorded (per approval)', 'planted second sources found', 'keyboard search with chance figure p50/p95', 'RSS'],
      [approvalRow],
    );
  } catch (err) {
    console.log(`\nApproval benchmark skipped: no PostgreSQL at ${databaseUrl} (${err instanceof Error ? err.message : String(err)})`);
  }
}
