import { describe, expect, it } from 'vitest';
import { decodeText, normaliseLineEndings } from '../../../../../server/imports/frequencies/decode';

describe('decoding uploads', () => {
  it('strips a UTF-8 BOM and reads UTF-8', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x42, 0x6f, 0x64, 0xc3, 0xb8]))).toBe('Bodø');
  });

  it('strips the BOM before falling back, so it never shows up as "ï»¿"', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x42, 0x6f, 0x64, 0xf8]))).toBe('Bodø');
  });

  it('falls back to ISO-8859-1 for bytes that are not UTF-8, including 0x80–0x9F as C1 controls (not windows-1252)', () => {
    expect(decodeText(new Uint8Array([0x42, 0x6f, 0x64, 0xf8]))).toBe('Bodø');
    expect(decodeText(new Uint8Array([0xa4, 0x80]))).toBe('\u00a4\u0080');
  });

  it('turns CRLF and lone CR into LF', () => {
    expect(normaliseLineEndings('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
  });
});
