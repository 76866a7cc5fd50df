// Bench-only preload (issue 29): measures the event-loop delay of the process it is loaded into, from inside it,
// without a line of product code. bench/server-bench.ts starts the real server with
//   node --import tsx --import ./bench/loop-delay-probe.mjs server/server.ts
// and LOCUS_BENCH_LOOP_DELAY_FILE set; on each SIGUSR2 the probe writes the delays since the last signal (ms)
// to that file, as one JSON object { seq, count, p50, p99, max, mean } with a rising `seq`, then starts counting
// afresh. Plain JavaScript: the search workers inherit the --import, and a worker may load it before tsx's hooks
// are in place there. It runs on the main thread (the request thread) only.
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.LOCUS_BENCH_LOOP_DELAY_FILE;
if (isMainThread && file) {
  // 10 ms timer: the delay recorded is how late each tick of it ran.
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let seq = 0;
  const ms = (ns) => (Number.isFinite(ns) ? ns / 1e6 : 0);
  process.on('SIGUSR2', () => {
    const sample = { seq: ++seq, count: histogram.count, p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
    // Written whole, then renamed: the bench never reads half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(sample));
    renameSync(`${file}.tmp`, file);
    histogram.reset();
  });
}
