import type { FastifyRequest } from 'fastify';
import { readMultipartForm } from '../multipart-form';
import { BadRequest } from '../errors';

/** A statistics file as uploaded, with the form fields sent beside it. */
export interface Upload {
  fileName: string;
  bytes: Uint8Array;
  fields: Record<string, string>;
}

/** Reads the multipart body (`file` and plain fields); a missing or empty file is a 400 saying so. */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  const { file, fields } = await readMultipartForm(request);
  if (!file) throw new BadRequest('Choose a statistics file to upload.');
  if (file.bytes.length === 0) throw new BadRequest(`The file ${file.fileName} is empty.`);
  return { fileName: file.fileName || 'statistics', bytes: file.bytes, fields };
}
