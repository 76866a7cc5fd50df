import { describe, expect, it } from 'vitest';
import { allelesOf, messages, parseShared, profileNamed } from './profile-files.fixture';

describe('LRmix, EuroForMix and strvalidator tables (long)', () => {
  it('reads suspect.tsv and suspect-utf8-bom.csv (BOM, CRLF, trailing empty line) to the same profile', async () => {
    const tsv = await parseShared('genemapper/suspect.tsv');
    const csv = await parseShared('genemapper/suspect-utf8-bom.csv');
    expect(tsv.format).toBe('Long profile table (TSV)');
    expect(csv.format).toBe('Long profile table (CSV)');
    expect(csv.errors).toEqual([]);
    expect(csv.profiles).toEqual(tsv.profiles);
    const suspect = profileNamed(csv, 'OVXV0389BE#98');
    expect(suspect.markerValues).toHaveLength(16);
    expect(allelesOf(suspect)).toMatchObject({ TPOX: ['8', '11'], vWA: ['16'], TH01: ['6', '9.3'] });
  });

  it('refuses suspect-broken.csv, whose header has no sample name column', async () => {
    const result = await parseShared('genemapper/suspect-broken.csv');
    expect(result.profiles).toEqual([]);
    expect(result.errors).toEqual([
      { row: 1, message: 'The header has no sample name column (Sample Name, SampleName, Sample.Name or Specimen ID); it reads: Sam pleName, Marker, Allele1, Allele2' },
    ]);
  });

  it('sorts EuroForMix’s unsorted alleles and writes its homozygotes once (ESX17_refs.csv, GF_refs.csv)', async () => {
    const esx = await parseShared('genemapper/ESX17_refs.csv');
    expect(esx.profiles.map((p) => p.profileId)).toEqual(['ref1', 'ref2', 'ref3']);
    expect(allelesOf(esx.profiles[0])).toMatchObject({ TH01: ['9', '9.3'], D3S1358: ['16'], D1S1656: ['12', '17'], vWA: ['15', '20'] });
    const gf = await parseShared('genemapper/GF_refs.csv');
    expect(gf.profiles.map((p) => [p.profileId, p.markerValues.length])).toEqual([['K48', 21], ['K49', 21], ['K50', 21], ['K29', 21]]);
    expect(allelesOf(gf.profiles[0])).toMatchObject({ CSF1PO: ['10'], SE33: ['20', '29.2'] });
  });

  it('reads refs.csv (CRLF) with AMEL as Amelogenin', async () => {
    const result = await parseShared('genemapper/refs.csv');
    expect(result.profiles.map((p) => p.profileId)).toEqual(['P1', 'P2']);
    expect(allelesOf(result.profiles[1])).toMatchObject({ Amelogenin: ['X'], D10S1248: ['13'], SE33: ['27.2', '29.2'] });
  });

  it('reads the semicolon-separated evidence file, skipping its empty loci with a warning', async () => {
    const result = await parseShared('genemapper/ESX17_evids_LTDNA.csv');
    expect(result.format).toBe('Long profile table (CSV, semicolon-separated)');
    expect(result.profiles.map((p) => p.profileId)).toEqual(['stain80', 'stain68', 'stain51']);
    expect(allelesOf(result.profiles[0])).toMatchObject({ D3S1358: ['15', '16', '17'], TH01: ['7', '9', '9.3'], D12S391: ['17', '18', '20', '23'] });
    expect(result.warnings).toEqual([
      { row: 2, sample: 'stain80', message: 'stain80: no alleles at D16S539, SE33; skipped' },
      { row: 18, sample: 'stain68', message: 'stain68: no alleles at D16S539, SE33; skipped' },
    ]);
    expect(result.errors).toEqual([]);
    expect(allelesOf(result.profiles[2]).D2S441).toEqual(['10', '11', '11.3', '12', '15']);
  });

  it('reads LRmix’s half-quoted header and keeps replicates apart (sampleProfile.csv)', async () => {
    const result = await parseShared('genemapper/sampleProfile.csv');
    expect(result.profiles.map((p) => p.profileId)).toEqual(['AAFI2047NL#01Rep1', 'AAFI2047NL#01Rep2']);
    expect(allelesOf(result.profiles[1])).toMatchObject({ D10S1248: ['13', '15', '16', '17'], TH01: ['6', '7', '8', '10'] });
  });

  it('reads both homozygote conventions of ref3.txt (R’s Sample.Name, Allele.1) and its lower-case name', async () => {
    const result = await parseShared('genemapper/ref3.txt');
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => p.profileId)).toEqual(['A2', 'F2', 'bc']);
    expect(allelesOf(result.profiles[0])).toMatchObject({ Amelogenin: ['X'], TH01: ['8'] });
    expect(allelesOf(result.profiles[1])).toMatchObject({ D10S1248: ['14'], D2S441: ['14'], Amelogenin: ['X', 'Y'] });
    expect(allelesOf(result.profiles[2]).D16S539).toEqual(['12']);
  });
});

describe('wide tables: one row per person', () => {
  it('reads Example_References_DB.csv’s <locus> and <locus>(2) columns as one marker', async () => {
    const result = await parseShared('genemapper/Example_References_DB.csv');
    expect(result.format).toBe('Wide profile table (CSV)');
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => [p.profileId, p.markerValues.length])).toEqual([['K1', 22], ['K2', 22], ['K3', 22]]);
    expect(allelesOf(result.profiles[0])).toMatchObject({ vWA: ['13', '15'], Amelogenin: ['X', 'Y'], D8S1179: ['13'], SE33: ['22.2', '26.2'] });
  });

  it('reads a CODIS database export with BOM, padded ids, NULL slots and legacy loci', async () => {
    const result = await parseShared('cmf/database_codis_2records_utf8withBOM.csv');
    expect(result.format).toBe('CODIS database export (CSV)');
    expect(result.errors).toEqual([]);
    expect(result.profiles.map((p) => p.profileId)).toEqual(['suspect', 'ABCD1234NL#01']);
    expect(allelesOf(result.profiles[1])).toMatchObject({ D19S433: ['15'], D21S11: ['29', '30.2'], vWA: ['16'] });
    expect(messages(result.warnings)).toEqual([
      'suspect: no alleles at CSF1PO, D13S317, D5S818, D7S820, F13A01, FESFPS, Penta D, Penta E, SE33, TPOX; skipped',
      'ABCD1234NL#01: no alleles at CSF1PO, D13S317, D5S818, D7S820, F13A01, FESFPS, Penta D, Penta E, SE33, TPOX; skipped',
    ]);
  });

  it('reads the CODIS exports with PENTAD_n and PENTA_D_n columns and six slots per locus', async () => {
    const big = await parseShared('cmf/database_codis_generated_44.csv');
    expect(big.errors).toEqual([]);
    expect(big.profiles).toHaveLength(44);
    expect(allelesOf(big.profiles[0])).toMatchObject({ 'Penta D': ['12', '13'], 'Penta E': ['12', '18'], TH01: ['9', '9.3'], D2S1338: ['25'] });
    const six = await parseShared('cmf/database_codis_generated_10_6fields.csv');
    expect(six.errors).toEqual([]);
    expect(six.profiles).toHaveLength(10);
    expect(allelesOf(six.profiles[0])).toMatchObject({ 'Penta D': ['12'], TPOX: ['8', '10'] });
    expect(allelesOf(six.profiles[1])).toMatchObject({ TPOX: ['8'], D21S11: ['31.2'] });
  });

  it('reads a Y-STR haplotype matrix as Y-STR profiles, joining the split DYS385a/b columns', async () => {
    const result = await parseShared('ystr/KGP_O2_sample7.matrix');
    expect(result.errors).toEqual([]);
    expect(result.profiles).toHaveLength(7);
    expect(result.profiles.every((p) => p.kind === 'YStr')).toBe(true);
    expect(allelesOf(profileNamed(result, 'NA18530'))).toEqual({
      DYS19: ['15'], DYS385: ['10', '14'], DYS389I: ['12'], DYS389II: ['32'], DYS390: ['26'], DYS391: ['10'], DYS392: ['14'], DYS393: ['12'],
    });
  });
});
