import { ContinuousModelError } from '../genetics/continuous/continuous-types';
import type { ContinuousReportOutcome, ContinuousReportTask } from './continuous-report-worker';
import { workerPool } from './worker-pool';

// A constant, not an inline URL (see server/jobs/worker-pool.ts).
const WORKER_FILE = './continuous-report-worker.ts';
const reportWorker = new URL(WORKER_FILE, import.meta.url);

/** A continuous calculation's PDF (bytes) or CSV (text), weighed and written on a worker thread; a refusal is a ContinuousModelError. */
export async function runContinuousReport(task: ContinuousReportTask, signal?: AbortSignal): Promise<Buffer | string> {
  const outcome = (await workerPool(reportWorker).run(task, signal ? { signal } : {})) as ContinuousReportOutcome;
  if ('refused' in outcome) throw new ContinuousModelError(outcome.refused);
  return typeof outcome.file === 'string' ? outcome.file : Buffer.from(outcome.file.buffer, outcome.file.byteOffset, outcome.file.byteLength);
}
