// Runs in a worker thread (server/jobs/worker-pool.ts): a batch of 500 uploads is about 3 MB of CMF, and reading its
// entries, writing its JSON, signing it and writing the request body took 170–330 ms of the sender's event loop per
// batch (issue 32's replication bench), in which no request was answered.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../jobs/background-priority';
import { move } from 'piscina';
import type { BatchEntry } from '../../core/schemas/network-delivery';
import { signBatch } from './batch-signature';

export interface BatchSignTask {
  batchId: string;
  /** Each entry without what travels, and what travels (the outbox's payload) as its JSON text. */
  entries: { entry: Omit<BatchEntry, 'cmf' | 'kit' | 'caseNumber' | 'decision'>; payload: string }[];
  clientId: string;
  clientSecret: string;
}

/**
 * The body of POST /api/network/batches: the batch signed with the client's credentials (batch-signature.ts), as UTF-8
 * bytes moved to the sender, not copied: a 4 MB string on the sender's heap each batch made its collector stop the
 * event loop for up to 180 ms (issue 32's replication bench), and the sender would encode it again to send it.
 */
export default async function signedBatchBody(task: BatchSignTask): Promise<Uint8Array<ArrayBuffer>> {
  const entries = task.entries.map(({ entry, payload }) => ({ ...entry, ...(JSON.parse(payload) as Pick<BatchEntry, 'cmf' | 'kit' | 'caseNumber' | 'decision'>) }));
  const batch = await signBatch({ batchId: task.batchId, entries }, task.clientId, task.clientSecret);
  return move(new TextEncoder().encode(JSON.stringify({ batch }))) as Uint8Array<ArrayBuffer>;
}
