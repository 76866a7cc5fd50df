// The approvals table of `npm run bench`.
import { BENCH_POPULATIONS, runApprovalBench } from './approval-bench';
import { ms, printTable } from './bench-table';

// Issue 12 "Speed": approvals through the search queue the server runs, with the seed search rules, four
// FBI 2015 populations, the expected chance hits and the hit writes to PostgreSQL (BENCH_DATABASE_URL).
export async function runApprovalTable(largest: number, databaseUrl: string): Promise<void> {
  const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 1000);
  // Issue 29: forensic mixtures on the pool's threads (BENCH_MIXTURES approvals, BENCH_THREADS threads).
  const MIXTURES = Number(process.env.BENCH_MIXTURES ?? 1000);
  const THREADS = Number(process.env.BENCH_THREADS ?? 2);
  try {
    const r = await runApprovalBench({ offenders: largest, approvals: APPROVALS, mixtures: MIXTURES, threads: THREADS, url: databaseUrl, log: (l) => console.log(l) });
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
    const m = r.mixtures;
    if (m) {
      printTable(
        `\nApprovals of forensic mixtures (2–3 people, seed rules: identity and the 3-contributor mixture rule with the conservative Monte-Carlo drop-out, ${BENCH_POPULATIONS.length} FBI 2015 populations) on ${m.threads} search threads, hits written (target: 1,000 at 1M in ≤ 5 minutes):\n`,
        ['offenders', 'approvals', 'total', 'per approval', 'CPU per approval (all threads)', 'hits recorded', 'planted contributors found'],
        [[r.offenders.toLocaleString('en'), m.approvals.toLocaleString('en'), `${m.seconds.toFixed(1)} s`, ms((1000 * m.seconds) / m.approvals), ms((1000 * m.cpuSeconds) / m.approvals), String(m.hitsRecorded), `${m.plantedFound} hits for ${m.planted} planted`]],
      );
    }
  } catch (err) {
    console.log(`\nApproval benchmark skipped: no PostgreSQL at ${databaseUrl} (${err instanceof Error ? err.message : String(err)})`);
  }
}
