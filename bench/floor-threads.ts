// The SIMD floor on 1 and 2 threads at once (issue 29 "Using every core"): the memory's own limit for two scans at a time.
import { workerPool } from '../server/jobs/worker-pool';
import type { FloorTask } from './floor-worker';
import type { SimdFloor } from './simd-floor';

const WORKER = './floor-worker.ts';

/**
 * Time per pass (ms) of `threads` threads each making `passes` SIMD floor passes at once over the same copy: the
 * slowest thread's wall time over every pass made. Two scans at a time cannot go faster than two such passes.
 */
export async function floorAtATime(floor: SimdFloor, threads: number, passes: number): Promise<number> {
  const pool = workerPool(new URL(WORKER, import.meta.url), { maxThreads: threads, minThreads: threads });
  const arrived = new Int32Array(new SharedArrayBuffer(4));
  const { memory, length } = floor.bytes;
  const task: FloorTask = { memory, length, passes, arrived, threads };
  const done = (await Promise.all(Array.from({ length: threads }, () => pool.run(task)))) as { ms: number }[];
  return Math.max(...done.map((d) => d.ms)) / (threads * passes);
}
