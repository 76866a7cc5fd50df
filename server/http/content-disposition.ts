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
