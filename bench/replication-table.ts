// The replication table of `npm run bench` (BENCH_ONLY=replication).
import { ms, printTable } from './bench-table';
import { runInItsOwnProcess } from './own-process';
import type { ReplicationResult } from './replication-bench';

// Issue 32 "Speed", upward replication: bench/replication-bench.ts in a process of its own, which starts the local and
// the state instance as two more; BENCH_REPLICATION_PROFILES sets N (100,000 by default).
export function runReplicationTable(): void {
  const sizes = (process.env.BENCH_REPLICATION_PROFILES ?? '100000').split(',').map(Number);
  const results: ReplicationResult[] = [];
  for (const n of sizes) {
    const { result, status } = runInItsOwnProcess<ReplicationResult>('replication-bench.ts', [String(n)]);
    if (result) results.push(result);
    else console.log(`\nReplication of ${n.toLocaleString('en')} profiles ended without a result (exit ${status}): see its log above`);
  }
  const seconds = (x: number) => `${(x / 1000).toFixed(1)} s`;
  printTable(
    '\nUpward replication (issue 32): a local instance L and a state instance S, two server processes on two PostgreSQL databases of this machine, joined through the API. L seeded in bulk with approved eligible profiles and their outbox entries as the approvals write them (offenders, and one forensic unknown in 100 a 12-locus copy of an offender); timed from Deliver now at L until S holds every one (batches of 500, signed, each one transaction at S), then until S has searched them all. Hits at S: the candidate matches S would send down (counted at S until they are sent). GET /api/health of each process every 100 ms during the delivery, and each process’s event-loop delay then (measured inside it):\n',
    ['profiles', 'delivered in', 'profiles/s', 'batches', 'searched at S after', 'hits at S (planted pairs)', 'L health p99 / worst', 'S health p99 / worst', 'L loop delay p99 / max', 'S loop delay p99 / max', 'L seeded in'],
    results.map((r) => [
      r.profiles.toLocaleString('en'),
      seconds(r.deliveryMs),
      r.profilesPerSecond.toFixed(1),
      r.batches.toLocaleString('en'),
      seconds(r.searchedMs),
      `${r.hitsAtS} (${r.plantedPairs})`,
      `${ms(r.health.local.p99)} / ${ms(r.health.local.worst)}`,
      `${ms(r.health.state.p99)} / ${ms(r.health.state.worst)}`,
      `${ms(r.loopDelay.local.p99)} / ${ms(r.loopDelay.local.max)}`,
      `${ms(r.loopDelay.state.p99)} / ${ms(r.loopDelay.state.max)}`,
      seconds(r.seedMs),
    ]),
  );
}
