/**
 * A profile's marker values packed in one bytea (profiles.genotype): the only reader and writer of that
 * column's layout. Migration 0008 writes the same bytes in SQL; marker-uses.ts reads the code list in SQL.
 *
 * Layout, all unsigned bytes:
 *   [w·128 + m]              marker count m, 0–127; w set when a code is above 255 (wide codes)
 *   [code] × m               each marker's markers.code in stored order: one byte (1–255), or two,
 *                            high byte first (1–65535), when wide
 *   then per marker, in the same order:
 *     [n]                    allele count, 0–255
 *     n alleles, each one of
 *       0–239                a number: whole × 4 + tenths, for 0–59 with no fraction or .1–.3 (15 → 60, 9.3 → 39)
 *       240 | 241 | 242      X | Y | OL
 *       255 [len] [UTF-8]    any other designation as text (16.5, 61, <8, >21), at most 255 bytes
 *
 * The codes come first so a query can tell which markers a profile holds without walking the alleles.
 * Twenty markers of two alleles take 81 bytes (101 with wide codes). Alleles round-trip as the exact text given.
 */

export interface GenotypeEntry {
  code: number;
  alleles: readonly string[];
}

const X = 240;
const Y = 241;
const OL = 242;
const TEXT = 255;
/** The header bit saying the codes take two bytes each. */
const WIDE = 0x80;
const NUMBER = /^(0|[1-9][0-9]?)(?:\.([1-3]))?$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The one-byte form of a designation, or -1 when it is kept as text. */
function alleleByte(allele: string): number {
  if (allele === 'X') return X;
  if (allele === 'Y') return Y;
  if (allele === 'OL') return OL;
  const number = NUMBER.exec(allele);
  if (!number) return -1;
  const whole = Number(number[1]);
  return whole <= 59 ? whole * 4 + Number(number[2] ?? 0) : -1;
}

/** Packs marker values (in the order given) into the stored bytes. */
export function encodeGenotype(entries: readonly GenotypeEntry[]): Uint8Array {
  if (entries.length > 127) throw new RangeError(`A profile holds at most 127 markers (${entries.length} given)`);
  for (const { code } of entries) if (!Number.isInteger(code) || code < 1 || code > 65535) throw new RangeError(`Marker code ${code} is out of range`);
  const wide = entries.some((e) => e.code > 255);
  const bytes: number[] = [entries.length | (wide ? WIDE : 0)];
  for (const { code } of entries) {
    if (wide) bytes.push(code >> 8, code & 0xff);
    else bytes.push(code);
  }
  for (const { alleles } of entries) {
    if (alleles.length > 255) throw new RangeError(`A marker holds at most 255 alleles (${alleles.length} given)`);
    bytes.push(alleles.length);
    for (const allele of alleles) {
      const byte = alleleByte(allele);
      if (byte >= 0) {
        bytes.push(byte);
        continue;
      }
      const text = encoder.encode(allele);
      if (text.length > 255) throw new RangeError(`An allele designation is at most 255 bytes (${text.length} given)`);
      bytes.push(TEXT, text.length, ...text);
    }
  }
  return Uint8Array.from(bytes);
}

/** The text of each one-byte designation (index = byte). */
const BYTE_TEXT: string[] = Array.from({ length: 256 }, (_, b) => (b < 240 ? (b & 3 ? `${b >> 2}.${b & 3}` : `${b >> 2}`) : b === X ? 'X' : b === Y ? 'Y' : b === OL ? 'OL' : ''));

/** The marker codes a packed genotype holds, in stored order (no allele is read). */
export function genotypeCodes(bytes: Uint8Array): number[] {
  const header = bytes.length === 0 ? 0 : bytes[0]!;
  const m = header & ~WIDE;
  const codes = new Array<number>(m);
  for (let i = 0; i < m; i++) codes[i] = header & WIDE ? (bytes[1 + 2 * i]! << 8) | bytes[2 + 2 * i]! : bytes[1 + i]!;
  return codes;
}

/** Unpacks stored bytes into marker values in stored order; throws on bytes the layout cannot hold. */
export function decodeGenotype(bytes: Uint8Array): GenotypeEntry[] {
  if (bytes.length === 0) return [];
  const wide = (bytes[0]! & WIDE) !== 0;
  const m = bytes[0]! & ~WIDE;
  let at = 1 + (wide ? 2 : 1) * m;
  const entries = new Array<GenotypeEntry>(m);
  for (let i = 0; i < m; i++) {
    const code = wide ? (bytes[1 + 2 * i]! << 8) | bytes[2 + 2 * i]! : bytes[1 + i]!;
    const n = bytes[at++]!;
    const alleles = new Array<string>(n);
    for (let j = 0; j < n; j++) {
      const b = bytes[at++]!;
      if (b === TEXT) {
        const length = bytes[at++]!;
        alleles[j] = decoder.decode(bytes.subarray(at, at + length));
        at += length;
      } else if (b <= OL) alleles[j] = BYTE_TEXT[b]!;
      else throw new RangeError(`Genotype byte ${b} at ${at - 1} is no allele`);
    }
    entries[i] = { code, alleles };
  }
  if (at !== bytes.length) throw new RangeError(`Genotype of ${bytes.length} bytes ends at ${at}`);
  return entries;
}

/** Marker values with marker ids, packed by their markers' codes; throws when a marker has no code. */
export function packGenotype(values: readonly { markerId: string; alleles: readonly string[] }[], codeOf: (markerId: string) => number | undefined): Uint8Array {
  return encodeGenotype(
    values.map((v) => {
      const code = codeOf(v.markerId);
      if (code === undefined) throw new Error(`Marker ${v.markerId} has no code`);
      return { code, alleles: v.alleles };
    }),
  );
}
