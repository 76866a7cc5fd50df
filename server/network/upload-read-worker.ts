// Runs in a worker thread (server/jobs/worker-pool.ts): a batch's CMF documents, read with the CMF importer, are
// about a millisecond of CPU each, fifty or more a batch, that no request should wait behind (issue 32's intake).
import type { CatalogueMarker } from '../imports/profile-import-worker';
import { buildMarkerResolver } from '../db/seed/reference/marker-names';
import { packGenotype } from '../db/genotype-codec';
import { parseProfileFile } from '../imports/profiles';

export interface UploadReadTask {
  /** This level's markers with their codes (the packed genotype names markers by code). */
  markers: (CatalogueMarker & { code: number })[];
  documents: { specimenId: string; cmf: string }[];
}

/** One document read: its sample type and packed genotype, or every reason it cannot be held here. */
export type UploadRead = { sampleType: string; genotype: Uint8Array } | { problems: string[] };

/** Reads each document as one SPECIMEN of a sample type this level files. */
export default async function readUploadDocuments(task: UploadReadTask): Promise<UploadRead[]> {
  const resolve = buildMarkerResolver(task.markers);
  const codes = new Map(task.markers.map((m) => [m.id, m.code]));
  const out: UploadRead[] = [];
  for (const { specimenId, cmf } of task.documents) {
    const parsed = await parseProfileFile({ fileName: `${specimenId}.xml`, bytes: new TextEncoder().encode(cmf) }, resolve);
    const profile = parsed.profiles[0];
    const problems = [...parsed.errors.map((e) => e.message), ...(profile?.errors ?? [])];
    if (!profile || parsed.profiles.length !== 1) problems.push('the CMF document must hold exactly one SPECIMEN');
    else if (!profile.sampleType) problems.push('its SPECIMENCATEGORY is not one this level files');
    out.push(problems.length > 0 ? { problems } : { sampleType: profile!.sampleType!, genotype: packGenotype(profile!.markerValues, (id) => codes.get(id)) });
  }
  return out;
}
