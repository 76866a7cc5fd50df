import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

// ARCHITECTURE.md "Heavy work off the request thread": moving work to a worker thread frees the event loop, but on a
// machine with as many busy threads as cores the request thread still waits for a core (traced during a 100,000-profile
// import: /api/health 67–245 ms late while the request thread ran 0–21 ms of it). Every pool worker therefore runs at a
// lower scheduling priority, so the kernel gives the request thread (and PGlite's thread, which answers it) a core first;
// a worker still has every idle core. Linux keeps a nice value per thread; elsewhere nothing changes.

/** The nice value of a pool worker thread (the request thread keeps the process's own, 0 by default). */
export const WORKER_NICE = 10;

/** This thread's id as the kernel knows it (Linux), or undefined where /proc is absent. */
function kernelThreadId(): number | undefined {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return undefined;
  }
}

/** Lowers the calling thread's scheduling priority to WORKER_NICE (Linux setpriority(2) on a thread id); a no-op elsewhere. */
export function lowerThisThreadPriority(): void {
  const tid = kernelThreadId();
  if (tid === undefined || !Number.isInteger(tid)) return;
  try {
    setPriority(tid, WORKER_NICE);
  } catch {
    // Not permitted or not supported: the worker keeps its priority, as before.
  }
}

/** The calling thread's nice value (Linux), or undefined elsewhere: for tests and diagnostics. */
export function thisThreadNice(): number | undefined {
  try {
    // Field 19 of /proc/thread-self/stat, counted after the command name's closing parenthesis.
    return Number(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]);
  } catch {
    return undefined;
  }
}

// Imported first by every pool worker's module (a structure test holds them to it), so the thread is lowered before
// the module's own work; imported on the request thread (a test calling a worker's function) it changes nothing.
if (!isMainThread) lowerThisThreadPriority();
