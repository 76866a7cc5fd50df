// Runs in a worker thread (server/jobs/worker-pool.ts): a self-comparison of a million profiles is a
// second or more of CPU, which must not stall requests. The columns arrive as one buffer moved (not
// copied) from the main thread, a snapshot of the index at the start; progress goes back over a port.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../jobs/background-priority';
import type { MessagePort } from 'node:worker_threads';
import { compareSelf, type SelfComparisonProgress, type SelfComparisonResult } from './self-comparison';

export interface SelfComparisonTask {
  names: string[];
  alleles: string[][];
  size: number;
  /** lo and hi of every marker, then the include flags: (2 × markers + 1) × size bytes. */
  bytes: ArrayBuffer;
  maxDifferences: number;
  minEqualMarkers: number;
  maxPairs?: number;
  /** Where progress messages (SelfComparisonProgress) go; closed at the end. */
  port: MessagePort;
}

/**
 * Packs the columns and the include flags into one buffer a worker can take (see SelfComparisonTask.bytes),
 * a few columns at a time with `pause()` between them, so a million profiles' 40 MB never hold the
 * event loop for long. The caller checks afterwards that the index did not change meanwhile.
 */
export async function packColumns(lo: readonly Uint8Array[], hi: readonly Uint8Array[], include: Uint8Array, size: number, pause: () => Promise<void> = async () => undefined): Promise<ArrayBuffer> {
  const bytes = new Uint8Array((2 * lo.length + 1) * size);
  for (let m = 0; m < lo.length; m++) {
    bytes.set(lo[m]!.subarray(0, size), 2 * m * size);
    bytes.set(hi[m]!.subarray(0, size), (2 * m + 1) * size);
    if (m % 4 === 3) await pause();
  }
  bytes.set(include.subarray(0, size), 2 * lo.length * size);
  return bytes.buffer;
}

export default function selfComparisonWorker(task: SelfComparisonTask): SelfComparisonResult {
  const { names, size, bytes, port } = task;
  const view = (k: number) => new Uint8Array(bytes, k * size, size);
  try {
    return compareSelf(
      { names, alleles: task.alleles, size, lo: names.map((_, m) => view(2 * m)), hi: names.map((_, m) => view(2 * m + 1)), include: view(2 * names.length) },
      {
        maxDifferences: task.maxDifferences,
        minEqualMarkers: task.minEqualMarkers,
        ...(task.maxPairs !== undefined ? { maxPairs: task.maxPairs } : {}),
        onProgress: (p: SelfComparisonProgress) => port.postMessage(p),
      },
    );
  } finally {
    port.close();
  }
}
