import { describe, expect, it } from 'vitest';
import { profilesToCsv, type ExportableProfile } from '../../../../../server/exports/profiles';
import { parseShared, parseUpload } from '../../imports/profiles/profile-files.fixture';

const profile = (profileId: string, markerValues: ExportableProfile['markerValues']): ExportableProfile => ({ profileId, sampleType: 'Reference', kind: 'Autosomal', markerValues });

describe('profilesToCsv', () => {
  it('writes the long layout, one row per typed marker, as many allele columns as the longest marker needs', () => {
    const csv = profilesToCsv([
      profile('S1', [{ marker: 'D3S1358', alleles: ['15', '16'] }, { marker: 'vWA', alleles: [] }]),
      profile('S2', [{ marker: 'TH01', alleles: ['6', '7', '9.3'] }]),
    ]);
    expect(csv).toBe('Sample Name,Marker,Allele 1,Allele 2,Allele 3\r\nS1,D3S1358,15,16,\r\nS2,TH01,6,7,9.3\r\n');
  });

  it('keeps two allele columns for a homozygous reference', () => {
    expect(profilesToCsv([profile('S1', [{ marker: 'vWA', alleles: ['16'] }])])).toBe('Sample Name,Marker,Allele 1,Allele 2\r\nS1,vWA,16,\r\n');
  });

  it('defuses cells a spreadsheet would run as a formula (= + - @ tab CR) with a leading apostrophe', () => {
    const names = ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tX', '\rY'];
    const lines = profilesToCsv(names.map((n) => profile(n, [{ marker: 'TH01', alleles: ['6'] }]))).split('\r\n');
    expect(lines.slice(1, 5)).toEqual([`"'=HYPERLINK(""http://x"")",TH01,6,`, "+1,TH01,6,", "'-2+3,TH01,6,", "'@SUM(A1),TH01,6,"]);
    expect(lines[5]).toBe("'\tX,TH01,6,");
    expect(lines[6]).toBe(`"'\rY",TH01,6,`);
  });

  it('quotes commas, quotes and line breaks per RFC 4180, leaving ordinary cells bare', () => {
    const csv = profilesToCsv([profile('ID_1,0 "a"\nb', [{ marker: 'Penta D', alleles: ['9', '13'] }])]);
    expect(csv.split('\r\n')[1]).toBe('"ID_1,0 ""a""\nb",Penta D,9,13');
  });

  it('parses back to the same profiles, sample names with commas included (Coble sample.csv)', async () => {
    const parsed = await parseShared('genemapper/Coble sample.csv');
    const ok = parsed.profiles.filter((p) => p.errors.length === 0);
    const again = await parseUpload('export.csv', profilesToCsv(ok.map((p) => ({ ...p, sampleType: 'Forensic Mixture' }))));
    expect(again.errors).toEqual([]);
    expect(again.profiles.map((p) => [p.profileId, p.markerValues])).toEqual(ok.map((p) => [p.profileId, p.markerValues]));
  });
});
