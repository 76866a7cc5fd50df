import type { FastifyRequest } from 'fastify';
import { BadRequest } from '../errors';
import { readMultipartForm } from '../multipart-form';

/** One uploaded file. */
export interface UploadedFile {
  fileName: string;
  bytes: Uint8Array;
}

/** A statistics file as uploaded, with the form fields sent beside it. */
export interface Upload extends UploadedFile {
  /** The optional part `sampleSizes`: N per marker, for tables that ship it apart (fbi2015-n.csv beside fbi2015.csv). */
  sampleSizes?: UploadedFile;
  fields: Record<string, string>;
}

/** The multipart part holding the sample-size companion; any other file part is the statistics file. */
export const SAMPLE_SIZES_PART = 'sampleSizes';

/**
 * Reads the multipart body (part `file`, optional part `sampleSizes`, plain fields, in any order); a
 * missing or empty file is a 400 saying so. Two files are allowed here, one elsewhere (server/app.ts).
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  const form = await readMultipartForm(request, { files: 2 });
  const files = new Map<string, UploadedFile>(form.files.map((f) => [f.field === SAMPLE_SIZES_PART ? SAMPLE_SIZES_PART : 'file', f]));
  const fields = form.fields;
  const file = files.get('file');
  if (!file) throw new BadRequest('Choose a statistics file to upload.');
  const sampleSizes = files.get(SAMPLE_SIZES_PART);
  for (const f of [file, sampleSizes]) if (f && f.bytes.length === 0) throw new BadRequest(`The file ${f.fileName} is empty.`);
  return {
    fileName: file.fileName || 'statistics',
    bytes: file.bytes,
    ...(sampleSizes ? { sampleSizes: { fileName: sampleSizes.fileName || 'sample sizes', bytes: sampleSizes.bytes } } : {}),
    fields,
  };
}
