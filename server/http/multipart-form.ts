import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
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
 * A file part written to `path` as its chunks arrive, never held whole in this thread's memory: assembling a
 * 52 MB import in one buffer here took about 0.5 s of the request thread's CPU over the upload (readFilePart in a
 * --cpu-prof; /api/health 345–567 ms late; issue 29). The writes run on libuv's threads; the caller removes the file.
 */
async function spoolFilePart(part: MultipartFile, limit: number, tooLarge: () => Error, path: string): Promise<number> {
  let length = 0;
  await pipeline(
    part.file,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        length += chunk.length;
        if (length > limit) throw tooLarge();
        yield chunk;
      }
    },
    createWriteStream(path),
  );
  // Busboy stops at the limit and marks the stream truncated: the plugin's own 413, as its toBuffer() throws.
  if (part.file.truncated) throw tooLarge();
  return length;
}

/**
 * Reads a multipart/form-data body's parts in whatever order they come: text fields into `fields`, each file
 * part through `readFile`. A body the parser cannot read (no boundary, another boundary, no closing delimiter)
 * is the sender's mistake: 400, not the parser's bare Error (500). Field names, values and file names are
 * checked as JSON text is (text-input.ts).
 */
async function readParts(
  request: FastifyRequest,
  opts: { fileSize?: number; files?: number },
  readFile: (part: MultipartFile, limit: number, tooLarge: () => Error) => Promise<void>,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new BadRequest('Send the form as multipart/form-data');
  const fields: Record<string, string> = {};
  // A route may allow a larger file than the app-wide limit (profile imports: an offender batch).
  const limits = { ...(opts.fileSize ? { fileSize: opts.fileSize } : {}), ...(opts.files ? { files: opts.files } : {}) };
  try {
    for await (const part of request.parts(Object.keys(limits).length > 0 ? { limits } : undefined)) {
      checkText(`field name ${part.fieldname}`, '/fieldname', part.fieldname);
      if (part.type === 'file') {
        checkText(`file name of ${part.fieldname}`, `/${part.fieldname}/filename`, part.filename);
        await readFile(part, opts.fileSize ?? UPLOAD_LIMIT_BYTES, () => new request.server.multipartErrors.RequestFileTooLargeError());
      } else if (typeof part.value === 'string') {
        checkText(part.fieldname, `/${part.fieldname}`, part.value);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // Ours (a refused name) and the plugin's own (413 limits) keep their status; busboy's bare Errors do not have one.
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    throw new BadRequest(`The upload is not a well-formed multipart/form-data body (${(err as Error).message})`);
  }
  return fields;
}

/** Reads a multipart/form-data body: its text fields and its files (one unless opts.files says more), in memory. */
export async function readMultipartForm(request: FastifyRequest, opts: { fileSize?: number; files?: number } = {}): Promise<MultipartForm> {
  const files: UploadedPart[] = [];
  const fields = await readParts(request, opts, async (part, limit, tooLarge) => {
    const bytes = await readFilePart(part, limit, tooLarge);
    // A form whose file input was left empty still sends a nameless, empty part.
    if (part.filename || bytes.length > 0) files.push({ field: part.fieldname, fileName: part.filename, bytes });
  });
  const file = files.at(-1);
  return { fields, files, ...(file ? { file: { fileName: file.fileName, bytes: file.bytes } } : {}) };
}

/** A form's one file, written to disk as it arrived: its name, where it is and its size in bytes. */
export interface SpooledFile {
  fileName: string;
  path: string;
  size: number;
}

/**
 * Reads a multipart/form-data body of one file (a large upload: a profile import) and its text fields, the file
 * written to `path` rather than held in memory; `file` is absent when none was chosen. The caller owns the file
 * (and removes it); on any error none is left behind.
 */
export async function readMultipartUpload(request: FastifyRequest, opts: { fileSize: number; path: string }): Promise<{ fields: Record<string, string>; file?: SpooledFile }> {
  // Each file part to a file of its own; the last one kept (as readMultipartForm keeps the last), the others removed.
  const written: string[] = [];
  let file: SpooledFile | undefined;
  try {
    const fields = await readParts(request, { fileSize: opts.fileSize }, async (part, limit, tooLarge) => {
      const at = `${opts.path}.${written.length}`;
      written.push(at);
      const size = await spoolFilePart(part, limit, tooLarge, at);
      // A form whose file input was left empty still sends a nameless, empty part.
      if (part.filename || size > 0) file = { fileName: part.filename, path: at, size };
    });
    await Promise.all(written.filter((w) => w !== file?.path).map((w) => rm(w, { force: true })));
    if (!file) return { fields };
    await rename(file.path, opts.path);
    return { fields, file: { ...file, path: opts.path } };
  } catch (err) {
    await Promise.all([...written, opts.path].map((w) => rm(w, { force: true })));
    throw err;
  }
}
