const BOM = [0xef, 0xbb, 0xbf];

/** Decodes an upload to text: strips a UTF-8 BOM, reads UTF-8, and falls back to ISO-8859-1 when the bytes are not UTF-8. */
export function decodeText(bytes: Uint8Array): string {
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

/** Whether the bytes look binary (a NUL in the first kilobytes) rather than text. */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Whether the bytes are a ZIP container, as every .xlsx workbook is. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}
