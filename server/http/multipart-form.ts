import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { BadRequest, HttpError } from './errors';
import { checkText } from './text-input';

/** Largest uploaded file (bytes) unless a route allows more: frequency tables and CMF batches are far smaller. */
export const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

/** ES2024's resizable ArrayBuffer (Node 20 has it; the project's lib is ES2023). */
type ResizableArrayBuffer = ArrayBuffer & { resize(byteLength: number): void };
const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;

/**
 * A file part's bytes, each chunk copied as it arrives into one buffer that grows in place (reserved up to the
 * limit, so growing copies nothing). The plugin's toBuffer() joins the chunks at the end: Buffer.concat of a
 * 50 MB import held the request thread for 224 ms (issue 29). The buffer is the part's alone and exactly its
 * length, so it can be moved to a worker thread rather than copied.
 */
async function readFilePart(part: MultipartFile, limit: number, tooLarge: () => Error): Promise<Buffer> {
  const buffer = new ResizableArrayBuffer(0, { maxByteLength: limit });
  let length = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    // Busboy stops at the limit and marks the stream truncated: the plugin's own 413, as its toBuffer() throws.
    if (part.file.truncated || length + chunk.length > limit) throw tooLarge();
    buffer.resize(length + chunk.length);
    new Uint8Array(buffer, length, chunk.length).set(chunk);
    length += chunk.length;
  }
  return Buffer.from(buffer, 0, length);
}

export interface UploadedPart {
  /** The form field the file came in. */
  field: string;
  fileName: string;
  bytes: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  /** The last file part, read into memory (the global multipart limit refuses larger ones with 413). */
  file?: { fileName: string; bytes: Buffer };
  /** Every file part in the order sent, for a form that allows more than one (opts.files). */
  files: UploadedPart[];
}

/**
 * Reads a multipart/form-data body: its text fields and its files (one unless opts.files says
 * more), in whatever order they come. A body the parser cannot read (no boundary, another
 * boundary, no closing delimiter) is the sender's mistake: 400, not the parser's bare Error (500).
 * Field names, values and file names are checked as JSON text is (text-input.ts).
 */
export async function readMultipartForm(request: FastifyRequest, opts: { fileSize?: number; files?: number } = {}): Promise<MultipartForm> {
  if (!request.isMultipart()) throw new BadRequest('Send the form as multipart/form-data');
  const form: MultipartForm = { fields: {}, files: [] };
  // A route may allow a larger file than the app-wide limit (profile imports: an offender batch).
  const limits = { ...(opts.fileSize ? { fileSize: opts.fileSize } : {}), ...(opts.files ? { files: opts.files } : {}) };
  try {
    for await (const part of request.parts(Object.keys(limits).length > 0 ? { limits } : undefined)) {
      checkText(`field name ${part.fieldname}`, '/fieldname', part.fieldname);
      if (part.type === 'file') {
        checkText(`file name of ${part.fieldname}`, `/${part.fieldname}/filename`, part.filename);
        const bytes = await readFilePart(part, opts.fileSize ?? UPLOAD_LIMIT_BYTES, () => new request.server.multipartErrors.RequestFileTooLargeError());
        // A form whose file input was left empty still sends a nameless, empty part.
        if (part.filename || bytes.length > 0) form.files.push({ field: part.fieldname, fileName: part.filename, bytes });
      } else if (typeof part.value === 'string') {
        checkText(part.fieldname, `/${part.fieldname}`, part.value);
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // Ours (a refused name) and the plugin's own (413 limits) keep their status; busboy's bare Errors do not have one.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    throw new BadRequest(`The upload is not a well-formed multipart/form-data body (${(err as Error).message})`);
  }
  const file = form.files.at(-1);
  return file ? { ...form, file: { fileName: file.fileName, bytes: file.bytes } } : form;
}
