import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Gives every thread of this process the main thread's priority (Linux; elsewhere nothing changes). A pool worker sets
 * itself to nice 10 (background-priority.ts), so a bench run under `nice -n -20` on a loaded machine still ran its
 * searches below every other process: the 1- and 2-thread times then measured the scheduler, not the split. Returns the
 * threads set.
 */
export function workersAtOwnPriority(): number {
  const own = getPriority();
  let set = 0;
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      setPriority(Number(tid), own);
      set++;
    } catch {
      // Not permitted (raising a priority needs CAP_SYS_NICE): the thread keeps its own.
    }
  }
  return set;
}
