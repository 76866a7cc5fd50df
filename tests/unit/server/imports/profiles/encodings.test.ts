import { describe, expect, it } from 'vitest';
import { decodeText, looksBinary } from '../../../../../server/imports/frequencies/decode';
import { messages, parseUpload, sharedBytes } from './profile-files.fixture';

const HEADER = 'Sample Name,Marker,Allele 1,Allele 2\n';

describe('text encodings', () => {
  const CSV = `${HEADER}Müller,TH01,6,9.3\nS2,vWA,17,18\n`;
  const utf16le = (text: string) => Buffer.from(text, 'utf16le');
  const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

  it('reads UTF-16 with a BOM (FF FE little-endian, FE FF big-endian) and without one (little-endian), like UTF-8', async () => {
    const utf8 = await parseUpload('refs.csv', CSV);
    expect(utf8.errors).toEqual([]);
    for (const [name, bytes] of [
      ['le-bom.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le(CSV)])],
      ['be-bom.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(CSV)])],
      ['le.csv', utf16le(CSV)],
    ] as const) {
      const result = await parseUpload(name, bytes);
      expect(result.errors, name).toEqual([]);
      expect(result.profiles, name).toEqual(utf8.profiles);
    }
  });

  it('reads a UTF-16 CMF file (Windows tools write XML as UTF-16)', async () => {
    const xml = sharedBytes('cmf/Codis-Single-Profile.xml').toString('utf8').replace('encoding="utf-8"', 'encoding="utf-16"');
    const result = await parseUpload('utf16.xml', Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le(xml)]));
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => [p.profileId, p.markerValues.length])).toEqual([['ABCD1234NL#01', 16]]);
  });

  it('decodes UTF-16 and tells it from binary data that also holds NUL bytes', () => {
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le('Bodø')]))).toBe('Bodø');
    expect(decodeText(utf16le('Sample Name\tMarker\r\n'))).toBe('Sample Name\tMarker\r\n');
    expect(looksBinary(utf16le('Sample Name,Marker\n'))).toBe(false);
    expect(looksBinary(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('A,B')]))).toBe(false);
    // NULs at odd positions, but control characters once read as UTF-16: binary.
    expect(looksBinary(new Uint8Array([1, 0, 2, 0, 3, 0, 4, 0]))).toBe(true);
    expect(looksBinary(new Uint8Array([1, 0, 2]))).toBe(true);
    expect(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]))).toBe(true);
  });

  it('still calls a real binary file not a text file', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(messages((await parseUpload('photo.csv', png)).errors)[0]).toMatch(/^photo\.csv is not a text file; expected CODIS CMF/);
  });
});
