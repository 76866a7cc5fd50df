import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProfileFile } from '../../../../server/imports/profiles';
import { resolveMarker } from './profiles/profile-files.fixture';

// Every profile-table example of /work/shared/data/formats (README.md there lists them) through parseProfileFile,
// with the seeded marker catalogue. The counts come from reading each file (FORMATS.md and the files themselves),
// not from the parser: the folders' frequency tables (frequencies-formats/) and kit files (kits/) are not profile
// files, and XSD schemas and Excel workbooks are refused elsewhere.

const FORMATS = path.resolve(import.meta.dirname, '../../../../../shared/data/formats');
const FOLDERS = ['cmf', 'genemapper', 'ystr'];
const SKIPPED = /\.(xsd|xlsx)$/;

interface Expected {
  format: string;
  /** Profiles returned (each name once; blocked ones included). */
  profiles: number;
  /** Profiles carrying an error that keeps them from being added. */
  blocked: number;
  errors: number;
  warnings: number;
  /** Allelic ladders and controls listed apart. */
  controls: number;
  /** What the file holds, and why the numbers are what they are. */
  why: string;
}

const EXPECTED: Record<string, Expected> = {
  'cmf/CmfList.xml': { format: 'XML', profiles: 0, blocked: 0, errors: 1, warnings: 0, controls: 0, why: 'OSIRIS value lists, root <CmfList>: not a CMF file' },
  'cmf/Codis-Single-Profile.xml': { format: 'CODIS CMF 3.2 XML', profiles: 1, blocked: 0, errors: 0, warnings: 0, controls: 0, why: 'one specimen, 16 loci' },
  'cmf/broken-locus.xml': { format: 'CODIS CMF 3.2 XML', profiles: 1, blocked: 1, errors: 1, warnings: 0, controls: 0, why: 'the 4th LOCUS has no LOCUSNAME' },
  'cmf/database_codis_2records_utf8withBOM.csv': {
    format: 'CODIS database export (CSV)', profiles: 2, blocked: 0, errors: 0, warnings: 2, controls: 0,
    why: '2 specimens; 10 of 25 loci all NULL in each: one empty-loci warning per specimen',
  },
  'cmf/database_codis_generated_10_6fields.csv': {
    format: 'CODIS database export (CSV)', profiles: 10, blocked: 0, errors: 0, warnings: 10, controls: 0,
    why: '10 specimens, each with 5 to 11 loci all NULL',
  },
  'cmf/database_codis_generated_44.csv': { format: 'CODIS database export (CSV)', profiles: 44, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '44 specimens, every locus typed' },
  'cmf/no-profiles.xml': { format: 'CODIS CMF 3.2 XML', profiles: 0, blocked: 0, errors: 1, warnings: 0, controls: 0, why: 'a header without SPECIMEN' },
  'cmf/not-a-codis-file.xml': { format: 'XML', profiles: 0, blocked: 0, errors: 1, warnings: 0, controls: 0, why: 'root <rootnode>' },
  'genemapper/5716083_RAAK1234NL.txt': { format: 'GeneMapper genotypes table (CSV)', profiles: 1, blocked: 0, errors: 0, warnings: 0, controls: 0, why: 'one NGM SElect profile' },
  'genemapper/Coble sample.csv': {
    format: 'GeneMapper genotypes table (CSV)', profiles: 4, blocked: 0, errors: 0, warnings: 3, controls: 3,
    why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); 4 samples (the 4-person mixture has 5 peaks at D8S1179 and D18S51), a ladder and two controls; names with commas and the controls each get one warning',
  },
  'genemapper/ESX17_evids_LTDNA.csv': {
    format: 'Long profile table (CSV, semicolon-separated)', profiles: 3, blocked: 0, errors: 0, warnings: 2, controls: 0,
    why: '3 stains (stain51 has 5 alleles at D2S441); stain80 and stain68 have empty D16S539 and SE33',
  },
  'genemapper/ESX17_refs.csv': { format: 'Long profile table (CSV)', profiles: 3, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '3 references × 16 loci' },
  'genemapper/Example_References_DB.csv': { format: 'Wide profile table (CSV)', profiles: 3, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '3 references, <locus> and <locus>(2)' },
  'genemapper/FAM1-8-PA.txt': { format: 'GeneMapper genotypes table (TSV)', profiles: 1, blocked: 0, errors: 0, warnings: 1, controls: 0, why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); one person × 71 markers' },
  'genemapper/FAM10-5-FATHER.txt': { format: 'GeneMapper genotypes table (TSV)', profiles: 1, blocked: 0, errors: 0, warnings: 1, controls: 0, why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); one person × 71 markers' },
  'genemapper/FAM2-6-MOTHER.txt': { format: 'GeneMapper genotypes table (TSV)', profiles: 1, blocked: 0, errors: 0, warnings: 1, controls: 0, why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); one person × 71 markers' },
  'genemapper/GF_refs.csv': { format: 'Long profile table (CSV)', profiles: 4, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '4 references × 21 loci' },
  'genemapper/GeneMapperExample.txt': {
    format: 'GeneMapper samples table (TSV)', profiles: 4, blocked: 0, errors: 0, warnings: 1, controls: 0,
    why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); 4 samples; two have 5 alleles at D8S1179 (a mixture, allowed)',
  },
  'genemapper/GeneMapperExampleBrokenHeader.txt': { format: 'Unrecognised', profiles: 0, blocked: 0, errors: 1, warnings: 0, controls: 0, why: 'header misspelt `Smaple File`' },
  'genemapper/GeneMapperExampleWithHeights.txt': { format: 'GeneMapper samples table (TSV)', profiles: 4, blocked: 0, errors: 0, warnings: 1, controls: 0, why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); 4 samples, Height columns' },
  'genemapper/databaseESX17.txt': { format: 'GeneMapper genotypes table (TSV)', profiles: 77, blocked: 0, errors: 0, warnings: 1, controls: 0, why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); 77 persons × 17 markers' },
  'genemapper/genemapperSample.txt': {
    format: 'GeneMapper samples table (TSV)', profiles: 1, blocked: 0, errors: 0, warnings: 1, controls: 0,
    why: 'one more warning: not exportable as CMF 3.2 as they stand (issue 30); one mixture with OL calls and 5 alleles at three loci',
  },
  'genemapper/ref3.txt': { format: 'Long profile table (TSV)', profiles: 3, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '3 references, both homozygote conventions' },
  'genemapper/refs.csv': { format: 'Long profile table (CSV)', profiles: 2, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '2 references' },
  'genemapper/sample for LR more data.csv': {
    format: 'GeneMapper genotypes table (CSV)', profiles: 0, blocked: 0, errors: 1, warnings: 1, controls: 7,
    why: '8 positive-control runs under 7 names (C+.POS.AMP.CTRL. twice): nothing but controls',
  },
  'genemapper/sampleProfile.csv': {
    format: 'Long profile table (CSV)', profiles: 2, blocked: 0, errors: 0, warnings: 0, controls: 0,
    why: '2 replicates of a mixture (Rep1 has 5 alleles at D1S1656)',
  },
  'genemapper/suspect-broken.csv': { format: 'Unrecognised', profiles: 0, blocked: 0, errors: 1, warnings: 0, controls: 0, why: 'header `Sam pleName`' },
  'genemapper/suspect-utf8-bom.csv': { format: 'Long profile table (CSV)', profiles: 1, blocked: 0, errors: 0, warnings: 0, controls: 0, why: 'one suspect' },
  'genemapper/suspect.tsv': { format: 'Long profile table (TSV)', profiles: 1, blocked: 0, errors: 0, warnings: 0, controls: 0, why: 'one suspect' },
  'ystr/KGP_O2_sample7.matrix': { format: 'Wide profile table (TSV)', profiles: 7, blocked: 0, errors: 0, warnings: 0, controls: 0, why: '7 males × 8 loci' },
  'ystr/South_Australia_YSTRs.Aboriginal.derived.csv': {
    format: 'Wide profile table (CSV)', profiles: 743, blocked: 5, errors: 5, warnings: 1, controls: 0,
    why: 'DYS458 0 (row 54); two values at single-copy DYS448, DYS19 (twice), DYS460; one empty DYS448 (row 115)',
  },
  'ystr/South_Australia_YSTRs.East_Asian.derived.csv': {
    format: 'Wide profile table (CSV)', profiles: 196, blocked: 5, errors: 6, warnings: 0, controls: 0,
    why: 'two values at DYS481 (twice), DYS389II and DYS391 (one man), DYS576; DYS448 0',
  },
  'ystr/South_Australia_YSTRs.European.derived.csv': {
    format: 'Wide profile table (CSV)', profiles: 197, blocked: 3, errors: 5, warnings: 0, controls: 0,
    why: 'two values at DYS627, DYS533, and DYS19, DYS449, DYS481 of one man',
  },
  'ystr/zeyad-2020-uae-ystrs.csv': { format: 'Unrecognised', profiles: 0, blocked: 0, errors: 1, warnings: 0, controls: 0, why: 'an allele-frequency table with a STR/N/Allele preamble' },
};

describe('every profile file of shared/data/formats', () => {
  it('lists exactly the files of cmf/, genemapper/ and ystr/ (XSD and xlsx aside)', () => {
    const files = FOLDERS.flatMap((folder) => readdirSync(path.join(FORMATS, folder)).filter((f) => !SKIPPED.test(f)).map((f) => `${folder}/${f}`));
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', async (file, expected) => {
    const result = await parseProfileFile({ fileName: path.basename(file), bytes: readFileSync(path.join(FORMATS, file)) }, resolveMarker);
    expect({
      format: result.format,
      profiles: result.profiles.length,
      blocked: result.profiles.filter((p) => p.errors.length > 0).length,
      errors: result.errors.length,
      warnings: result.warnings.length,
      controls: result.controls.length,
      why: expected.why,
    }).toEqual(expected);
  });

  it('names what the refused files are', async () => {
    const refused = async (file: string) =>
      (await parseProfileFile({ fileName: path.basename(file), bytes: readFileSync(path.join(FORMATS, file)) }, resolveMarker)).errors.map((e) => e.message);
    expect(await refused('ystr/zeyad-2020-uae-ystrs.csv')).toEqual(['This is an allele-frequency table (Allele × marker), not profiles; upload it to a population instead']);
    expect(await refused('ystr/South_Australia_YSTRs.Aboriginal.derived.csv')).toEqual([
      'DYS458: 0 is out of range (a repeat number is above 0 and below 100)',
      'DYS448 is a Y-STR marker and takes exactly one allele; found 2 alleles (19, 20)',
      'DYS19 is a Y-STR marker and takes exactly one allele; found 2 alleles (15, 16)',
      'DYS19 is a Y-STR marker and takes exactly one allele; found 2 alleles (14, 15)',
      'DYS460 is a Y-STR marker and takes exactly one allele; found 2 alleles (10, 11)',
    ]);
  });
});
