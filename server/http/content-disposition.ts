import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * `Content-Disposition: attachment` naming the file (spec 7.1: the client takes the filename from
 * this header). `filename*` carries the exact name in UTF-8 (RFC 6266 / RFC 5987); `filename` is an
 * ASCII stand-in for clients that ignore it.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  // encodeURIComponent leaves ' ( ) * unescaped, which RFC 5987's attr-char does not allow.
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** OpenAPI description of a download's 200: a file named in Content-Disposition. */
export const fileResponse = (contentType = 'application/octet-stream') => ({
  description: 'The file, named in Content-Disposition',
  content: { [contentType]: { schema: z.string().meta({ format: 'binary' }) } },
});

/** Sends `body` as a download named `fileName`; never cached, since it may hold case data. */
export function sendAttachment(reply: FastifyReply, fileName: string, contentType: string, body: string | Buffer): FastifyReply {
  return (
    reply
      .header('content-type', contentType)
      .header('content-disposition', attachmentDisposition(fileName))
      .header('cache-control', 'private, no-store')
      // The 200 schema only documents the body for OpenAPI; the bytes go out as they are.
      .send(body as never)
  );
}
