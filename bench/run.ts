// npm run bench — the matching engine at database scale (issues 6 and 12 "Speed"): index build, bytes per
// profile, identity (moderate), kinship ranking and familial search against the floor, and 1,000 approvals
// through the search queue with the seed search rules and the hit writes to PostgreSQL. Each table is a file of
// its own; this one only says which run, in the order they print.
import { runApprovalTable } from './approval-table';
import { runEngineTables } from './engine-table';
import { runImportTable } from './import-table';
import { runScaleTable } from './scale-table';
import { runSelfComparisonBench } from './self-comparison-bench';
import { runMixtureCalculatorBench } from './mixture-calculator-bench';
import { runContinuousBench } from './continuous-bench';
import { runContinuousSearchTable } from './continuous-search-table';
import { runReplicationTable } from './replication-table';
import { runServerTable } from './server-table';
import { runNationalTable } from './national-table';

/** Which tables to run (BENCH_ONLY=index,approvals,imports,scale,selfcompare,server,mixturecalc,continuous,national,replication); all by default. */
const ONLY = new Set((process.env.BENCH_ONLY ?? 'index,approvals,imports,scale,selfcompare,server,mixturecalc,continuous,national,replication').split(','));
const SIZES = (process.env.BENCH_SIZES ?? "100000,1000000").split(",").map(Number);
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

if (ONLY.has('index')) await runEngineTables(SIZES);
if (ONLY.has('approvals')) await runApprovalTable(SIZES[SIZES.length - 1]!, databaseUrl);
if (ONLY.has('imports')) runImportTable(databaseUrl);
if (ONLY.has('scale')) runScaleTable(databaseUrl);
if (ONLY.has('server')) runServerTable(databaseUrl);
// Issue 15 "Database self-comparison": every pair of approved profiles compared (≤ 2 differences).
if (ONLY.has('selfcompare')) {
  const sizes = (process.env.BENCH_SELF_SIZES ?? '50000,1000000').split(',').map(Number);
  await runSelfComparisonBench(sizes);
}
// Issue 30 "Mixture calculator speed": the calculator's call on a 3-person ESX17 stain with three replicates.
if (ONLY.has('mixturecalc')) runMixtureCalculatorBench();
// Issue 31 "Speed": the continuous model's fixed-parameter likelihood and full fit on the same stain with heights.
if (ONLY.has('continuous')) {
  runContinuousBench();
  // Issue 31 "Speed": the quantitative database search's pass after the Hd fit against the SIMD floor (1,000,000 by default).
  runContinuousSearchTable(process.env.BENCH_SIZES ? SIZES : [1_000_000]);
}
// Issue 32 "Speed": a national index (BENCH_NATIONAL_SIZE, 25,000,000 by default) built in memory and searched on the pool.
if (ONLY.has('national')) await runNationalTable(Number(process.env.BENCH_NATIONAL_SIZE ?? 25_000_000));
// Issue 32 "Speed": upward replication from a local to a state instance, two server processes (BENCH_REPLICATION_PROFILES).
if (ONLY.has('replication')) runReplicationTable();
process.exit(0);
