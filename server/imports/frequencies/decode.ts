const BOM = [0xef, 0xbb, 0xbf];

/**
 * Decodes an upload to text: UTF-16 (Excel's "Unicode text", with or without a BOM) as such; otherwise strips a
 * UTF-8 BOM, reads UTF-8, and falls back to ISO-8859-1 when the bytes are not UTF-8.
 */
export function decodeText(bytes: Uint8Array): string {
  const utf16 = utf16Encoding(bytes);
  // TextDecoder drops the UTF-16 BOM itself.
  if (utf16) return new TextDecoder(utf16).decode(bytes);
  const body = BOM.every((b, i) => bytes[i] === b) ? bytes.subarray(BOM.length) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    // Every byte is a valid ISO-8859-1 character, so this cannot fail; old lab exports are often in it.
    // Buffer's 'latin1' is true ISO-8859-1; TextDecoder('latin1') would be windows-1252.
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('latin1');
  }
}

/** Turns CRLF and lone CR into LF, so files with mixed line endings split into the same lines. */
export function normaliseLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Whether the bytes look binary (a NUL in the first kilobytes, and not UTF-16 text) rather than text. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF).includes(0) && utf16Encoding(bytes) === null;
}

/** How many leading bytes tell text from binary. */
const SNIFF = 8192;

/**
 * The UTF-16 encoding of an upload: from its BOM (FF FE little-endian, FE FF big-endian), or, without one, from
 * the NUL bytes Latin text leaves at every odd (little-endian) or even (big-endian) position. A binary file can
 * show that pattern too, so BOM-less UTF-16 must also decode to text without control characters (tab and line
 * breaks aside). Null when the bytes are not UTF-16.
 */
function utf16Encoding(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length < 2 || bytes.length % 2 !== 0) return null;
  const sample = bytes.subarray(0, SNIFF);
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) evenNul++;
    if (sample[i + 1] === 0) oddNul++;
  }
  const units = Math.floor(sample.length / 2);
  const encoding = evenNul === 0 && oddNul >= units * 0.9 ? 'utf-16le' : oddNul === 0 && evenNul >= units * 0.9 ? 'utf-16be' : null;
  if (encoding === null) return null;
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(new TextDecoder(encoding).decode(sample)) ? null : encoding;
}

/** Whether the bytes are a ZIP container, as every .xlsx workbook is. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}
