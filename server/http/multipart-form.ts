import type { FastifyRequest } from 'fastify';
import { BadRequest } from './errors';

export interface MultipartForm {
  fields: Record<string, string>;
  /** The one file part, read into memory (the global multipart limit refuses larger ones with 413). */
  file?: { fileName: string; bytes: Buffer };
}

/** Reads a multipart/form-data body: its text fields and at most one file, in whatever order they come. */
export async function readMultipartForm(request: FastifyRequest, opts: { fileSize?: number } = {}): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new BadRequest('Send the form as multipart/form-data');
  const form: MultipartForm = { fields: {} };
  // A route may allow a larger file than the app-wide limit (profile imports: an offender batch).
  for await (const part of request.parts(opts.fileSize ? { limits: { fileSize: opts.fileSize } } : undefined)) {
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
