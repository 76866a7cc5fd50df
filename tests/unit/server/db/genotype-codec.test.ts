import { describe, expect, it } from 'vitest';
import { decodeGenotype, encodeGenotype, genotypeCodes, packGenotype, type GenotypeEntry } from '../../../../server/db/genotype-codec';

const roundTrip = (entries: GenotypeEntry[]) => decodeGenotype(encodeGenotype(entries));

describe('genotype codec', () => {
  it('packs numbers, microvariants .1–.3, X, Y and OL into one byte each', () => {
    const entries = [
      { code: 1, alleles: ['15', '16'] },
      { code: 2, alleles: ['9.3', '17.1', '22.2'] },
      { code: 300, alleles: ['X', 'Y'] },
      { code: 65535, alleles: ['0', '59.3', 'OL'] },
    ];
    const bytes = encodeGenotype(entries);
    // 1 header + 4 × 2 code bytes (a code above 255: wide) + 4 allele counts + 10 alleles.
    expect(bytes.length).toBe(1 + 8 + 4 + 10);
    expect([...bytes.subarray(0, 9)]).toEqual([128 + 4, 0, 1, 0, 2, 1, 44, 255, 255]);
    expect(roundTrip(entries)).toEqual(entries);
    // Every code up to 255: one byte each.
    const narrow = [{ code: 1, alleles: ['15', '16'] }, { code: 255, alleles: ['9.3'] }];
    expect([...encodeGenotype(narrow)]).toEqual([2, 1, 255, 2, 60, 64, 1, 39]);
    expect(roundTrip(narrow)).toEqual(narrow);
    expect(genotypeCodes(encodeGenotype(narrow))).toEqual([1, 255]);
    expect(genotypeCodes(bytes)).toEqual([1, 2, 300, 65535]);
  });

  it('keeps every other designation as its exact text', () => {
    const entries = [
      { code: 7, alleles: ['60', '61.2', '13.4', '13.9', '<8', '>21', '<9.3', '100'] },
      { code: 8, alleles: ['08', '15.0', 'ol', 'ünïcode'] },
    ];
    expect(roundTrip(entries)).toEqual(entries);
  });

  it('holds mixtures, empty markers, no markers and the stored order', () => {
    const entries = [
      { code: 9, alleles: ['12', '13', '14', '15', '16', '17'] },
      { code: 3, alleles: [] },
      { code: 5, alleles: ['35', '37', '38'] },
    ];
    expect(roundTrip(entries)).toEqual(entries);
    expect(genotypeCodes(encodeGenotype(entries))).toEqual([9, 3, 5]);
    expect(encodeGenotype([])).toEqual(Uint8Array.of(0));
    expect(decodeGenotype(Uint8Array.of(0))).toEqual([]);
    expect(decodeGenotype(new Uint8Array(0))).toEqual([]);
  });

  it('stores twenty two-allele markers in 81 bytes (101 with wide codes)', () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({ code: i + 1, alleles: [`${8 + (i % 10)}`, `${12 + (i % 7)}.${i % 4}`.replace(/\.0$/, '')] }));
    expect(encodeGenotype(entries).length).toBe(81);
    expect(roundTrip(entries)).toEqual(entries);
    const wide = entries.map((e) => ({ ...e, code: e.code + 1000 }));
    expect(encodeGenotype(wide).length).toBe(101);
    expect(roundTrip(wide)).toEqual(wide);
  });

  it('decodes whatever a random genotype encodes to', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pool = ['5', '9.3', '12', '17.1', '50.2', '61', 'X', 'Y', 'OL', '<8', '>21', '13.5', '0'];
    for (let n = 0; n < 200; n++) {
      const entries = Array.from({ length: Math.floor(random() * 30) }, () => ({
        code: 1 + Math.floor(random() * (n % 2 ? 255 : 65535)),
        alleles: Array.from({ length: Math.floor(random() * 7) }, () => pool[Math.floor(random() * pool.length)]!),
      }));
      expect(roundTrip(entries)).toEqual(entries);
    }
  });

  it('refuses what the layout cannot hold, and bytes that are not a genotype', () => {
    expect(() => encodeGenotype([{ code: 0, alleles: ['1'] }])).toThrow(/code 0/);
    expect(() => encodeGenotype([{ code: 65536, alleles: ['1'] }])).toThrow(/code 65536/);
    expect(() => encodeGenotype(Array.from({ length: 128 }, (_, i) => ({ code: i + 1, alleles: [] })))).toThrow(/127 markers/);
    expect(roundTrip(Array.from({ length: 127 }, (_, i) => ({ code: 200 + i, alleles: ['1'] })))).toHaveLength(127);
    expect(() => encodeGenotype([{ code: 1, alleles: ['<' + '9'.repeat(255)] }])).toThrow(/255 bytes/);
    expect(() => decodeGenotype(Uint8Array.of(1, 1, 1, 250))).toThrow(/no allele/);
    expect(() => decodeGenotype(Uint8Array.of(1, 1, 1, 60, 60))).toThrow(/ends at/);
    expect(() => decodeGenotype(Uint8Array.of(129, 0, 1, 1, 60, 60))).toThrow(/ends at/);
  });

  it('packs marker ids by their codes and names a marker without one', () => {
    const codes = new Map([['a', 4], ['b', 2]]);
    const bytes = packGenotype([{ markerId: 'a', alleles: ['10'] }, { markerId: 'b', alleles: ['11'] }], (id) => codes.get(id));
    expect(decodeGenotype(bytes)).toEqual([{ code: 4, alleles: ['10'] }, { code: 2, alleles: ['11'] }]);
    expect(() => packGenotype([{ markerId: 'c', alleles: [] }], (id) => codes.get(id))).toThrow(/Marker c has no code/);
  });
});
