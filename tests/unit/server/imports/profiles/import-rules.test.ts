import { describe, expect, it } from 'vitest';
import { ImportedProfile } from '../../../../../core/schemas/profiles';
import { controlReason, isControlSample } from '../../../../../server/imports/profiles/controls';
import { allelesOf, idOf, messages, parseShared, parseUpload } from './profile-files.fixture';

const HEADER = 'Sample Name,Marker,Allele 1,Allele 2\n';

describe('unknown markers (spec 5)', () => {
  it('gives exactly "Marker {name} is invalid" once per unknown name, however many rows and samples use it', async () => {
    const csv = `${HEADER}S1,D3S1358,15,16\nS1,NOTAMARKER,1,2\nS2,NOTAMARKER,3,4\nS2,D99S1,5,6\nS3,D3S1358,14,15\n`;
    const result = await parseUpload('unknown.csv', csv);
    expect(result.errors).toEqual([
      { row: 3, marker: 'NOTAMARKER', message: 'Marker NOTAMARKER is invalid' },
      { row: 5, marker: 'D99S1', message: 'Marker D99S1 is invalid' },
      { row: 4, sample: 'S2', message: 'S2 has no alleles at any known marker' },
    ]);
    expect(result.profiles.map((p) => [p.profileId, p.errors])).toEqual([
      ['S1', ['Marker NOTAMARKER is invalid']],
      ['S2', ['Marker NOTAMARKER is invalid', 'Marker D99S1 is invalid', 'S2 has no alleles at any known marker']],
      ['S3', []],
    ]);
  });

  it('reports a wide table’s unknown marker once for all its numbered copy columns', async () => {
    const csv = 'specimenId,TH01_1,TH01_2,FOO_1,FOO_2\nA,6,7,NULL,NULL\nB,8,NULL,1,2\n';
    const result = await parseUpload('codis.csv', csv);
    expect(messages(result.errors)).toEqual(['Marker FOO is invalid']);
    expect(result.profiles.map((p) => p.errors)).toEqual([[], ['Marker FOO is invalid']]);
  });
});

describe('sample names', () => {
  it('merges the rows of one sample in a long table', async () => {
    const result = await parseUpload('refs.csv', `${HEADER}S1,TH01,6,7\nS2,TH01,8,9\nS1,vWA,17,\n`);
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => [p.profileId, allelesOf(p)])).toEqual([
      ['S1', { TH01: ['6', '7'], vWA: ['17'] }],
      ['S2', { TH01: ['8', '9'] }],
    ]);
  });

  it('refuses one name used for two runs (two Sample Files), naming the sample and its rows', async () => {
    const csv = 'Sample File,Sample Name,Marker,Allele 1,Allele 2\nrun1.fsa,S1,TH01,6,7\nrun2.fsa,S1,TH01,6,8\n';
    const result = await parseUpload('runs.csv', csv);
    const message = 'The sample name S1 is used 2 times in the file (rows 2, 3); each profile needs its own name';
    expect(result.errors).toEqual([{ row: 2, sample: 'S1', message }]);
    expect(result.profiles.map((p) => p.errors)).toEqual([[message], [message]]);
  });

  it('refuses a marker given twice for one sample of a long table', async () => {
    const result = await parseUpload('twice.csv', `${HEADER}S1,TH01,6,7\nS1,TH01,6,8\n`);
    expect(result.errors).toEqual([{ row: 3, sample: 'S1', marker: 'TH01', message: 'TH01 is given twice for S1 (rows 2 and 3); is the name used for two runs?' }]);
    expect(result.profiles[0]!.errors).toHaveLength(1);
  });

  it('refuses the same name on two rows of a wide table', async () => {
    const result = await parseUpload('wide.csv', 'Sample Name,TH01,TH01(2)\nK1,6,7\nK1,8,9\n');
    expect(messages(result.errors)).toEqual(['The sample name K1 is used 2 times in the file (rows 2, 3); each profile needs its own name']);
  });

  it('decodes an ISO-8859-1 file (a sample name with ü) instead of garbling it', async () => {
    const latin1 = Buffer.from(`${HEADER}M\xfcller,TH01,6,7\n`, 'latin1');
    const result = await parseUpload('latin1.csv', latin1);
    expect(result.profiles.map((p) => p.profileId)).toEqual(['Müller']);
  });

  it('reports a row without a sample name and a name too long for a profile', async () => {
    const long = 'N'.repeat(101);
    const result = await parseUpload('names.csv', `${HEADER},TH01,6,7\n${long},TH01,6,7\n`);
    expect(messages(result.errors)).toEqual(['Row 2 has no sample name; skipped', `The sample name ${'N'.repeat(40)}… is longer than 100 characters`]);
  });

  it('reports a row whose unquoted sample name comma cannot be resolved', async () => {
    const csv = `${HEADER.trimEnd()},\nA,B,NOTAMARKER,6,7,\n`;
    const result = await parseUpload('shifted.csv', csv);
    expect(messages(result.errors)).toEqual([
      'Row 2: "B" is not a known marker and the row has more values than the header; if the sample name holds a comma, put it in quotes',
    ]);
  });
});

describe('ladders and controls', () => {
  it('recognises allelic ladders and positive, negative and blank controls by name', () => {
    for (const name of ['Ladder', 'Ladder-ID', 'allelic ladder 2', 'NEG031610CMG-ID1', 'POS031610CMG-ID1', 'C+.POS.AMP.CTRL.', 'Negative Control', 'Blank_3', 'NTC-1']) {
      expect(isControlSample(name), name).toBe(true);
    }
    for (const name of ['ID_1_SA_NG1_R1,0_A1_V1', 'OVXV0389BE#98', 'Poseidon-7', 'stain80', 'K1']) expect(isControlSample(name), name).toBe(false);
  });

  it('says why a name is a control: Pos, Neg, PC_01, NC_01, Reagent blank, ktr (Kontrolle) and the earlier rules', () => {
    const expected: Record<string, string> = {
      Ladder: 'allelic ladder',
      'Ladder-ID': 'allelic ladder',
      Pos: 'positive control',
      'POS-1': 'positive control',
      'C+.POS.AMP.CTRL.': 'positive control',
      PC: 'positive control',
      PC_01: 'positive control',
      PosKtr: 'positive control',
      Positivkontrolle: 'positive control',
      Neg: 'negative control',
      NEG031610CMG: 'negative control',
      NC_01: 'negative control',
      'nc-2': 'negative control',
      'NTC-1': 'negative control',
      'Neg-Ktr': 'negative control',
      'Reagent blank': 'reagent blank',
      'Reagent Blank 2': 'reagent blank',
      Blank_3: 'reagent blank',
      ktr: 'control',
      'KTR-3': 'control',
      CTRL: 'control',
    };
    for (const [name, reason] of Object.entries(expected)) expect(controlReason(name), name).toBe(reason);
  });

  it('leaves real sample names that only look like a control word alone', () => {
    for (const name of ['PCR123', 'Positano', 'Poseidon-7', 'NC-2019-001', 'PC-2019-17', 'NCBI_1', 'PCA', 'Negri-5', 'Blanket-4', 'stain_reagent', 'Nicolas', 'Spektrum', 'stain80']) {
      expect(controlReason(name), name).toBeNull();
    }
  });

  it('skips ladder and control rows, lists each once apart with its line and kind, and imports the samples beside them', async () => {
    const csv = `${HEADER}Ladder,TH01,4,5\nLadder,vWA,11,12\nNC-2019-001,TH01,6,7\nPC_01,TH01,8,9\nReagent blank,TH01,,\nktr,TH01,6,6\n`;
    const result = await parseUpload('run.csv', csv);
    expect(result.profiles.map((p) => p.profileId)).toEqual(['NC-2019-001']);
    expect(result.controls).toEqual([
      { sampleName: 'Ladder', line: 2, reason: 'allelic ladder' },
      { sampleName: 'PC_01', line: 5, reason: 'positive control' },
      { sampleName: 'Reagent blank', line: 6, reason: 'reagent blank' },
      { sampleName: 'ktr', line: 7, reason: 'control' },
    ]);
    expect(result.warnings).toEqual([
      {
        row: null,
        message: 'Allelic ladders and controls are run checks, not samples; not imported: Ladder (allelic ladder), PC_01 (positive control), Reagent blank (reagent blank), ktr (control)',
      },
    ]);
  });

  it('returns an empty control list when a file has none', async () => {
    expect((await parseUpload('refs.csv', `${HEADER}S1,TH01,6,7\n`)).controls).toEqual([]);
  });
});

describe('empty loci and empty samples', () => {
  it('skips a locus without alleles (empty cells, NA, NULL) with one warning per sample', async () => {
    const result = await parseUpload('gaps.csv', `${HEADER}S1,TH01,6,7\nS1,vWA,,\nS1,FGA,NA,NULL\n`);
    expect(result.errors).toEqual([]);
    expect(allelesOf(result.profiles[0])).toEqual({ TH01: ['6', '7'] });
    expect(result.warnings).toEqual([{ row: 2, sample: 'S1', message: 'S1: no alleles at vWA, FGA; skipped' }]);
  });

  it('keeps a sample with no alleles at all in the preview, with an error that blocks it', async () => {
    const result = await parseUpload('empty-sample.csv', 'specimenId,TH01_1,TH01_2\nA,NULL,NULL\nB,6,7\n');
    expect(result.errors).toEqual([{ row: 2, sample: 'A', message: 'A has no alleles at any known marker' }]);
    expect(result.profiles.map((p) => p.errors.length)).toEqual([1, 0]);
  });
});

describe('allele rules on import (core/alleles)', () => {
  it('puts a designation problem on the profile and in the file’s errors with row, sample and marker', async () => {
    const result = await parseUpload('bad.csv', `${HEADER}S1,vWA,X,17\nS1,TH01,9.25,6\nS2,TH01,6,7\n`);
    expect(result.errors).toEqual([
      { row: 2, sample: 'S1', marker: 'vWA', message: 'vWA: X is only valid at Amelogenin' },
      { row: 3, sample: 'S1', marker: 'TH01', message: 'TH01: 9.25 is not a microvariant: write one digit after the point, as in 9.3' },
    ]);
    expect(result.profiles.map((p) => p.errors.length)).toEqual([2, 0]);
  });

  it('allows a mixture’s alleles when the file names no sample type, but only 2 in a CMF known suspect', async () => {
    const csv = await parseUpload('mix.csv', 'Sample Name,Marker,Allele 1,Allele 2,Allele 3\nS1,TH01,6,7,8\n');
    expect(csv.errors).toEqual([]);
    const locus = '<LOCUS><LOCUSNAME>TH01</LOCUSNAME><ALLELE><ALLELEVALUE>6</ALLELEVALUE></ALLELE><ALLELE><ALLELEVALUE>7</ALLELEVALUE></ALLELE><ALLELE><ALLELEVALUE>8</ALLELEVALUE></ALLELE></LOCUS>';
    const xml = `<CODISImportFile xmlns="urn:CODISImportFile-schema"><SPECIMEN><SPECIMENID>S1</SPECIMENID><SPECIMENCATEGORY>Suspect, Known</SPECIMENCATEGORY>${locus}</SPECIMEN></CODISImportFile>`;
    const cmf = await parseUpload('ref.xml', xml);
    expect(cmf.profiles[0]!.errors).toEqual(['TH01 has 3 alleles (6, 7, 8); a single-source profile has 1 or 2 per marker']);
  });

  it('reads spreadsheet doubles and two values in one cell of a Y-STR table', async () => {
    const csv = 'Sample Name,Population,DYS19,DYS385,DYF387S1\nY1,Eur,14,"12,13","36.200000000000003,37"\n';
    const result = await parseUpload('y.csv', csv);
    expect(result.errors).toEqual([]);
    expect(result.profiles[0]).toMatchObject({ kind: 'YStr', errors: [] });
    expect(allelesOf(result.profiles[0])).toEqual({ DYS19: ['14'], DYS385: ['12', '13'], DYF387S1: ['36.2', '37'] });
  });

  it('refuses two values at a single-copy Y-STR marker', async () => {
    const result = await parseUpload('y.csv', `${HEADER}Y1,DYS19,14,15\n`);
    expect(messages(result.errors)).toEqual(['DYS19 is a Y-STR marker and takes exactly one allele; found 2 alleles (14, 15)']);
  });

  it('joins a multi-copy marker given as DYS385a and DYS385b rows of a long table', async () => {
    const result = await parseUpload('y.csv', `${HEADER}Y1,DYS385a,14,\nY1,DYS385b,11,\nY1,DYS19,13,\n`);
    expect(result.errors).toEqual([]);
    expect(allelesOf(result.profiles[0])).toEqual({ DYS385: ['11', '14'], DYS19: ['13'] });
  });
});

describe('the kind of a profile', () => {
  it('makes a profile of Y markers (and Amelogenin, kept) a Y-STR profile', async () => {
    const result = await parseUpload('y.csv', `${HEADER}Y1,DYS19,13,\nY1,AMEL,X,Y\n`);
    expect(result.profiles[0]).toMatchObject({ kind: 'YStr', errors: [] });
    expect(result.profiles[0]!.markerValues.map((m) => m.markerId)).toEqual([idOf('DYS19'), idOf('Amelogenin')]);
  });

  it('keeps an autosomal kit’s Y markers (GlobalFiler DYS391) in an autosomal profile', async () => {
    const result = await parseUpload('gf.csv', `${HEADER}S1,D3S1358,15,16\nS1,DYS391,10,\n`);
    expect(result.profiles[0]).toMatchObject({ kind: 'Autosomal', errors: [] });
    expect(Object.keys(allelesOf(result.profiles[0]))).toEqual(['D3S1358', 'DYS391']);
  });
});

describe('files that are no profile file', () => {
  it('says an empty or blank file is empty', async () => {
    expect(messages((await parseUpload('empty.csv', '')).errors)).toEqual(['The file empty.csv is empty']);
    expect(messages((await parseUpload('blank.csv', new Uint8Array([0xef, 0xbb, 0xbf, 0x0d, 0x0a]))).errors)).toEqual(['The file blank.csv is empty']);
  });

  it('asks for CSV instead of a workbook, and refuses other binary files', async () => {
    expect(messages((await parseUpload('refs.xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]))).errors)).toEqual([
      'refs.xlsx is an Excel workbook or another ZIP archive; save the sheet as CSV and import that',
    ]);
    expect(messages((await parseUpload('x.bin', new Uint8Array([1, 0, 2]))).errors)[0]).toMatch(/^x\.bin is not a text file; expected CODIS CMF/);
  });

  it('points an allele-frequency table to the population upload', async () => {
    const result = await parseShared('frequencies-formats/SGMPlus_UK.csv');
    expect(result.profiles).toEqual([]);
    expect(messages(result.errors)).toEqual(['This is an allele-frequency table (Allele × marker), not profiles; upload it to a population instead']);
  });

  it('says what it expected when a table is no profile table at all', async () => {
    const result = await parseUpload('notes.csv', 'Date,Note\n2026-01-01,hello\n');
    expect(messages(result.errors)).toEqual([
      'notes.csv is not a profile file Locus can read; expected CODIS CMF 3.2/3.3 XML, a GeneMapper ID/ID-X genotypes or samples table, or a CSV/TSV with a Sample Name column and either Marker and Allele columns or one column per marker',
    ]);
  });

  it('returns profiles that fit the API’s ImportedProfile once the line is dropped', async () => {
    for (const file of ['cmf/Codis-Single-Profile.xml', 'genemapper/Coble sample.csv', 'ystr/KGP_O2_sample7.matrix']) {
      for (const { line: _line, ...profile } of (await parseShared(file)).profiles) expect(ImportedProfile.strict().parse(profile)).toEqual(profile);
    }
  });
});
