import { describe, expect, it } from 'vitest';
import { parseFrequencyFile } from '../../../../../server/imports/frequencies';
import { alleleProblemAt } from '../../../../../server/imports/frequencies/alleles';
import { resolveMarker, textFile } from './markers.fixture';

// Issue 13: a frequency table's alleles follow the rules of a profile's (core/alleles): readable, a
// plausible repeat number (0 < n < 100), and X/Y at Amelogenin only; each refusal names its row and marker.
const parse = (body: string, fileName = 'upload.csv') => parseFrequencyFile(textFile(fileName, body), resolveMarker);

describe('frequency alleles follow the allele rules of core/alleles', () => {
  it('refuses 10004.9, 9.33 and abc in a long table, naming row and marker; the good rows are read', async () => {
    const r = await parse(
      'marker,allele,frequency\nD3S1358,15,0.5\nD3S1358,10004.9,0.25\nD3S1358,9.33,0.25\nTH01,abc,0.5\nTH01,9.3,0.5\n',
    );
    expect(r.errors).toEqual([
      {
        row: 4,
        marker: 'D3S1358',
        message: '"9.33" at D3S1358 is not an allele designation (9.33 is not a microvariant: write one digit after the point, as in 9.3); the row is skipped',
      },
      { row: 5, marker: 'TH01', message: expect.stringMatching(/^"abc" at TH01 is not an allele designation/) },
      { row: 3, marker: 'D3S1358', message: '"10004.9" at D3S1358 is out of range (a repeat number is above 0 and below 100)' },
    ]);
  });

  it('takes X and Y at Amelogenin only, and only X and Y there', async () => {
    const ok = await parse('marker,allele,frequency\nAmelogenin,X,0.5\nAmelogenin,y,0.5\n');
    expect(ok.errors).toEqual([]);
    expect(ok.kind === 'Autosomal' && ok.markers[0]!.alleles.map((a) => a.allele)).toEqual(['X', 'Y']);

    const wrong = await parse('marker,allele,frequency\nvWA,X,0.5\nvWA,17,0.5\nAmelogenin,12,1\n');
    expect(wrong.errors).toEqual([
      { row: 2, marker: 'vWA', message: '"X" at vWA is only valid at Amelogenin; the row is skipped' },
      { row: 4, marker: 'Amelogenin', message: '"12" at Amelogenin is not valid at Amelogenin, which takes only X or Y; the row is skipped' },
    ]);
  });

  it('checks an allele × marker grid per column: an X row is refused where a marker column holds a value for it', async () => {
    const r = await parse('Allele,D3S1358,Amelogenin\n15,1,\nX,,0.5\nY,,0.5\n');
    expect(r.errors).toEqual([]);
    const wrong = await parse('Allele,D3S1358\n15,0.5\nX,0.5\n');
    expect(wrong.errors).toEqual([{ row: 3, marker: 'D3S1358', message: '"X" at D3S1358 is only valid at Amelogenin' }]);
    const range = await parse('Allele,D3S1358\n15,0.5\n10004.9,0.5\n');
    expect(range.errors).toEqual([{ row: 3, marker: 'D3S1358', message: '"10004.9" at D3S1358 is out of range (a repeat number is above 0 and below 100)' }]);
  });

  it('refuses a Familias list allele by the same rules, at its line', async () => {
    const r = await parse('D3S1358\n15\t0.5\n9.33\t0.5\n', 'list.txt');
    expect(r.errors).toEqual([
      {
        row: 3,
        marker: 'D3S1358',
        message: '"9.33" at D3S1358 is not an allele designation (9.33 is not a microvariant: write one digit after the point, as in 9.3); the line is skipped',
      },
    ]);
  });

  it('skips, with a warning, a marker listed wholly by fragment length (norSTR D17S906), keeping the rest of the file', async () => {
    const r = await parse('marker,allele,frequency\nD3S1358,15,1\nTH01,326,0.5\nTH01,330,0.5\n');
    expect(r.errors).toEqual([]);
    expect(r.kind === 'Autosomal' && r.markers.map((m) => m.marker)).toEqual(['D3S1358']);
    expect(r.warnings).toEqual([
      { row: 3, marker: 'TH01', message: 'Every allele of TH01 (326 … 330) is outside the repeat numbers 1–99 a profile can hold (fragment lengths?); the marker is skipped' },
      expect.objectContaining({ row: null, message: expect.stringMatching(/^upload\.csv gives no sample size \(N\) for any marker/) }),
    ]);
  });

  it('refuses a Y-STR value out of range, and keeps a 0 (a null allele) as no value, with a warning', async () => {
    const r = await parseFrequencyFile(textFile('y.csv', 'Sample,DYS19,DYS390\nA,14,23\nB,140,23\nC,0,24\nD,0,25\n'), resolveMarker);
    expect(r.errors).toEqual([{ row: 3, marker: 'DYS19', message: '"140" at DYS19 is out of range (a repeat number is above 0 and below 100)' }]);
    expect(r.warnings).toEqual([{ row: 4, marker: 'DYS19', message: 'DYS19 is 0, a null allele, in 2 rows (4, 5): kept as no value at DYS19' }]);
    expect(r.kind === 'YStr' && r.haplotypes.map((h) => h.values)).toEqual([
      { 'id-DYS19': ['14'], 'id-DYS390': ['23'] },
      { 'id-DYS390': ['23'] },
      { 'id-DYS390': ['24'] },
      { 'id-DYS390': ['25'] },
    ]);
  });

  it('words each rule as a phrase after the allele and marker', () => {
    expect(alleleProblemAt('15', 'D3S1358')).toBeNull();
    expect(alleleProblemAt('<8', 'TH01')).toBeNull();
    expect(alleleProblemAt('>150', 'TH01')).toMatch(/^is out of range/);
    expect(alleleProblemAt('0', 'TH01')).toMatch(/^is out of range/);
    expect(alleleProblemAt('OL', 'TH01')).toMatch(/^is not an allele designation/);
    expect(alleleProblemAt('Y', 'AMEL')).toBeNull();
  });
});
