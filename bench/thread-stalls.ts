// Issue 29: why the request thread answered late. A 10 ms timer on the main thread; each tick reads the thread's
// scheduler counters (Linux /proc/self/task/<pid>/schedstat: nanoseconds on a CPU, nanoseconds runnable but
// waiting for one). A late tick whose time was spent waiting for a CPU was not held by this process's code: the
// machine's cores were busy (another process, or this process's other threads). At the import bench's upload of
// 52 MB on the shared 2-core machine, stalls of 67-245 ms had the request thread on a CPU for 0-21 ms of them.
import { readFileSync } from 'node:fs';

/** The longest late tick of a phase: how long, and how much of it the thread ran or waited for a CPU. */
export interface Stall {
  ms: number;
  onCpuMs: number;
  waitingForCpuMs: number;
}

const STAT = `/proc/self/task/${process.pid}/schedstat`;

function counters(): [number, number] | null {
  try {
    const [onCpu, waiting] = readFileSync(STAT, 'utf8').split(' ').map((n) => Number(n) / 1e6);
    return [onCpu!, waiting!];
  } catch {
    return null;
  }
}

/** Watches the main thread's late ticks, kept per phase (`phase()` switches); null where the counters are missing (not Linux). */
export function watchStalls(first: string): { phase(name: string): void; stop(): Record<string, Stall> | null } {
  const worst: Record<string, Stall> = {};
  let current = first;
  let last = performance.now();
  let lastCounters = counters();
  const timer = lastCounters
    ? setInterval(() => {
        const now = performance.now();
        const next = counters()!;
        const ms = now - last;
        if (ms > (worst[current]?.ms ?? 0)) worst[current] = { ms, onCpuMs: next[0] - lastCounters![0], waitingForCpuMs: next[1] - lastCounters![1] };
        last = now;
        lastCounters = next;
      }, 10)
    : undefined;
  return {
    phase: (name) => void (current = name),
    stop: () => {
      clearInterval(timer);
      return timer ? worst : null;
    },
  };
}
