// A thread of floor-threads.ts: SIMD floor passes (simd-floor.ts) over the copy another thread made, in shared memory.
import { FLOOR_MODULE } from './simd-floor';

/** What a thread is sent: the copy, how many passes, and the count of threads that must arrive before any starts. */
export interface FloorTask {
  memory: WebAssembly.Memory;
  /** The bytes this thread reads a pass: from `from` (a multiple of 64), `length` of them (a multiple of 64). */
  from: number;
  length: number;
  /**
   * Where in those bytes each pass begins (a multiple of 64; `from` when absent): it reads on to their end, then from
   * `from` up to here. Two whole passes at once begun at the same byte read in step, the second finding in the cache
   * what the first just brought, which two scans of different searches never do.
   */
  start?: number;
  passes: number;
  arrived: Int32Array;
  threads: number;
}

let module: WebAssembly.Module | undefined;

/** The wall time (ms) of `passes` passes, started once every thread of the task has arrived (so they read at once). */
export default function floorPasses({ memory, from, length, start = from, passes, arrived, threads }: FloorTask): { ms: number; sum: number } {
  module ??= new WebAssembly.Module(FLOOR_MODULE);
  const whole = new WebAssembly.Instance(module, { env: { memory } }).exports.sum as (ptr: number, len: number) => number;
  const end = from + length;
  const sum = () => (start === from ? whole(from, length) : (whole(start, end - start) + whole(from, start - from)) & 0xff);
  // One untimed pass: the function compiled and the pages mapped in this thread.
  let folded = sum();
  Atomics.add(arrived, 0, 1);
  Atomics.notify(arrived, 0);
  for (let seen = Atomics.load(arrived, 0); seen < threads; seen = Atomics.load(arrived, 0)) Atomics.wait(arrived, 0, seen, 1_000);
  const t0 = performance.now();
  for (let p = 0; p < passes; p++) folded = (folded + sum()) & 0xff;
  return { ms: performance.now() - t0, sum: folded };
}
