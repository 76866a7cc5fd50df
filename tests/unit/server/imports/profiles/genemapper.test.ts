import { describe, expect, it } from 'vitest';
import { allelesOf, messages, parseShared, profileNamed } from './profile-files.fixture';

describe('GeneMapper genotypes tables (long: one row per sample and marker)', () => {
  it('reads 5716083_RAAK1234NL.txt: one NGM SElect profile, heights ignored, a three-allele locus kept', async () => {
    const result = await parseShared('genemapper/5716083_RAAK1234NL.txt');
    expect(result.format).toBe('GeneMapper genotypes table (CSV)');
    expect(result.errors).toEqual([]);
    const profile = profileNamed(result, '5716083_RABF6347NL#01');
    expect(profile.markerValues).toHaveLength(16);
    expect(allelesOf(profile)).toMatchObject({ D10S1248: ['13', '17', '18'], Amelogenin: ['X', 'Y'], TH01: ['6', '9.3'], D1S1656: ['12', '17.3'] });
  });

  it('reads the sample names of Coble sample.csv that hold unquoted commas whole, and says so', async () => {
    const result = await parseShared('genemapper/Coble sample.csv');
    expect(result.profiles.map((p) => p.profileId)).toEqual([
      'ID_1_SA_NG1_R1,0_A1_V1',
      'ID_1_SB_NG1_R0,1_A1_V1',
      'ID_1_SC_NG1_R1,0_A1_V1',
      'ID_3_SBAC_NG0.125_R1,1,4_A1_V1',
    ]);
    expect(allelesOf(profileNamed(result, 'ID_1_SA_NG1_R1,0_A1_V1'))).toMatchObject({ D8S1179: ['13', '16'], D21S11: ['29', '32.2'], Amelogenin: ['X', 'Y'] });
    expect(messages(result.warnings)).toContain(
      'Sample names holding an unquoted comma were read whole: ID_1_SA_NG1_R1,0_A1_V1; ID_1_SB_NG1_R0,1_A1_V1; ID_1_SC_NG1_R1,0_A1_V1; ID_3_SBAC_NG0.125_R1,1,4_A1_V1',
    );
  });

  it('lists Coble sample.csv’s ladder and amplification controls apart, with their lines and kinds, and one warning', async () => {
    const result = await parseShared('genemapper/Coble sample.csv');
    expect(result.controls).toEqual([
      { sampleName: 'Ladder-ID', line: 66, reason: 'allelic ladder' },
      { sampleName: 'NEG031610CMG-ID1', line: 82, reason: 'negative control' },
      { sampleName: 'POS031610CMG-ID1', line: 98, reason: 'positive control' },
    ]);
    expect(result.warnings.filter((w) => /ladders and controls/.test(w.message))).toEqual([
      {
        row: null,
        message:
          'Allelic ladders and controls are run checks, not samples; not imported: Ladder-ID (allelic ladder), NEG031610CMG-ID1 (negative control), POS031610CMG-ID1 (positive control)',
      },
    ]);
    expect(result.profiles.map((p) => p.profileId)).not.toContain('Ladder-ID');
  });

  it('reads the four-person mixture of Coble sample.csv with five peaks at a marker, no error', async () => {
    const result = await parseShared('genemapper/Coble sample.csv');
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => p.errors.length)).toEqual([0, 0, 0, 0]);
    expect(allelesOf(profileNamed(result, 'ID_3_SBAC_NG0.125_R1,1,4_A1_V1'))).toMatchObject({
      D8S1179: ['11', '13', '14', '15', '16'],
      D18S51: ['13', '14', '16', '17', '18'],
    });
  });

  it('imports nothing from sample for LR more data.csv, whose runs are all positive controls, each name listed once', async () => {
    const result = await parseShared('genemapper/sample for LR more data.csv');
    expect(result.profiles).toEqual([]);
    expect(messages(result.errors)).toEqual(['sample for LR more data.csv holds only allelic ladders and controls (7); there is nothing to import']);
    // C+.POS.AMP.CTRL. was run twice (lines 34 and 98): one entry, where it first appears.
    expect(result.controls.map((c) => [c.sampleName, c.line, c.reason])).toEqual([
      ['E+.M100535.POS.AMP.CTRL.', 2, 'positive control'],
      ['R+.M100535.POS.AMP.CTRL.', 18, 'positive control'],
      ['C+.POS.AMP.CTRL.', 34, 'positive control'],
      ['R+.POS.AMP.CTRL.', 50, 'positive control'],
      ['S+.POS.AMP.CTRL.', 66, 'positive control'],
      ['B+.POS.AMP.CTRL.', 82, 'positive control'],
      ['R+R.M100763.POS.AMP.CTRL.REAMP.', 114, 'positive control'],
    ]);
    expect(result.warnings).toHaveLength(1);
  });

  it('reads databaseESX17.txt: 77 references × 17 markers, VWA spelt upper-case', async () => {
    const result = await parseShared('genemapper/databaseESX17.txt');
    expect(result.format).toBe('GeneMapper genotypes table (TSV)');
    expect(result.errors).toEqual([]);
    expect(result.profiles).toHaveLength(77);
    expect(result.profiles.every((p) => p.markerValues.length === 17 && p.kind === 'Autosomal')).toBe(true);
    expect(allelesOf(profileNamed(result, '00-JP0001-14_20142342311_NO-3241'))).toMatchObject({ vWA: ['17', '18'], TH01: ['7', '9.3'], Amelogenin: ['X', 'Y'] });
  });

  it('reads the 71-marker kinship exports (Penta_D spelling, extra STRs), homozygotes written twice once', async () => {
    for (const [file, name] of [['FAM1-8-PA.txt', 'FAM1-8-PA'], ['FAM10-5-FATHER.txt', 'FAM10-5-FATHER'], ['FAM2-6-MOTHER.txt', 'FAM2-6-MOTHER']]) {
      const result = await parseShared(`genemapper/${file}`);
      expect(result.errors).toEqual([]);
      expect(result.profiles.map((p) => [p.profileId, p.markerValues.length])).toEqual([[name, 71]]);
    }
    const father = allelesOf((await parseShared('genemapper/FAM10-5-FATHER.txt')).profiles[0]);
    expect(father).toMatchObject({ Amelogenin: ['X', 'Y'], D1S1656: ['16.3', '17.3'] });
    const mother = allelesOf((await parseShared('genemapper/FAM2-6-MOTHER.txt')).profiles[0]);
    expect(mother).toMatchObject({ Amelogenin: ['X'], D1S1656: ['16.3'], 'Penta D': ['9', '13'], 'Penta E': ['12', '14'] });
  });
});

describe('GeneMapper samples tables (wide: one row per sample, comma-space lists)', () => {
  it('reads GeneMapperExample.txt: 4 samples × 16 markers from padded lists', async () => {
    const result = await parseShared('genemapper/GeneMapperExample.txt');
    expect(result.format).toBe('GeneMapper samples table (TSV)');
    expect(result.profiles).toHaveLength(4);
    const first = profileNamed(result, '0000001_00000000000_AAAA0000NL#01');
    expect(first.markerValues).toHaveLength(16);
    expect(allelesOf(first)).toMatchObject({ D10S1248: ['11', '12'], D2S1338: ['10'], Amelogenin: ['X', 'Y'], D18S51: ['11', '12', '13', '14'] });
  });

  it('reads GeneMapperExample.txt’s samples with five alleles at D8S1179 as possible mixtures, no error', async () => {
    const result = await parseShared('genemapper/GeneMapperExample.txt');
    expect(result.errors).toEqual([]);
    expect(allelesOf(profileNamed(result, '0000003_00000000000_AAAA0000NL#01')).D8S1179).toEqual(['10', '11', '12', '13', '14']);
    expect(allelesOf(profileNamed(result, '0000004_00000000000_AAAA0000NL#01')).D8S1179).toEqual(['10', '11', '12', '13', '14']);
  });

  it('reads GeneMapperExampleWithHeights.txt without taking the Height columns for markers', async () => {
    const result = await parseShared('genemapper/GeneMapperExampleWithHeights.txt');
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => p.profileId)).toEqual([
      '0000000_00000000000_AAAA0000NL#02',
      '0000001_00000000000_AAAA0000NL#02',
      '0000002_00000000000_AAAA0000NL#02',
      '0000032_00000000000_AAAA0000NL#02',
    ]);
    expect(allelesOf(result.profiles[0])).toMatchObject({ vWA: ['10'], Amelogenin: ['X'], D8S1179: ['10', '11', '12'], D3S1358: ['15'] });
    expect(allelesOf(result.profiles[2]).Amelogenin).toEqual(['X', 'Y']);
  });

  it('keeps genemapperSample.txt’s off-ladder calls as OL', async () => {
    const result = await parseShared('genemapper/genemapperSample.txt');
    const alleles = allelesOf(result.profiles[0]);
    expect(alleles.vWA).toEqual(['17', 'OL']);
    expect(alleles.D16S539).toEqual(['11', '12', 'OL']);
    // Five peaks at D10S1248, D8S1179 and D21S11: a mixture, now read without error.
    expect(alleles.D21S11).toEqual(['28', '29', '30', '31.2', '32.2']);
    expect(result.errors).toEqual([]);
  });

  it('refuses GeneMapperExampleBrokenHeader.txt, naming the misspelt column', async () => {
    const result = await parseShared('genemapper/GeneMapperExampleBrokenHeader.txt');
    expect(result.profiles).toEqual([]);
    expect(result.errors).toEqual([
      { row: 1, message: 'The column "Smaple File" is not one Locus knows (such as Sample File, Sample Name or Case Number); check the spelling of the header' },
    ]);
  });
});
