/**
 * Downloads that need the bearer token (spec 7.1: "returned as a file; the filename comes from the
 * content-disposition header"). A plain link cannot carry the token, so the file is fetched through
 * the API client and handed to the browser as a Blob URL.
 */

const unquote = (value: string) => (value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value);

/** Keeps a name a browser may save under: no folders, no control characters. */
const safeName = (name: string) => name.replace(/[\u0000-\u001f\u007f]/g, '').split(/[\\/]/).pop()!.trim();

/**
 * The file name a Content-Disposition header gives (RFC 6266): `filename*` (RFC 5987, UTF-8)
 * wins over `filename`; `fallback` when neither is usable.
 */
export function fileNameFromDisposition(header: string | null, fallback = 'download'): string {
  if (header) {
    const extended = /(?:^|;)\s*filename\*\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
    const encoded = extended ? /^([\w!#$%&+^`{}~-]*)'[^']*'(.*)$/.exec(unquote(extended)) : null;
    if (encoded && /^utf-8$/i.test(encoded[1]!)) {
      try {
        const name = safeName(decodeURIComponent(encoded[2]!));
        if (name) return name;
      } catch {
        // A malformed escape: fall through to the plain filename.
      }
    }
    const plain = /(?:^|;)\s*filename\s*=\s*("(?:\\.|[^"\\])*"|[^;]*)/i.exec(header)?.[1]?.trim();
    const name = plain ? safeName(unquote(plain)) : '';
    if (name) return name;
  }
  return fallback;
}

/**
 * Saves a download response's body as a file under the name its Content-Disposition gives.
 * Returns that name (for a status message).
 */
export async function saveResponseAsFile(response: Response, fallbackName = 'download'): Promise<string> {
  const name = fileNameFromDisposition(response.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start reading the Blob URL only after click() returns; FileSaver.js waits 40 s too.
  setTimeout(() => URL.revokeObjectURL(url), 40_000);
  return name;
}
