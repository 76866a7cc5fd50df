// Runs in a worker thread (server/jobs/worker-pool.ts): a batch of 500 uploads is a JWS of about 4 MB. Decoding and
// verifying it, parsing its JSON and checking its schema took up to a second of the intake's event loop per batch
// (issue 32's replication bench), and each CMF document read with the CMF importer is about a millisecond more: none
// of it on the thread that answers requests.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../jobs/background-priority';
import type { BatchContent } from '../../core/schemas/network-delivery';
import type { CatalogueMarker } from '../imports/profile-import-worker';
import { buildMarkerResolver } from '../db/seed/reference/marker-names';
import { packGenotype } from '../db/genotype-codec';
import { parseProfileFile } from '../imports/profiles';
import { BatchRejected, verifyBatch } from './batch-signature';

export interface BatchReadTask {
  /** The batch as sent (a compact JWS) and the sending client's credentials as this level holds them. */
  jws: string;
  clientId: string;
  secretHash: string | null;
  /** This level's markers with their codes (the packed genotype names markers by code). */
  markers: (CatalogueMarker & { code: number })[];
}

/** One document read: its sample type and packed genotype, or every reason it cannot be held here. */
export type UploadRead = { sampleType: string; genotype: Uint8Array } | { problems: string[] };

/**
 * The verified batch without its CMF texts, and each upload's document read, by idempotency key (isReadUpload); or why
 * the batch is refused. The texts stay here: a batch's are about 4 MB, and the request thread only needs them read.
 */
export type BatchRead = { content: BatchContent; reads: [string, UploadRead][] } | { rejected: string };

/** The entries whose document is read: uploads carrying their CMF and kit. */
export const isReadUpload = (e: BatchContent['entries'][number]) => e.action === 'upload' && !!e.cmf && !!e.kit;

/** Reads each document as one SPECIMEN of a sample type this level files. */
async function readDocuments(markers: BatchReadTask['markers'], documents: { specimenId: string; cmf: string }[]): Promise<UploadRead[]> {
  const resolve = buildMarkerResolver(markers);
  const codes = new Map(markers.map((m) => [m.id, m.code]));
  const out: UploadRead[] = [];
  for (const { specimenId, cmf } of documents) {
    const parsed = await parseProfileFile({ fileName: `${specimenId}.xml`, bytes: new TextEncoder().encode(cmf) }, resolve);
    const profile = parsed.profiles[0];
    const problems = [...parsed.errors.map((e) => e.message), ...(profile?.errors ?? [])];
    if (!profile || parsed.profiles.length !== 1) problems.push('the CMF document must hold exactly one SPECIMEN');
    else if (!profile.sampleType) problems.push('its SPECIMENCATEGORY is not one this level files');
    out.push(problems.length > 0 ? { problems } : { sampleType: profile!.sampleType!, genotype: packGenotype(profile!.markerValues, (id) => codes.get(id)) });
  }
  return out;
}

/** Verifies the batch's signature and schema (batch-signature.ts), then reads its uploads' documents. */
export default async function readBatch(task: BatchReadTask): Promise<BatchRead> {
  let content: BatchContent;
  try {
    content = await verifyBatch(task.jws, task.clientId, task.secretHash);
  } catch (err) {
    // The class does not cross the thread: its message does, and the caller throws it again as BatchRejected.
    if (err instanceof BatchRejected) return { rejected: err.message };
    throw err;
  }
  const uploads = content.entries.filter(isReadUpload);
  const reads = await readDocuments(task.markers, uploads.map((e) => ({ specimenId: e.specimenId, cmf: e.cmf! })));
  // Issue 32: the 4 MB of documents cloned back were garbage on the state instance's request thread, batch after batch.
  const entries = content.entries.map(({ cmf: _cmf, ...entry }) => entry);
  return { content: { ...content, entries }, reads: uploads.map((e, i) => [e.idempotencyKey, reads[i]!]) };
}
