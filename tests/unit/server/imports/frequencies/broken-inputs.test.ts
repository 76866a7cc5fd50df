import { describe, expect, it } from 'vitest';
import { parseFrequencyFile, type ParsedFrequencies } from '../../../../../server/imports/frequencies';
import { idOf, resolveMarker, sharedFile, textFile } from './markers.fixture';

type Autosomal = Extract<ParsedFrequencies, { kind: 'Autosomal' }>;

async function parse(input: { fileName: string; bytes: Uint8Array }, opts: Parameters<typeof parseFrequencyFile>[2] = {}): Promise<Autosomal> {
  const result = await parseFrequencyFile(input, resolveMarker, opts);
  if (result.kind !== 'Autosomal') throw new Error(`${input.fileName} parsed as ${result.kind}`);
  return result;
}

const text = (body: string, fileName = 'upload.csv') => parse(textFile(fileName, body));

describe('empty and header-only files', () => {
  it('an empty file says so', async () => {
    const r = await parse({ fileName: 'empty.csv', bytes: new Uint8Array() });
    expect(r.errors).toEqual([{ row: null, message: 'The file empty.csv is empty' }]);
    expect(r.markers).toEqual([]);
  });

  it('a file of blank lines (and a BOM) is empty too', async () => {
    const r = await parse({ fileName: 'blank.csv', bytes: new Uint8Array([0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0x20, 0x0a]) });
    expect(r.errors.map((e) => e.message)).toEqual(['The file blank.csv is empty']);
  });

  it('a header without allele rows holds no frequencies', async () => {
    const r = await text('Allele,D3S1358,vWA\n', 'header.csv');
    expect(r.format).toBe('Wide allele × marker table (CSV)');
    expect(r.errors.map((e) => e.message)).toEqual(['header.csv holds no allele frequencies']);
    expect(r.warnings.map((w) => w.marker)).toEqual(['D3S1358', 'vWA']);
  });

  it('a long table header alone holds no frequencies', async () => {
    const r = await text('marker,allele,frequency\r\n', 'long.csv');
    expect(r.format).toBe('Long marker/allele/frequency table');
    expect(r.errors.map((e) => e.message)).toEqual(['long.csv holds no allele frequencies']);
  });
});

describe('marker names', () => {
  it('an unknown marker column gives exactly "Marker {name} is invalid" with the header row; the other markers still read', async () => {
    const r = await text('Allele,D3S1358,D99S999\n14,0.5,0.5\n15,0.5,0.5\n');
    expect(r.errors).toEqual([{ row: 1, marker: 'D99S999', message: 'Marker D99S999 is invalid' }]);
    expect(r.markers.map((m) => m.marker)).toEqual(['D3S1358']);
  });

  it('an unknown marker repeated on many rows of a long table is reported once, at its first row', async () => {
    const r = await text('marker,allele,frequency\nD3S1358,14,1\nD99S999,7,0.5\nD99S999,8,0.5\n');
    expect(r.errors).toEqual([{ row: 3, marker: 'D99S999', message: 'Marker D99S999 is invalid' }]);
  });

  it('aliases and case resolve to one marker: VWA, THO1, PENTA_D', async () => {
    const r = await text('Allele,VWA,THO1,PENTA_D\n9,,1,\n14,1,,1\n');
    expect(r.errors).toEqual([]);
    expect(r.markers.map((m) => [m.markerId, m.marker])).toEqual([
      [idOf('vWA'), 'vWA'],
      [idOf('TH01'), 'TH01'],
      [idOf('Penta D'), 'Penta D'],
    ]);
  });

  it('two columns for the same marker are refused', async () => {
    const r = await text('Allele,VWA,vWA\n14,1,1\n');
    expect(r.errors.map((e) => e.message)).toEqual(['Marker vWA appears in two columns (VWA and vWA)']);
  });

  it('a Y-STR marker in an allele-frequency table is refused: Y-STR populations are haplotype tables', async () => {
    const r = await text('Allele,DYS19,DYS390\n14,1,\n23,,1\n');
    expect(r.errors.map((e) => e.message)).toEqual([
      'DYS19, DYS390 are Y-STR markers: Y-STR statistics are imported as a haplotype table (one row per man, one column per marker), not as allele frequencies',
    ]);
  });
});

describe('frequency values', () => {
  it('1.5 is outside (0, 1]: the error names row, marker and allele, and no sum error is added', async () => {
    const r = await text('Allele,D3S1358\n14,1.5\n15,0.2\n');
    expect(r.errors).toEqual([{ row: 2, marker: 'D3S1358', message: 'Frequency 1.5 of allele 14 at D3S1358 is outside (0, 1]' }]);
  });

  it('a negative frequency is outside (0, 1] too', async () => {
    const r = await text('marker,allele,frequency\nD3S1358,14,-0.1\nD3S1358,15,1\n');
    expect(r.errors).toEqual([{ row: 2, marker: 'D3S1358', message: 'Frequency -0.1 of allele 14 at D3S1358 is outside (0, 1]' }]);
  });

  it('"abc" is not a number: the error names row and marker, and no sum error is added', async () => {
    const r = await text('Allele,D3S1358\n14,0.5\n15,abc\n');
    expect(r.errors).toEqual([{ row: 3, marker: 'D3S1358', message: 'Frequency of allele 15 at D3S1358: "abc" is not a number' }]);
  });

  it('an empty cell, NA or 0 means the allele is absent, not an error', async () => {
    const r = await text('Allele,D3S1358\n13,\n14,NA\n15,0\n16,1\n');
    expect(r.errors).toEqual([]);
    expect(r.markers[0]?.alleles).toEqual([{ allele: '16', frequency: 1 }]);
  });

  it('frequencies that sum to 0.912 are refused, naming the marker, the sum and the marker row', async () => {
    const r = await text('Allele,D3S1358\n14,0.5\n15,0.412\n');
    expect(r.errors).toEqual([{ row: 1, marker: 'D3S1358', message: 'Frequencies of D3S1358 sum to 0.912; they must sum to 1 ± 0.02' }]);
  });

  it('a sum of 1.021 is refused and one of 0.985 accepted (tolerance 0.02)', async () => {
    const over = await text('Allele,D3S1358\n14,0.521\n15,0.5\n');
    expect(over.errors.map((e) => e.message)).toEqual(['Frequencies of D3S1358 sum to 1.021; they must sum to 1 ± 0.02']);
    const within = await text('Allele,D3S1358\n14,0.485\n15,0.5\n');
    expect(within.errors).toEqual([]);
  });

  it('an allele written twice for a marker ("14" and "14.0") is a duplicate', async () => {
    const r = await text('Allele,D3S1358\n14,0.5\n14.0,0.5\n');
    expect(r.errors).toEqual([{ row: 3, marker: 'D3S1358', message: 'Allele 14 appears more than once for D3S1358' }]);
  });

  it('a duplicate row of a long table is reported at its second row', async () => {
    const r = await text('marker,allele,frequency\nvWA,14,0.5\nvWA,15,0.5\nVWA,15,0.5\n');
    expect(r.errors).toEqual([{ row: 4, marker: 'vWA', message: 'Allele 15 appears more than once for vWA' }]);
  });

  it('a label that is not an allele designation is reported and its row skipped', async () => {
    const r = await text('Allele,D3S1358\n14,1\nrare,0.01\n');
    expect(r.errors).toEqual([{ row: 3, message: '"rare" is not an allele designation; the row is skipped' }]);
  });

  it('decimal commas are read when the file uses them throughout', async () => {
    const r = await text('Allele;D3S1358;TH01\n9,3;;0,5\n14;0,25;0,5\n15;0,75;\n');
    expect(r.errors).toEqual([]);
    expect(r.markers.find((m) => m.marker === 'TH01')?.alleles).toEqual([
      { allele: '9.3', frequency: 0.5 },
      { allele: '14', frequency: 0.5 },
    ]);
  });

  it('a file mixing decimal commas and points is refused at the first inconsistent cell', async () => {
    const r = await text('Allele;D3S1358\n14;0,5\n15;0.5\n');
    expect(r.errors).toEqual([
      { row: 3, marker: 'D3S1358', message: 'Frequency of allele 15 at D3S1358: "0.5" uses a decimal point, but the file uses decimal commas' },
    ]);
  });

  it('a row longer than the header is refused rather than guessed', async () => {
    const r = await text('Allele;D3S1358\n14;0,5;0,5\n15;1\n');
    expect(r.errors[0]).toEqual({ row: 2, message: 'This row has 3 cells but the header has 2; it is skipped' });
  });

  it('an unterminated quote is reported', async () => {
    const r = await text('"Allele","D3S1358"\n"14","1\n');
    expect(r.errors.map((e) => e.message)).toContain('A quoted value is not closed; the file may be cut short');
  });
});

describe('populations', () => {
  it('a population the file does not hold is named, with the ones it does', async () => {
    const r = await parse(sharedFile('formats/frequencies-formats/database.txt'), { population: 'Mars' });
    expect(r.errors).toEqual([{ row: null, message: 'Population "Mars" is not in this file; it holds "SGM Norway", "ESX 17 Hill"' }]);
    expect(r.markers).toEqual([]);
  });
});

describe('XML', () => {
  const strider = () => new TextDecoder().decode(sharedFile('formats/frequencies-formats/frequencies_STRBASE.xml').bytes);

  it('a truncated STRidER file is refused, naming the elements left open and the last line', async () => {
    const full = strider();
    const cut = full.slice(0, full.indexOf('</origin>', 4000) + '</origin>'.length);
    const r = await text(cut, 'cut.xml');
    expect(r.markers).toEqual([]);
    expect(r.errors).toEqual([
      { row: cut.split('\n').length, message: 'The XML ends before <marker>, <frequencies> are closed; the file is cut short or damaged' },
    ]);
  });

  it('XML broken inside an element is refused as not well-formed, with its line', async () => {
    const r = await text('<?xml version="1.0"?>\n<frequencies>\n<marker><name>TH01</nam></marker>\n</frequencies>', 'bad.xml');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.row).toBe(3);
    expect(r.errors[0]?.message).toMatch(/^The XML is not well-formed \(.+\); the file may be cut short or damaged$/);
  });

  it('a DOCTYPE with an entity is refused before parsing: entities are never expanded', async () => {
    const xml =
      '<?xml version="1.0"?>\n<!DOCTYPE frequencies [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n' +
      '<frequencies><marker><name>&lol2;</name><origin name="X" n="1"><frequency allele="14">1</frequency></origin></marker></frequencies>';
    const r = await text(xml, 'evil.xml');
    expect(r.errors).toEqual([
      { row: 2, message: 'XML files with a DOCTYPE or entity declarations are refused; remove the declaration and upload again' },
    ]);
    expect(r.markers).toEqual([]);
  });

  it('XML with another root element is named for what it is', async () => {
    const r = await text('<?xml version="1.0"?><CODISImportFile><HEADERVERSION>3.2</HEADERVERSION></CODISImportFile>', 'cmf.xml');
    expect(r.errors.map((e) => e.message)).toEqual(['cmf.xml is XML with root element <CODISImportFile>, not a STRidER frequency file (root element <frequencies>)']);
  });

  it('a BOM before the XML declaration is stripped', async () => {
    const xml = '\uFEFF<?xml version="1.0"?><frequencies><marker><name>TH01</name><origin name="X" n="10"><frequency allele="9.3">1.0e0</frequency></origin></marker></frequencies>';
    const r = await text(xml, 'bom.xml');
    expect(r.errors).toEqual([]);
    expect(r.markers).toEqual([{ markerId: idOf('TH01'), marker: 'TH01', sampleSize: 10, alleles: [{ allele: '9.3', frequency: 1 }] }]);
  });
});

describe('encodings and line endings', () => {
  it('ISO-8859-1 bytes are read as Latin-1 when they are not UTF-8', async () => {
    // "Bodø" in ISO-8859-1: ø = 0xF8, which alone is invalid UTF-8.
    const latin1 = Buffer.from('population,marker,allele,frequency\nBod\xf8,D3S1358,14,1\n', 'latin1');
    const r = await parse({ fileName: 'latin1.csv', bytes: latin1 });
    expect(r.errors).toEqual([]);
    expect(r.populations).toEqual(['Bodø']);
    expect(r.markers[0]?.alleles).toEqual([{ allele: '14', frequency: 1 }]);
  });

  it('CRLF, LF, lone CR and mixed line endings give the same result and the same row numbers', async () => {
    const lines = ['Allele,D3S1358', '14,0.5', '15,abc', '16,0.5'];
    const lf = await text(lines.join('\n'));
    const crlf = await text(lines.join('\r\n') + '\r\n');
    const cr = await text(lines.join('\r'));
    const mixed = await text(lines.slice(0, 3).join('\r\n') + '\n' + lines[3]);
    expect(lf.errors).toEqual([{ row: 3, marker: 'D3S1358', message: 'Frequency of allele 15 at D3S1358: "abc" is not a number' }]);
    expect(lf.markers[0]?.alleles).toEqual([{ allele: '14', frequency: 0.5 }, { allele: '16', frequency: 0.5 }]);
    for (const other of [crlf, cr, mixed]) {
      expect(other.errors).toEqual(lf.errors);
      expect(other.markers).toEqual(lf.markers);
    }
  });

  it('a CRLF Familias list reads like the LF original', async () => {
    const original = new TextDecoder().decode(sharedFile('formats/frequencies-formats/codis.txt').bytes);
    const r = await text(original.replace(/\n/g, '\r\n'), 'codis-crlf.txt');
    expect(r.format).toBe('Familias');
    expect(r.errors).toEqual([]);
    expect(r.markers).toHaveLength(13);
  });
});

describe('other broken files', () => {
  it('a binary file is not read as text', async () => {
    const r = await parse({ fileName: 'image.png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
    expect(r.errors.map((e) => e.message)).toEqual(['image.png is not a text file, an Excel workbook (.xlsx) or XML']);
  });

  it('a damaged workbook is reported, not thrown', async () => {
    const r = await parse({ fileName: 'broken.xlsx', bytes: new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]) });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.message).toMatch(/^broken\.xlsx could not be read as an Excel workbook \(.+\)$/);
  });

  it('a Familias project cut short in its database names the line where it breaks', async () => {
    const lines = new TextDecoder().decode(sharedFile('formats/frequencies-formats/paternity.fam').bytes).split('\n');
    // Keep the project up to D3S1358's header, dropping its allele-count line (line 119) and everything after.
    const r = await text(lines.slice(0, 118).join('\n'), 'cut.fam');
    expect(r.format).toBe('Familias project (.fam)');
    expect(r.errors).toEqual([{ row: 119, message: 'Line 119 of the Familias project should hold the number of alleles of D3S1358, but reads ""' }]);
  });

  it('a MERLIN frequency file (M/A lines) reads; an F line is reported', async () => {
    const r = await text('M TH01\nA 6 0.25\nA 9.3 0.75\nM vWA\nF 0.5 0.5\n', 'freq.dat');
    expect(r.format).toBe('MERLIN frequency file');
    expect(r.markers.map((m) => [m.marker, m.alleles])).toEqual([['TH01', [{ allele: '6', frequency: 0.25 }, { allele: '9.3', frequency: 0.75 }]]]);
    expect(r.errors.map((e) => [e.row, e.message])).toEqual([
      [5, 'Line "F 0.5 0.5" is not a marker (M) or allele (A) line; MERLIN F lines name no alleles and are not supported'],
    ]);
  });

  it('a space-separated Familias list with an unknown marker reports it at its title line', async () => {
    const r = await text('Penta E\n5 0.5\n7 0.5\n\nD99S1\n1 1\n', 'list.txt');
    expect(r.format).toBe('Familias');
    expect(r.markers.map((m) => m.marker)).toEqual(['Penta E']);
    expect(r.errors).toEqual([{ row: 5, marker: 'D99S1', message: 'Marker D99S1 is invalid' }]);
  });
});
