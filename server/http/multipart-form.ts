import type { FastifyRequest } from 'fastify';
import { BadRequest } from './errors';

export interface MultipartForm {
  fields: Record<string, string>;
  /** The one file part, read into memory (the global multipart limit refuses larger ones with 413). */
  file?: { fileName: string; bytes: Buffer };
}

/** Reads a multipart/form-data body: its text fields and at most one file, in whatever order they come. */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new BadRequest('Send the form as multipart/form-data');
  const form: MultipartForm = { fields: {} };
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      // A form whose file input was left empty still sends a nameless, empty part.
      if (part.filename || bytes.length > 0) form.file = { fileName: part.filename, bytes };
    } else if (typeof part.value === 'string') {
      form.fields[part.fieldname] = part.value;
    }
  }
  return form;
}
