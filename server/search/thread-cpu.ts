import { readFileSync } from 'node:fs';

/**
 * The calling thread's own CPU time in ms (Linux's /proc/thread-self/schedstat, its first field in ns), or the wall
 * clock where the kernel gives none: a budget counted in it holds on a loaded machine, where the wall time stretches.
 */
export function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return performance.now();
  }
}
