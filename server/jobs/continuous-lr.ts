import type { ContinuousLrResult } from '../../core/schemas/continuous';
import type { ContinuousRequest } from '../genetics/continuous/continuous-request';
import { ContinuousModelError } from '../genetics/continuous/continuous-types';
import type { ContinuousOutcome } from './continuous-lr-worker';
import { workerPool } from './worker-pool';

// A constant, not an inline URL: Vite rewrites `new URL('./x.ts', import.meta.url)` into an asset in component tests.
const WORKER_FILE = './continuous-lr-worker.ts';
const continuousWorker = new URL(WORKER_FILE, import.meta.url);

/** Weighs a continuous-model LR on a worker thread; `signal` stops it when the client has gone. A refusal is a ContinuousModelError. */
export async function runContinuousLr(request: ContinuousRequest, signal?: AbortSignal): Promise<ContinuousLrResult> {
  const outcome = (await workerPool(continuousWorker).run(request, signal ? { signal } : {})) as ContinuousOutcome;
  if ('refused' in outcome) throw new ContinuousModelError(outcome.refused);
  return outcome.ok;
}
