// Live bytes of a bench process, read the same way by every table that states what the index costs per profile.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Turned on here rather than by `node --expose-gc`: worker threads (the self-comparison's) refuse that flag.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Live bytes of this process (heap and buffers) after full collections: what the index really costs. */
export function liveBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  // SharedArrayBuffers (the index's, issue 29) are in `arrayBuffers` but not in `external`; an ordinary ArrayBuffer is in
  // both, counted twice, but the index holds none, so a difference of two readings is the index's bytes.
  return m.heapUsed + m.external + m.arrayBuffers;
}
