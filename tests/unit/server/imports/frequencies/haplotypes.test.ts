import { describe, expect, it } from 'vitest';
import { parseFrequencyFile, type ParsedFrequencies } from '../../../../../server/imports/frequencies';
import { REALISTIC_MARKERS, idOf, makeResolver, resolveMarker, sharedFile, textFile } from './markers.fixture';

type YStr = Extract<ParsedFrequencies, { kind: 'YStr' }>;

async function parse(input: { fileName: string; bytes: Uint8Array }, opts: Parameters<typeof parseFrequencyFile>[2] = {}, resolve = resolveMarker): Promise<YStr> {
  const result = await parseFrequencyFile(input, resolve, opts);
  if (result.kind !== 'YStr') throw new Error(`${input.fileName} parsed as ${result.kind}: ${result.errors.map((e) => e.message).join('; ')}`);
  return result;
}

const YFILER_PLUS = [
  'DYS576', 'DYS389I', 'DYS635', 'DYS389II', 'DYS627', 'DYS460', 'DYS458', 'DYS19', 'YGATAH4', 'DYS448', 'DYS391', 'DYS456',
  'DYS390', 'DYS438', 'DYS392', 'DYS518', 'DYS570', 'DYS437', 'DYS385', 'DYS449', 'DYS393', 'DYS439', 'DYS481', 'DYF387S1', 'DYS533',
];

const total = (r: YStr) => r.haplotypes.reduce((sum, h) => sum + h.count, 0);

describe('South Australia Yfiler Plus workbook (.xlsx, one sheet per population)', () => {
  const workbook = () => sharedFile('formats/ystr/South_Australia_YSTRs.xlsx');
  // Reading the 150 kB workbook takes a while; the Aboriginal sheet is parsed once for the tests that inspect it.
  let aboriginalSheet: Promise<YStr> | undefined;
  const aboriginal = () => (aboriginalSheet ??= parse(workbook(), { population: 'Aboriginal' }));

  it('asks which sheet to read', async () => {
    const r = await parseFrequencyFile(workbook(), resolveMarker, { kind: 'YStr' });
    expect(r.kind).toBe('YStr');
    expect(r.populations).toEqual(['European', 'East Asian', 'Aboriginal']);
    expect(r.errors.map((e) => e.message)).toEqual([
      'This file holds 3 populations, one per sheet (European, East Asian, Aboriginal); choose the one to import',
    ]);
  });

  it('reads the Aboriginal sheet: 743 men, 588 distinct haplotypes, 25 markers in column order', async () => {
    const r = await aboriginal();
    expect(r.format).toBe('Y-STR haplotype table (Excel)');
    expect(r.errors).toEqual([]);
    expect(r.population).toBe('Aboriginal');
    expect(r.markerNames).toEqual(YFILER_PLUS);
    expect(r.markerIds).toEqual(YFILER_PLUS.map(idOf));
    expect(total(r)).toBe(743);
    expect(r.haplotypes).toHaveLength(588);
  });

  it('reads the microvariant stored as the double 36.200000000000003 as 36.2, in a sorted multi-copy set', async () => {
    const r = await aboriginal();
    const pairs = r.haplotypes.map((h) => h.values[idOf('DYF387S1')]);
    expect(pairs).toContainEqual(['35', '36.2']);
    expect(pairs.flat().every((v) => /^\d+(\.\d)?$/.test(v ?? ''))).toBe(true);
    // "40,40": identical copies stay two values.
    expect(r.haplotypes.some((h) => h.values[idOf('DYF387S1')]?.join() === '40,40')).toBe(true);
  });

  it('keeps the one empty DYS448 cell absent rather than empty or zero', async () => {
    const r = await aboriginal();
    const missing = r.haplotypes.filter((h) => !(idOf('DYS448') in h.values));
    expect(missing).toHaveLength(1);
    expect(Object.keys(missing[0]?.values ?? {})).toHaveLength(24);
  });

  it('merges the identical haplotypes of the East Asian sheet: 196 men, 191 haplotypes', async () => {
    const r = await parse(workbook(), { population: 'east asian' });
    expect(total(r)).toBe(196);
    expect(r.haplotypes).toHaveLength(191);
    expect(Math.max(...r.haplotypes.map((h) => h.count))).toBeGreaterThan(1);
  });

  it('accepts a Buffer as well as a Uint8Array', async () => {
    const { fileName, bytes } = workbook();
    const r = await parse({ fileName, bytes: Buffer.from(bytes) }, { population: 'European' });
    expect(total(r)).toBe(197);
  });
});

describe('derived CSV exports of the same workbook', () => {
  const cases: [string, number, number][] = [
    ['South_Australia_YSTRs.European.derived.csv', 197, 197],
    ['South_Australia_YSTRs.East_Asian.derived.csv', 196, 191],
    ['South_Australia_YSTRs.Aboriginal.derived.csv', 743, 588],
  ];
  it.each(cases)('%s: %i men in %i haplotypes, same as the sheet', async (file, men, distinct) => {
    const r = await parse(sharedFile(`formats/ystr/${file}`));
    expect(r.format).toBe('Y-STR haplotype table');
    expect(r.errors).toEqual([]);
    expect(r.markerNames).toEqual(YFILER_PLUS);
    expect(total(r)).toBe(men);
    expect(r.haplotypes).toHaveLength(distinct);
  });

  it('reads the quoted "12,13" DYS385 cell of the first European man as the set {12, 13}', async () => {
    const r = await parse(sharedFile('formats/ystr/South_Australia_YSTRs.European.derived.csv'));
    expect(r.population).toBe('European');
    expect(r.haplotypes[0]?.values[idOf('DYS385')]).toEqual(['12', '13']);
    expect(r.haplotypes[0]?.values[idOf('DYS19')]).toEqual(['14']);
  });
});

describe('KGP_O2_sample7.matrix (tab-separated, DYS385 split into a/b columns)', () => {
  it('joins DYS385a and DYS385b into one unordered DYS385 set', async () => {
    const r = await parse(sharedFile('formats/ystr/KGP_O2_sample7.matrix'));
    expect(r.errors).toEqual([]);
    expect(r.markerNames).toEqual(['DYS19', 'DYS385', 'DYS389I', 'DYS389II', 'DYS390', 'DYS391', 'DYS392', 'DYS393']);
    expect(r.haplotypes).toHaveLength(7);
    // NA18530: DYS385a 14, DYS385b 10 → {10, 14}
    expect(r.haplotypes[0]?.values[idOf('DYS385')]).toEqual(['10', '14']);
  });

  it('gives the same result when the catalogue lists DYS385a/DYS385b as aliases', async () => {
    const withSplitAliases = makeResolver(REALISTIC_MARKERS.map((m) => (m.name === 'DYS385' ? { ...m, aliases: ['DYS385a', 'DYS385b'] } : m)));
    const r = await parse(sharedFile('formats/ystr/KGP_O2_sample7.matrix'), {}, withSplitAliases);
    expect(r.haplotypes[0]?.values[idOf('DYS385')]).toEqual(['10', '14']);
  });
});

describe('haplotype table rules', () => {
  it('merges identical haplotypes whatever the order of multi-copy values, and counts them', async () => {
    const csv = 'Sample,DYS19,DYS385\nA,14,"11,14"\nB,14,"14,11"\nC,15,"11,14"\n';
    const r = await parse(textFile('y.csv', csv));
    expect(r.haplotypes).toEqual([
      { values: { [idOf('DYS19')]: ['14'], [idOf('DYS385')]: ['11', '14'] }, count: 2 },
      { values: { [idOf('DYS19')]: ['15'], [idOf('DYS385')]: ['11', '14'] }, count: 1 },
    ]);
  });

  it('keeps a haplotype with a missing value apart from a complete one', async () => {
    const csv = 'Sample,DYS19,DYS390\nA,14,23\nB,14,\nC,14,--\n';
    const r = await parse(textFile('y.csv', csv));
    expect(r.haplotypes).toEqual([
      { values: { [idOf('DYS19')]: ['14'], [idOf('DYS390')]: ['23'] }, count: 1 },
      { values: { [idOf('DYS19')]: ['14'] }, count: 2 },
    ]);
  });

  it('reports an unknown marker column exactly, with the header row', async () => {
    const r = await parse(textFile('y.csv', 'Sample,DYS19,DYS999,DYS390\nA,14,7,23\n'));
    expect(r.errors).toEqual([{ row: 1, marker: 'DYS999', message: 'Marker DYS999 is invalid' }]);
  });

  it('reports a value that is not a repeat number, naming row and marker', async () => {
    const r = await parse(textFile('y.csv', 'Sample,DYS19,DYS390\nA,14,23\nB,abc,23\n'));
    expect(r.errors).toEqual([{ row: 3, marker: 'DYS19', message: '"abc" at DYS19 is not an allele designation' }]);
  });

  it('skips a row with no Y-STR value (an untyped sample) with a warning', async () => {
    const r = await parse(textFile('y.csv', 'Sample,DYS19,DYS390\nA,14,23\nF,--,--\n'));
    expect(r.haplotypes).toHaveLength(1);
    expect(r.warnings).toEqual([{ row: 3, message: 'This row has no Y-STR values; skipped' }]);
  });

  it('rounds full-precision spreadsheet doubles written into a CSV (36.200000000000003 → 36.2)', async () => {
    const r = await parse(textFile('y.csv', 'Sample,DYF387S1,DYS19\nA,"35,36.200000000000003",16.099999999999998\n'));
    expect(r.haplotypes[0]?.values).toEqual({ [idOf('DYF387S1')]: ['35', '36.2'], [idOf('DYS19')]: ['16.1'] });
  });

  it('a derived DYS385sum column is not a locus', async () => {
    const r = await parse(textFile('y.csv', 'Sample,DYS19,DYS385,DYS385sum\nA,14,"11,14",25\n'));
    expect(r.errors).toEqual([]);
    expect(r.markerNames).toEqual(['DYS19', 'DYS385']);
    expect(r.warnings[0]?.message).toBe('DYS385sum is derived from DYS385, not a locus; the column is skipped');
  });

  it('uses a Count column as the number of men with the haplotype', async () => {
    const r = await parse(textFile('y.tsv', 'DYS19\tDYS390\tCount\n14\t23\t3\n14\t23\t2\n'));
    expect(r.haplotypes).toEqual([{ values: { [idOf('DYS19')]: ['14'], [idOf('DYS390')]: ['23'] }, count: 5 }]);
  });

  it('a header-only haplotype table holds no haplotypes', async () => {
    const r = await parse(textFile('y.csv', 'Sample,DYS19,DYS390\n'), { kind: 'YStr' });
    expect(r.errors.map((e) => e.message)).toEqual(['y.csv holds no haplotypes']);
  });
});
