import { describe, expect, it } from 'vitest';
import { allelesOf, messages, parseUpload, profileNamed } from './profile-files.fixture';

// GENETICS.md "Profiles and alleles": a forensic unknown or mixture may carry any number of alleles per marker
// (3- and 4-person mixtures show 5–13), refused only above 40; Amelogenin coded 1/2 is read as X/Y with a warning.

/** A GeneMapper ID-X genotypes table (tab-separated) with `Allele n`, `Size n`, `Height n` interleaved for n = 1…slots. */
function geneMapperTable(slots: number, rows: { sample: string; marker: string; alleles: string[] }[]): string {
  const numbered = Array.from({ length: slots }, (_, i) => [`Allele ${i + 1}`, `Size ${i + 1}`, `Height ${i + 1}`]).flat();
  const header = ['Sample File', 'Sample Name', 'Panel', 'Marker', 'Dye', ...numbered].join('\t');
  const lines = rows.map(({ sample, marker, alleles }) => {
    const cells = Array.from({ length: slots }, (_, i) => {
      const allele = alleles[i];
      // Sizes and heights are numbers too: they must never be read as alleles.
      return allele === undefined ? ['', '', ''] : [allele, `${100 + i * 4}.${i}`, `${50 + i * 37}`];
    }).flat();
    return [`${sample}.fsa`, sample, 'GlobalFiler_v2', marker, 'B', ...cells].join('\t');
  });
  return `${[header, ...lines].join('\r\n')}\r\n`;
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => `${from + i}`);

/** A synthetic 4-person mixture run as GeneMapper ID-X exports it: 8–13 peaks at a marker, Amelogenin written 1/2, a ladder and controls. */
const FOUR_PERSON_RUN = geneMapperTable(24, [
  { sample: 'Allelic Ladder', marker: 'FGA', alleles: ['17', '18', '19', '20', '21', '22', '23', '24', '25', '26', '26.2', '27', '28', '29', '30', '30.2', '31.2', '33.2', '42.2', '44.2', '45.2', '46.2', '47.2', '48.2'] },
  { sample: 'MIX-4P-01', marker: 'D3S1358', alleles: range(12, 8) },
  { sample: 'MIX-4P-01', marker: 'vWA', alleles: range(11, 10) },
  { sample: 'MIX-4P-01', marker: 'FGA', alleles: ['18', '19', '20', '21', '22', '22.2', '23', '24', '25', '26', '27', '28', '30.2'] },
  { sample: 'MIX-4P-01', marker: 'D21S11', alleles: ['27', '28', '29', '30', '30.2', '31', '31.2', '32.2', '33.2'] },
  { sample: 'MIX-4P-01', marker: 'TH01', alleles: ['6', '7', '8', '9', '9.3', '10'] },
  { sample: 'MIX-4P-01', marker: 'AMEL', alleles: ['1', '2'] },
  { sample: 'MIX-4P-02', marker: 'D3S1358', alleles: range(13, 9) },
  { sample: 'MIX-4P-02', marker: 'SE33', alleles: ['15', '17', '19', '20.2', '21', '22.2', '24.2', '25.2', '27.2', '28.2', '29.2', '31', '33'] },
  { sample: 'MIX-4P-02', marker: 'AMEL', alleles: ['1'] },
  { sample: 'NEG-CTRL-01', marker: 'D3S1358', alleles: [] },
  { sample: 'Pos', marker: 'D3S1358', alleles: ['16', '17'] },
]);

describe('3- and 4-person mixtures in profile files (no sample type in the file)', () => {
  it('reads a synthetic 4-person GeneMapper ID-X run: 8 to 13 alleles per marker from Allele 1…24, sizes and heights ignored', async () => {
    const result = await parseUpload('mix-4p.txt', FOUR_PERSON_RUN);
    expect(result.format).toBe('GeneMapper genotypes table (TSV)');
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => [p.profileId, p.errors])).toEqual([
      ['MIX-4P-01', []],
      ['MIX-4P-02', []],
    ]);
    const first = allelesOf(profileNamed(result, 'MIX-4P-01'));
    expect(first.D3S1358).toEqual(range(12, 8));
    expect(first.vWA).toEqual(range(11, 10));
    expect(first.FGA).toEqual(['18', '19', '20', '21', '22', '22.2', '23', '24', '25', '26', '27', '28', '30.2']);
    expect(first.D21S11).toHaveLength(9);
    expect(first.Amelogenin).toEqual(['X', 'Y']);
    const second = allelesOf(profileNamed(result, 'MIX-4P-02'));
    expect(second.SE33).toHaveLength(13);
    expect(second.Amelogenin).toEqual(['X']);
    expect(result.controls.map((c) => [c.sampleName, c.reason])).toEqual([
      ['Allelic Ladder', 'allelic ladder'],
      ['NEG-CTRL-01', 'negative control'],
      ['Pos', 'positive control'],
    ]);
    expect(messages(result.warnings)).toEqual([
      'Allelic ladders and controls are run checks, not samples; not imported: Allelic Ladder (allelic ladder), NEG-CTRL-01 (negative control), Pos (positive control)',
      'Amelogenin written as 1/2 read as X/Y (1 = X, 2 = Y) for samples MIX-4P-01, MIX-4P-02',
      // CMF 3.2 holds at most 8 alleles per locus: said at import, not first at download.
      'Not exportable as CODIS CMF 3.2 as they stand (they can still be added): MIX-4P-01 (10 alleles at vWA, at most 8; 13 alleles at FGA, at most 8; 9 alleles at D21S11, at most 8), MIX-4P-02 (9 alleles at D3S1358, at most 8; 13 alleles at SE33, at most 8)',
    ]);
  });

  it('reads a NIST MIX05-like case (Identifiler, comma-separated, AMEL 1/2 in the mixture and both references) with one warning', async () => {
    // Shaped after the MIX05 interlaboratory case files as tools such as LabRetriever read them: Sample Name, Marker,
    // Allele 1…n, Amelogenin written 1 (X) and 2 (Y). Synthetic values.
    const csv = [
      'Sample Name,Marker,Allele 1,Allele 2,Allele 3,Allele 4,Allele 5,Allele 6,Height 1,Height 2,Height 3,Height 4,Height 5,Height 6',
      'MIX05 Case 1,D8S1179,10,12,13,14,15,,812,455,1290,377,233,',
      'MIX05 Case 1,D21S11,28,29,30,31.2,32.2,33.2,610,588,402,255,190,101',
      'MIX05 Case 1,D7S820,8,10,11,12,,,905,877,512,310,,',
      'MIX05 Case 1,TH01,6,7,9,9.3,,,1201,640,597,388,,',
      'MIX05 Case 1,AMEL,1,2,,,,,2301,1102,,,,',
      'Victim,D8S1179,13,13,,,,,1503,,,,,',
      'Victim,D21S11,30,31.2,,,,,801,790,,,,',
      'Victim,TH01,6,9.3,,,,,1320,1290,,,,',
      'Victim,AMEL,1,1,,,,,2800,,,,,',
      'Suspect,D8S1179,10,14,,,,,1200,1180,,,,',
      'Suspect,D21S11,28,32.2,,,,,900,870,,,,',
      'Suspect,TH01,7,9,,,,,1100,1050,,,,',
      'Suspect,AMEL,1,2,,,,,1400,1350,,,,',
    ].join('\n');
    const result = await parseUpload('MIX05 Case 1.csv', csv);
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => p.profileId)).toEqual(['MIX05 Case 1', 'Victim', 'Suspect']);
    expect(allelesOf(result.profiles[0])).toEqual({
      D8S1179: ['10', '12', '13', '14', '15'],
      D21S11: ['28', '29', '30', '31.2', '32.2', '33.2'],
      D7S820: ['8', '10', '11', '12'],
      TH01: ['6', '7', '9', '9.3'],
      Amelogenin: ['X', 'Y'],
    });
    expect(allelesOf(result.profiles[1]).Amelogenin).toEqual(['X']);
    expect(allelesOf(result.profiles[2]).Amelogenin).toEqual(['X', 'Y']);
    expect(result.warnings).toEqual([{ row: null, message: 'Amelogenin written as 1/2 read as X/Y (1 = X, 2 = Y) for samples MIX05 Case 1, Victim, Suspect' }]);
  });

  it('reads a CMF forensic mixture locus with many ALLELE elements, and refuses more than 40 naming the locus and count', async () => {
    const locus = (name: string, alleles: string[]) =>
      `<LOCUS><LOCUSNAME>${name}</LOCUSNAME>${alleles.map((a) => `<ALLELE><ALLELEVALUE>${a}</ALLELEVALUE></ALLELE>`).join('')}</LOCUS>`;
    const specimen = (id: string, category: string, loci: string) =>
      `<SPECIMEN><SPECIMENID>${id}</SPECIMENID><SPECIMENCATEGORY>${category}</SPECIMENCATEGORY>${loci}</SPECIMEN>`;
    const xml = `<CODISImportFile xmlns="urn:CODISImportFile-schema">${[
      specimen('MIX-1', 'Forensic Mixture', locus('D18S51', range(10, 11)) + locus('TH01', ['6', '7', '8', '9', '9.3'])),
      specimen('MIX-2', 'Forensic, Unknown', locus('SE33', range(5, 41))),
    ].join('')}</CODISImportFile>`;
    const result = await parseUpload('mix.xml', xml);
    expect(allelesOf(result.profiles[0])).toEqual({ D18S51: range(10, 11), TH01: ['6', '7', '8', '9', '9.3'] });
    expect(result.profiles[0]!.errors).toEqual([]);
    expect(result.profiles[1]!.errors).toEqual(['SE33 has 41 alleles; even a mixture carries at most 40 per marker']);
    expect(result.errors).toEqual([{ row: 1, sample: 'MIX-2', marker: 'SE33', message: 'SE33 has 41 alleles; even a mixture carries at most 40 per marker' }]);
  });

  it('refuses a 41-allele marker of a table too, but takes 40', async () => {
    const table = geneMapperTable(41, [
      { sample: 'S40', marker: 'SE33', alleles: range(5, 40) },
      { sample: 'S41', marker: 'SE33', alleles: range(5, 41) },
    ]);
    const result = await parseUpload('many.txt', table);
    expect(result.profiles.map((p) => [p.profileId, p.errors])).toEqual([
      ['S40', []],
      ['S41', ['SE33 has 41 alleles; even a mixture carries at most 40 per marker']],
    ]);
  });

  it('still holds a reference (a CMF known suspect) to 1 or 2 alleles', async () => {
    const xml =
      '<CODISImportFile xmlns="urn:CODISImportFile-schema"><SPECIMEN><SPECIMENID>K1</SPECIMENID><SPECIMENCATEGORY>Suspect, Known</SPECIMENCATEGORY>' +
      '<LOCUS><LOCUSNAME>TH01</LOCUSNAME><ALLELE><ALLELEVALUE>6</ALLELEVALUE></ALLELE><ALLELE><ALLELEVALUE>7</ALLELEVALUE></ALLELE><ALLELE><ALLELEVALUE>9</ALLELEVALUE></ALLELE></LOCUS>' +
      '</SPECIMEN></CODISImportFile>';
    expect((await parseUpload('ref.xml', xml)).profiles[0]!.errors).toEqual(['TH01 has 3 alleles (6, 7, 9); a single-source profile has 1 or 2 per marker']);
  });
});

describe('Amelogenin as files write it', () => {
  const HEADER = 'Sample Name,Marker,Allele 1,Allele 2\n';

  it('reads 1/2 as X/Y with one warning for the file naming the mapping and the samples', async () => {
    const result = await parseUpload('amel.csv', `${HEADER}A,AMEL,1,2\nA,TH01,6,7\nB,Amelogenin,1,1\nB,TH01,8,9\nC,AMEL,X,Y\n`);
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => allelesOf(p).Amelogenin)).toEqual([['X', 'Y'], ['X'], ['X', 'Y']]);
    expect(result.warnings).toEqual([{ row: null, message: 'Amelogenin written as 1/2 read as X/Y (1 = X, 2 = Y) for samples A, B' }]);
  });

  it('leaves a marker that mixes 1/2 with X/Y to the allele rules, which refuse it', async () => {
    const result = await parseUpload('amel.csv', `${HEADER}A,AMEL,X,2\n`);
    expect(result.errors).toEqual([{ row: 2, sample: 'A', marker: 'Amelogenin', message: 'Amelogenin takes only X or Y, not 2' }]);
    expect(result.warnings).toEqual([]);
  });

  it('never reads 1/2 as X/Y at another marker', async () => {
    const result = await parseUpload('amel.csv', `${HEADER}A,TH01,1,2\n`);
    expect(allelesOf(result.profiles[0]).TH01).toEqual(['1', '2']);
    expect(result.warnings).toEqual([]);
  });

  it('treats placeholder letters at Amelogenin (INC, ND, ?, OL) as not typed: skipped with one warning, not refused', async () => {
    const csv = `${HEADER}A,AMEL,INC,\nA,TH01,6,7\nB,AMEL,ND,ND\nB,TH01,8,9\nC,AMEL,?,\nC,TH01,6,6\nD,AMEL,-,\nD,TH01,7,7\n`;
    const result = await parseUpload('amel.csv', csv);
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => [p.profileId, Object.keys(allelesOf(p)), p.errors])).toEqual([
      ['A', ['TH01'], []],
      ['B', ['TH01'], []],
      ['C', ['TH01'], []],
      ['D', ['TH01'], []],
    ]);
    expect(messages(result.warnings)).toEqual([
      // `-` is an empty cell's placeholder in every format (FORMATS.md §0), so D's Amelogenin is merely empty.
      'D: no alleles at Amelogenin; skipped',
      'Amelogenin holds no X or Y but INC, ND, ? for samples A, B, C; read as not typed and skipped',
    ]);
  });

  it('reads OL beside X or Y at Amelogenin as not typed, keeps the X or Y, and warns once naming the samples (set3.txt)', async () => {
    const result = await parseUpload('amel.csv', `${HEADER}A,AMEL,X,OL\nA,TH01,6,7\nB,AMEL,ol,Y\nB,TH01,8,9\nC,AMEL,X,Y\nC,TH01,6,6\n`);
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => [p.profileId, allelesOf(p).Amelogenin, p.errors])).toEqual([
      ['A', ['X'], []],
      ['B', ['Y'], []],
      ['C', ['X', 'Y'], []],
    ]);
    expect(messages(result.warnings)).toEqual(['Amelogenin OL (off-ladder) read as not typed for samples A, B; their X or Y kept']);
  });

  it('refuses a placeholder beside a real X or Y, since the marker was typed', async () => {
    const result = await parseUpload('amel.csv', `${HEADER}A,AMEL,X,INC\n`);
    expect(messages(result.errors)).toEqual(['Amelogenin: "INC" is not an allele designation; the lab markings Locus keeps are OL, <n and >n']);
  });
});

describe('letters that are no allele designation', () => {
  it('refuses INC, ND, ? and abc at a marker instead of storing them as markings, naming row, sample and marker', async () => {
    const csv = 'Sample Name,Marker,Allele 1,Allele 2\nS1,vWA,INC,17\nS1,TH01,ND,\nS2,FGA,?,21\nS3,D3S1358,abc,15\nS4,D8S1179,OL,ol\n';
    const result = await parseUpload('letters.csv', csv);
    const why = (text: string) => `"${text}" is not an allele designation; the lab markings Locus keeps are OL, <n and >n`;
    expect(result.errors).toEqual([
      { row: 2, sample: 'S1', marker: 'vWA', message: `vWA: ${why('INC')}` },
      { row: 3, sample: 'S1', marker: 'TH01', message: `TH01: ${why('ND')}` },
      { row: 4, sample: 'S2', marker: 'FGA', message: `FGA: ${why('?')}` },
      { row: 5, sample: 'S3', marker: 'D3S1358', message: `D3S1358: ${why('abc')}` },
    ]);
    expect(result.profiles.map((p) => p.errors.length)).toEqual([2, 1, 1, 0]);
    expect(allelesOf(result.profiles[3]).D8S1179).toEqual(['OL']);
  });
});

describe('profiles a CODIS CMF export could never hold', () => {
  it('says so at import, naming each and why: a name over 24 characters, more than 8 alleles at a locus (issue 30)', async () => {
    const csv = `Sample Name,Marker,Allele 1,Allele 2,Allele 3,Allele 4,Allele 5,Allele 6,Allele 7,Allele 8,Allele 9
REFERENCE-OF-THE-VICTIM-0001,TH01,6,7,,,,,,,
MIX-1,D3S1358,12,13,14,15,16,17,18,19,20
OK-1,TH01,8,9,,,,,,,
`;
    const result = await parseUpload('cmf-limits.csv', csv);
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => p.errors)).toEqual([[], [], []]);
    expect(messages(result.warnings)).toEqual([
      'Not exportable as CODIS CMF 3.2 as they stand (they can still be added): REFERENCE-OF-THE-VICTIM-0001 (the sample name has 28 characters, at most 24), MIX-1 (9 alleles at D3S1358, at most 8)',
    ]);
  });
});
