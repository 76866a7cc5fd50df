// The SIMD floor on 1 and 2 threads at once (issue 29 "Using every core"): the memory's own limit for two scans at a time.
import { workerPool } from '../server/jobs/worker-pool';
import type { FloorTask } from './floor-worker';
import type { SimdFloor } from './simd-floor';

const WORKER = './floor-worker.ts';

/**
 * Time per pass (ms) of `threads` threads making `passes` SIMD floor passes at once over one copy: each thread its own
 * whole passes, each begun at another place of the copy (`split` false: the slowest thread's wall time over every pass
 * made; two scans at a time cannot go faster than two such passes), or each thread its slice of every pass (`split`: the slowest thread's wall time over
 * the passes; a search split into slices cannot read them faster).
 */
export async function floorAtATime(floor: SimdFloor, threads: number, passes: number, split = false): Promise<number> {
  const pool = workerPool(new URL(WORKER, import.meta.url), { maxThreads: threads, minThreads: threads });
  const arrived = new Int32Array(new SharedArrayBuffer(4));
  const { memory, length } = floor.bytes;
  const tasks: FloorTask[] = floorReads(length, threads, split).map((read) => ({ memory, ...read, passes, arrived, threads }));
  const done = (await Promise.all(tasks.map((task) => pool.run(task)))) as { ms: number }[];
  return Math.max(...done.map((d) => d.ms)) / ((split ? 1 : threads) * passes);
}

/** The bytes each of `threads` threads reads of a split pass: slices on 64-byte bounds (the pass reads 64 bytes a round), the last taking the rest. */
export function floorSlices(length: number, threads: number): { from: number; length: number }[] {
  const cut = (k: number) => (k === threads ? length : Math.floor((k * length) / threads / 64) * 64);
  return Array.from({ length: threads }, (_, k) => ({ from: cut(k), length: cut(k + 1) - cut(k) }));
}

/**
 * What each of `threads` threads reads a pass: its slice (`split`), or every byte, beginning at its slice's start
 * (floor-worker.ts `start`), so two whole passes at a time read apart, as two searches' scans do.
 */
export function floorReads(length: number, threads: number, split: boolean): Pick<FloorTask, 'from' | 'length' | 'start'>[] {
  const slices = floorSlices(length, threads);
  return split ? slices : slices.map(({ from }) => ({ from: 0, length, start: from }));
}
