// Runs in a worker thread (server/jobs/worker-pool.ts): a batch of 500 uploads is about 3 MB of CMF, and reading its
// entries, writing its JSON, signing it and writing the request body took 170–330 ms of the sender's event loop per
// batch (issue 32's replication bench), in which no request was answered.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../jobs/background-priority';
import type { BatchEntry } from '../../core/schemas/network-delivery';
import { signBatch } from './batch-signature';

export interface BatchSignTask {
  batchId: string;
  /** Each entry without what travels, and what travels (the outbox's payload) as its JSON text. */
  entries: { entry: Omit<BatchEntry, 'cmf' | 'kit' | 'caseNumber' | 'decision'>; payload: string }[];
  clientId: string;
  clientSecret: string;
}

/** The body of POST /api/network/batches: the batch signed with the client's credentials (batch-signature.ts). */
export default async function signedBatchBody(task: BatchSignTask): Promise<string> {
  const entries = task.entries.map(({ entry, payload }) => ({ ...entry, ...(JSON.parse(payload) as Pick<BatchEntry, 'cmf' | 'kit' | 'caseNumber' | 'decision'>) }));
  const batch = await signBatch({ batchId: task.batchId, entries }, task.clientId, task.clientSecret);
  return JSON.stringify({ batch });
}
