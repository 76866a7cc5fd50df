import { describe, expect, it } from 'vitest';
import { SAMPLE_TYPES } from '../../../../../core/schemas/profiles';
import { BadRequest } from '../../../../../server/http/errors';
import {
  CMF_LIMITS,
  CMF_SPECIMEN_CATEGORY,
  CmfExportRefused,
  profilesToCmf,
  type ExportableProfile,
} from '../../../../../server/exports/profiles';
import { parseShared } from '../../imports/profiles/profile-files.fixture';
import { elementDecl, enumeration, facet, readCmfSchema } from './cmf-xsd.fixture';

// CMF 3.2 as CODIS checks it (shared/data/formats/cmf/CMF-2017.xsd, the lists OSIRIS keeps current; the older
// CODIS-32.AppendixBexample.xsd has shorter lists): what Locus writes must pass it, and what cannot pass is refused
// with the profile named, never written for CODIS to refuse nor left out of the file.

const CMF_2017 = readCmfSchema('CMF-2017.xsd');
const APPENDIX_B = readCmfSchema('CODIS-32.AppendixBexample.xsd');

const OPTIONS = { destinationOri: 'NL0000000', sourceLab: 'NFI-LAB', submitByUserId: 'analyst1', submitDateTime: new Date('2026-03-04T05:06:07Z') };

const profile = (over: Partial<ExportableProfile> = {}): ExportableProfile => ({
  profileId: 'STAIN-1',
  sampleType: 'Forensic, Unknown',
  kind: 'Autosomal',
  chemistryName: 'GlobalFiler',
  caseNumber: '2026-0100',
  markerValues: [
    { marker: 'D3S1358', alleles: ['15', '16'] },
    { marker: 'Amelogenin', alleles: ['X', 'Y'] },
  ],
  ...over,
});

/** The problems profilesToCmf refuses the export with (fails the test when it writes the file). */
function refusal(profiles: readonly ExportableProfile[]): CmfExportRefused {
  try {
    profilesToCmf(profiles, OPTIONS);
  } catch (error) {
    expect(error).toBeInstanceOf(CmfExportRefused);
    return error as CmfExportRefused;
  }
  throw new Error('profilesToCmf wrote a file it should have refused');
}

const alleles = (n: number) => Array.from({ length: n }, (_, i) => String(8 + i));

describe('SPECIMENCATEGORY: each Locus sample type as the CODIS category the schema lists', () => {
  const categories = enumeration(CMF_2017, 'SpecimenCategoryType');

  it('finds the Locus sample types CODIS does not list: Unidentified Human (Remains) and Reference', () => {
    expect(SAMPLE_TYPES.filter((t) => !categories.includes(t))).toEqual(['Unidentified Human (Remains)', 'Reference']);
  });

  it('maps every Locus sample type to a value of both schemas’ enumerations, except Reference, which CODIS has no category for', () => {
    expect(Object.keys(CMF_SPECIMEN_CATEGORY).sort()).toEqual([...SAMPLE_TYPES].sort());
    for (const type of SAMPLE_TYPES) {
      const category = CMF_SPECIMEN_CATEGORY[type];
      if (type === 'Reference') {
        expect(category).toBeNull();
        continue;
      }
      expect(categories, type).toContain(category);
      expect(enumeration(APPENDIX_B, 'SpecimenCategoryType'), type).toContain(category);
    }
    expect(CMF_SPECIMEN_CATEGORY['Unidentified Human (Remains)']).toBe('Unidentified Person');
  });

  it('writes each mapped category and refuses Reference, naming the profile and its sample type', () => {
    for (const type of SAMPLE_TYPES.filter((t) => t !== 'Reference')) {
      expect(profilesToCmf([profile({ sampleType: type })], OPTIONS)).toContain(`<SPECIMENCATEGORY>${CMF_SPECIMEN_CATEGORY[type]}</SPECIMENCATEGORY>`);
    }
    expect(refusal([profile({ profileId: 'REF-7', sampleType: 'Reference' })]).problems).toEqual([
      'Profile REF-7: the sample type "Reference" has no CODIS specimen category; give the profile the sample type it stands for (for example "Suspect, Known" or "Victim, Known")',
    ]);
  });
});

describe('what CMF 3.2 cannot hold is refused, the whole file, with every profile and what is wrong', () => {
  it('keeps the limits the schema sets', () => {
    expect(CMF_LIMITS).toEqual({
      specimenIdLength: facet(CMF_2017, 'SpecimenIDType', 'maxLength'),
      caseIdLength: facet(CMF_2017, 'CaseIDType', 'maxLength'),
      lociPerSpecimen: elementDecl(CMF_2017, 'SPECIMEN', 'LOCUS').maxOccurs,
      allelesPerLocus: elementDecl(CMF_2017, 'SPECIMEN', 'LOCUS', 'ALLELE').maxOccurs,
      alleleValueLength: facet(CMF_2017, 'AlleleValueType', 'maxLength'),
    });
    expect(CMF_LIMITS).toMatchObject({ specimenIdLength: 24, caseIdLength: 32, allelesPerLocus: 8 });
  });

  it('refuses a locus with more than 8 alleles (a mixture may hold up to 40), naming the profile and the locus', () => {
    const mixture = profile({ profileId: 'MIX-3P', sampleType: 'Forensic Mixture', markerValues: [{ marker: 'D8S1179', alleles: alleles(11) }, { marker: 'FGA', alleles: alleles(8) }] });
    const error = refusal([mixture]);
    expect(error.problems).toEqual(['Profile MIX-3P: D8S1179 has 11 alleles; CMF 3.2 allows at most 8 per locus']);
    expect(error.message).toBe('No CMF file was written: Profile MIX-3P: D8S1179 has 11 alleles; CMF 3.2 allows at most 8 per locus.');
    // A 400 with the problems as details: what the download route answers and the SPA shows (spec 8.1).
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.statusCode).toBe(400);
    expect(error.details).toEqual({ problems: error.problems });
    expect(profilesToCmf([{ ...mixture, markerValues: [{ marker: 'D8S1179', alleles: alleles(8) }] }], OPTIONS).match(/<ALLELE>/g)).toHaveLength(8);
  });

  it('refuses a CASEID over 32 characters and a SPECIMENID over 24, naming them; at the limit they are written', () => {
    const caseNumber = 'C'.repeat(33);
    const profileId = `S-${'9'.repeat(23)}`;
    expect(refusal([profile({ caseNumber })]).problems).toEqual([
      `Profile STAIN-1: the case number "${caseNumber}" has 33 characters; CMF 3.2 allows at most 32 in CASEID`,
    ]);
    expect(refusal([profile({ profileId })]).problems).toEqual([`Profile ${profileId}: the profile id has 25 characters; CMF 3.2 allows at most 24 in SPECIMENID`]);
    const xml = profilesToCmf([profile({ caseNumber: 'C'.repeat(32), profileId: profileId.slice(1) })], OPTIONS);
    expect(xml).toContain(`CASEID="${'C'.repeat(32)}"`);
    expect(xml).toContain(`<SPECIMENID>${profileId.slice(1)}</SPECIMENID>`);
    // Counted in characters as the schema counts them, not as escaped or as UTF-16 units.
    expect(() => profilesToCmf([profile({ profileId: `${'&'.repeat(12)}${'𝔸'.repeat(12)}`, caseNumber: '<'.repeat(32) })], OPTIONS)).not.toThrow();
  });

  it('refuses what else the schema does not allow: an allele over 10 characters, no typed locus, one SPECIMENID or LOCUSNAME twice', () => {
    expect(refusal([profile({ markerValues: [{ marker: 'D3S1358', alleles: ['15', 'OL-15.3-ish'] }] })]).problems).toEqual([
      'Profile STAIN-1: D3S1358 allele "OL-15.3-ish" has 11 characters; CMF 3.2 allows at most 10',
    ]);
    expect(refusal([profile({ markerValues: [{ marker: 'D3S1358', alleles: [] }] })]).problems).toEqual([
      'Profile STAIN-1 has no typed marker; a CMF 3.2 SPECIMEN needs at least one LOCUS',
    ]);
    expect(refusal([profile(), profile()]).problems).toEqual(['Profile STAIN-1 is exported twice; CMF 3.2 SPECIMENIDs must be unique']);
    expect(refusal([profile({ kind: 'YStr', markerValues: [{ marker: 'DYS389I', alleles: ['13'] }, { marker: 'DYS389 I', alleles: ['13'] }] })]).problems).toEqual([
      'Profile STAIN-1: DYS389I and DYS389 I are both CODIS locus DYS389 I; CMF 3.2 allows one LOCUS of each name',
    ]);
  });

  it('lists every problem of every profile in the details, and the first five in the message', () => {
    const profiles = [
      profile({ profileId: 'A', sampleType: 'Reference', caseNumber: 'X'.repeat(40) }),
      profile({ profileId: 'B', markerValues: ['D3S1358', 'vWA', 'FGA', 'TH01', 'TPOX'].map((marker) => ({ marker, alleles: alleles(9) })) }),
    ];
    const error = refusal(profiles);
    expect(error.problems).toHaveLength(7);
    expect(error.problems.slice(0, 2)).toEqual([
      'Profile A: the sample type "Reference" has no CODIS specimen category; give the profile the sample type it stands for (for example "Suspect, Known" or "Victim, Known")',
      'Profile A: the case number "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX" has 40 characters; CMF 3.2 allows at most 32 in CASEID',
    ]);
    expect(error.message).toMatch(/^No CMF file was written: Profile A: .*; Profile B: FGA has 9 alleles; CMF 3\.2 allows at most 8 per locus; and 2 more\.$/);
  });

  it('refuses the 77 references of databaseESX17.txt, whose sample names are 32 characters long', async () => {
    const parsed = await parseShared('genemapper/databaseESX17.txt');
    const error = refusal(parsed.profiles.map((p) => ({ ...p, sampleType: 'Suspect, Known' })));
    expect(error.problems).toHaveLength(77);
    expect(error.problems[0]).toBe('Profile 00-JP0001-14_20142342311_NO-3241: the profile id has 32 characters; CMF 3.2 allows at most 24 in SPECIMENID');
  });
});

describe('an export is valid against CMF-2017.xsd', () => {
  it('passes the schema: header, categories, ids at their limits, 8-allele loci, CODIS kits and loci, escaped text', async () => {
    const everyType = SAMPLE_TYPES.filter((t) => t !== 'Reference').map((sampleType, i) => profile({ profileId: `T-${i}`, sampleType, caseNumber: i % 2 ? undefined : `2026-${i}` }));
    const edges = [
      profile({ profileId: 'P'.repeat(24), caseNumber: `A<&"'${'9'.repeat(27)}`, sampleType: 'Forensic Mixture', markerValues: [{ marker: 'D8S1179', alleles: alleles(8) }, { marker: 'Penta D', alleles: ['<8', '9.3', '>21', 'OL'] }] }),
      profile({ profileId: 'Y-1', sampleType: 'Suspect, Known', kind: 'YStr', chemistryName: 'Yfiler Plus', markerValues: [{ marker: 'DYS389I', alleles: ['13'] }, { marker: 'DYS385', alleles: ['11', '14'] }] }),
    ];
    const fixtures = [];
    for (const file of ['cmf/Codis-Single-Profile.xml', 'genemapper/databaseESX17.txt', 'ystr/KGP_O2_sample7.matrix']) {
      fixtures.push(...(await parseShared(file)).profiles.map((p, i) => ({ ...p, profileId: `${file.slice(0, 4)}-${i}`, sampleType: p.sampleType ?? 'Suspect, Known' })));
    }
    const xml = profilesToCmf([...everyType, ...edges, ...fixtures], OPTIONS);
    expect(CMF_2017.validate(xml)).toEqual([]);
    // The validator does catch what the export used to write: a category CODIS does not list, 9 alleles, a long CASEID.
    const old = xml
      .replace('<SPECIMENCATEGORY>Unidentified Person</SPECIMENCATEGORY>', '<SPECIMENCATEGORY>Unidentified Human (Remains)</SPECIMENCATEGORY>')
      .replace('<ALLELE><ALLELEVALUE>8</ALLELEVALUE></ALLELE>', '<ALLELE><ALLELEVALUE>8</ALLELEVALUE></ALLELE><ALLELE><ALLELEVALUE>7</ALLELEVALUE></ALLELE>')
      .replace('CASEID="2026-0"', `CASEID="${'2'.repeat(33)}"`);
    expect(CMF_2017.validate(old)).toEqual([
      '/CODISImportFile/SPECIMEN[1]@CASEID: "222222222222222222222222222222222" is longer than 32',
      '/CODISImportFile/SPECIMEN[9]/SPECIMENCATEGORY[1]: "Unidentified Human (Remains)" is not one of SpecimenCategoryType',
      '/CODISImportFile/SPECIMEN[17]/LOCUS[1]: 9 ALLELE, at most 8 allowed',
    ]);
  });
});
