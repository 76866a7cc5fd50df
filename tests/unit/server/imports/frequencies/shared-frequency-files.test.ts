import { describe, expect, it } from 'vitest';
import { parseFrequencyFile, type ParsedFrequencies } from '../../../../../server/imports/frequencies';
import { makeResolver, resolveKinshipMarker, resolveMarker, sharedFile } from './markers.fixture';

type Autosomal = Extract<ParsedFrequencies, { kind: 'Autosomal' }>;

async function parse(path: string, opts: Parameters<typeof parseFrequencyFile>[2] = {}, resolve = resolveMarker): Promise<Autosomal> {
  const result = await parseFrequencyFile(sharedFile(path), resolve, opts);
  if (result.kind !== 'Autosomal') throw new Error(`${path} parsed as ${result.kind}`);
  return result;
}

function marker(result: Autosomal, name: string) {
  const found = result.markers.find((m) => m.marker === name);
  if (!found) throw new Error(`${name} not in result (${result.markers.map((m) => m.marker).join(', ')})`);
  return found;
}

/** The frequency of one allele, as read from the file. */
function frequency(result: Autosomal, name: string, allele: string): number | undefined {
  return marker(result, name).alleles.find((a) => a.allele === allele)?.frequency;
}

const messages = (r: { errors: { message: string }[] }) => r.errors.map((e) => e.message);

describe('FBI 2015 and NIST 1036 long tables (shared/data/frequencies)', () => {
  it('reads one FBI 2015 population with the 23 expanded CODIS loci and the exact double of each frequency', async () => {
    const r = await parse('frequencies/fbi2015.csv', { population: 'Caucasian' });
    expect(r.format).toBe('Long marker/allele/frequency table');
    expect(messages(r)).toEqual([]);
    expect(r.population).toBe('Caucasian');
    expect(r.populations).toHaveLength(12);
    expect(r.markers).toHaveLength(23);
    // fbi2015.csv line 4: Caucasian,D3S1358,15,0.24752475247524752
    expect(frequency(r, 'D3S1358', '15')).toBe(0.24752475247524752);
    expect(frequency(r, 'Penta E', '5')).toBeGreaterThan(0);
    expect(marker(r, 'D3S1358').sampleSize).toBeNull();
  });

  it('asks which population to read instead of mixing the twelve', async () => {
    const r = await parse('frequencies/fbi2015.csv');
    expect(r.markers).toEqual([]);
    expect(messages(r)[0]).toMatch(/^This file holds 12 populations \(Caucasian, SW Hispanic, .*\); choose the one to import$/);
  });

  it('warns that 5/(2N) cannot apply when no N is given, pointing to the -n file; says nothing of it once the -n file is chosen', async () => {
    const without = await parse('frequencies/fbi2015.csv', { population: 'Caucasian' });
    expect(without.warnings).toEqual([
      {
        row: null,
        message:
          "fbi2015.csv gives no sample size (N) for any marker, so 5/(2N) cannot apply: rare alleles get the population's minimum " +
          'allele frequency. Add an N column, or choose the sample-size file as the N file (fbi2015-n.csv for fbi2015.csv)',
      },
    ]);
    const withN = await parse('frequencies/fbi2015.csv', { population: 'Caucasian', sampleSizes: sharedFile('frequencies/fbi2015-n.csv') });
    expect(withN.warnings).toEqual([]);
  });

  it('takes N from the -n companion: half the allele count, rounded down when it is odd', async () => {
    const r = await parse('frequencies/fbi2015.csv', { population: 'caucasian', sampleSizes: sharedFile('frequencies/fbi2015-n.csv') });
    expect(messages(r)).toEqual([]);
    // fbi2015-n.csv: Caucasian,D3S1358,404 → 202 individuals; Caucasian,CSF1PO,403 → 201
    expect(marker(r, 'D3S1358').sampleSize).toBe(202);
    expect(marker(r, 'CSF1PO').sampleSize).toBe(201);
  });

  it('refuses a -n file uploaded on its own: it holds sample sizes, not frequencies', async () => {
    const r = await parse('frequencies/fbi2015-n.csv');
    expect(r.markers).toEqual([]);
    expect(messages(r)).toEqual([
      'fbi2015-n.csv lists sample sizes per marker but no allele frequencies; upload the frequency file and add this one as its sample-size file',
    ]);
    const nist = await parse('frequencies/nist1036-n.csv');
    expect(messages(nist)[0]).toMatch(/^nist1036-n\.csv lists sample sizes per marker/);
  });

  it('reads NIST 1036 with all 29 loci when the catalogue has the kinship markers', async () => {
    const r = await parse('frequencies/nist1036.csv', { population: 'AfAm', sampleSizes: sharedFile('frequencies/nist1036-n.csv') }, resolveKinshipMarker);
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(29);
    // nist1036.csv: AfAm,CSF1PO,10,0.25; nist1036-n.csv: AfAm,CSF1PO,684 → N = 342
    expect(frequency(r, 'CSF1PO', '10')).toBe(0.25);
    expect(marker(r, 'CSF1PO').sampleSize).toBe(342);
  });

  it('names every NIST 1036 locus the realistic catalogue lacks, once each', async () => {
    const r = await parse('frequencies/nist1036.csv', { population: 'Cauc' });
    expect(messages(r).sort()).toEqual(
      ['D6S1043', 'F13A01', 'F13B', 'FESFPS', 'LPL', 'Penta C'].map((m) => `Marker ${m} is invalid`).sort(),
    );
    expect(r.markers).toHaveLength(23);
    expect(r.errors.every((e) => typeof e.row === 'number' && e.row > 1)).toBe(true);
  });
});

describe('norSTR databases (Familias list format)', () => {
  // The number of blocks in each file; D11S554, APOAI1 and D17S906, where a file lists them, give fragment lengths.
  const files: [string, number, boolean][] = [
    ['NorskDB_v2023.txt', 50, true],
    ['EuropaDB_v2023.txt', 45, false],
    ['AfrikaDB_v2023.txt', 48, true],
    ['SydAmerikaDB_v2023.txt', 32, false],
    ['VestAsiaDB_v2023.txt', 50, true],
    ['MidtAsiaDB_v2023.txt', 48, true],
    ['OstAsiaDB_v2023.txt', 40, true],
  ];
  const BY_LENGTH = ['D11S554', 'APOAI1', 'D17S906'];
  it.each(files)('%s reads as Familias with %i markers and no error', async (file, count, byLength) => {
    const r = await parse(`frequencies/norstr/${file}`, {}, resolveKinshipMarker);
    expect(r.format).toBe('Familias');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(byLength ? count - BY_LENGTH.length : count);
    expect(r.markers.every((m) => m.sampleSize === null)).toBe(true);
    // Fragment lengths are no repeat numbers (core/alleles: 0 < n < 100): those markers alone are left out, with a warning each;
    // the file's one warning (no N anywhere) comes last.
    expect(r.warnings.map((w) => w.marker ?? 'no N')).toEqual([...(byLength ? BY_LENGTH : []), 'no N']);
  });

  it('says why a marker listed by fragment length is skipped, at its block', async () => {
    const r = await parse('frequencies/norstr/NorskDB_v2023.txt', {}, resolveKinshipMarker);
    expect(r.warnings.find((w) => w.marker === 'D17S906')).toEqual({
      row: 631,
      marker: 'D17S906',
      message: 'Every allele of D17S906 (326 … 441) is outside the repeat numbers 1–99 a profile can hold (fragment lengths?); the marker is skipped',
    });
  });

  it('keeps the value of NorskDB D1S1656 allele 11 (0.073863) and the spelling Penta E', async () => {
    const r = await parse('frequencies/norstr/NorskDB_v2023.txt', {}, resolveKinshipMarker);
    expect(frequency(r, 'D1S1656', '11')).toBe(0.073863);
    expect(marker(r, 'Penta E').alleles.length).toBeGreaterThan(5);
  });
});

describe('frequency formats of shared/data/formats/frequencies-formats', () => {
  it('ESX17_NorwayAMEL.csv: semicolon wide table with AMEL X/Y rows', async () => {
    const r = await parse('formats/frequencies-formats/ESX17_NorwayAMEL.csv');
    expect(r.format).toBe('Wide allele × marker table (CSV, semicolon-separated)');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(17);
    expect(marker(r, 'Amelogenin').alleles).toEqual([
      { allele: 'X', frequency: 0.5 },
      { allele: 'Y', frequency: 0.5 },
    ]);
    // Row `9.3;;;0.344293424;…`, column TH01
    expect(frequency(r, 'TH01', '9.3')).toBe(0.344293424);
  });

  it('Fusion6C_Norway.csv: 23 loci including Penta D and Penta E, full precision kept', async () => {
    const r = await parse('formats/frequencies-formats/Fusion6C_Norway.csv');
    expect(r.format).toBe('Wide allele × marker table (CSV)');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(23);
    expect(frequency(r, 'Penta D', '2.2')).toBe(0.000208834043437481);
  });

  it('NGM_Holland.csv: rows empty for every marker are skipped', async () => {
    const r = await parse('formats/frequencies-formats/NGM_Holland.csv');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(15);
    expect(frequency(r, 'TH01', '5')).toBe(0.007194245);
    expect(r.markers.some((m) => m.alleles.some((a) => a.allele === '2.2'))).toBe(false);
  });

  it('SGMPlus_UK.csv: 10 SGM Plus loci', async () => {
    const r = await parse('formats/frequencies-formats/SGMPlus_UK.csv');
    expect(messages(r)).toEqual([]);
    expect(r.markers.map((m) => m.marker)).toEqual(['D3S1358', 'vWA', 'D16S539', 'D2S1338', 'D8S1179', 'D21S11', 'D18S51', 'D19S433', 'TH01', 'FGA']);
    expect(frequency(r, 'TH01', '6')).toBe(0.2471);
  });

  it('samplePopulationStatistics.csv: every cell quoted (LRmix Studio)', async () => {
    const r = await parse('formats/frequencies-formats/samplePopulationStatistics.csv');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(15);
    expect(frequency(r, 'TH01', '5')).toBe(0.00704);
  });

  it('frequencies_NFI_LRDYN-204.csv: "5.0" is allele 5 and PentaE is Penta E', async () => {
    const r = await parse('formats/frequencies-formats/frequencies_NFI_LRDYN-204.csv');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(23);
    expect(frequency(r, 'Penta E', '5')).toBe(0.0714628297);
    expect(frequency(r, 'TH01', '5')).toBe(0.0071942446);
    expect(marker(r, 'TH01').alleles.some((a) => a.allele.endsWith('.0'))).toBe(false);
  });

  it('STRBASE_frequencies_2015-02-09_Europe.csv: E-notation frequencies', async () => {
    const r = await parse('formats/frequencies-formats/STRBASE_frequencies_2015-02-09_Europe.csv');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(16);
    expect(frequency(r, 'TH01', '5')).toBe(7.72499e-4);
  });

  it('database.txt: strvalidator databases stacked in one file, N from the N column', async () => {
    const sgm = await parse('formats/frequencies-formats/database.txt', { population: 'SGM Norway' });
    expect(sgm.format).toBe('strvalidator frequency database (TSV)');
    expect(sgm.populations).toEqual(['SGM Norway', 'ESX 17 Hill']);
    expect(messages(sgm)).toEqual([]);
    // AMEL + the 10 SGM Plus loci; the ESX-only columns are empty for this database.
    expect(sgm.markers).toHaveLength(11);
    expect(frequency(sgm, 'TH01', '5')).toBe(0.005);
    expect(marker(sgm, 'TH01').sampleSize).toBe(1000);
    expect(sgm.warnings.map((w) => w.marker).sort()).toEqual(['D10S1248', 'D12S391', 'D1S1656', 'D22S1045', 'D2S441', 'SE33']);

    const esx = await parse('formats/frequencies-formats/database.txt', { population: 'ESX 17 Hill' });
    expect(messages(esx)).toEqual([]);
    expect(esx.markers).toHaveLength(17);
    expect(marker(esx, 'SE33').sampleSize).toBe(1443);
  });

  it('ferdous-2010-bangladesh-chakma.csv: STR/N/Allele preamble; the H_obs row is a statistic, not an allele', async () => {
    const r = await parse('formats/frequencies-formats/ferdous-2010-bangladesh-chakma.csv');
    expect(r.format).toBe('Wide allele × marker table with STR/N/Allele header rows (CSV)');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(10);
    expect(frequency(r, 'TH01', '9')).toBe(0.5871);
    expect(r.markers.every((m) => m.sampleSize === 109)).toBe(true);
    expect(r.warnings).toEqual([{ row: 53, message: 'Row "H_obs" is a summary statistic, not an allele; skipped' }]);
  });

  it('popSTR-europe.csv: one row per marker, zero bins dropped, N per marker', async () => {
    const r = await parse('formats/frequencies-formats/popSTR-europe.csv', {}, resolveKinshipMarker);
    expect(r.format).toBe('pop.STR export');
    expect(messages(r)).toEqual([]);
    expect(r.population).toBe('EUROPE');
    expect(r.markers).toHaveLength(70);
    // CSF1PO;EUROPE;655;… freq_10 = 0.276
    expect(frequency(r, 'CSF1PO', '10')).toBe(0.276);
    expect(marker(r, 'CSF1PO').sampleSize).toBe(655);
    expect(marker(r, 'CSF1PO').alleles.every((a) => a.frequency > 0)).toBe(true);
  });

  it('codis.txt: Familias list of the 13 CODIS loci', async () => {
    const r = await parse('formats/frequencies-formats/codis.txt');
    expect(r.format).toBe('Familias');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(13);
    expect(frequency(r, 'CSF1PO', '11')).toBe(0.300000072);
  });

  it('paternity.fam: the database embedded in a Familias project, DatabaseSize as N', async () => {
    const r = await parse('formats/frequencies-formats/paternity.fam');
    expect(r.format).toBe('Familias project (.fam)');
    expect(messages(r)).toEqual([]);
    expect(r.markers).toHaveLength(10);
    // paternity.fam lines 130-131: "15" / 0.2635090535 under "D3S1358"
    expect(frequency(r, 'D3S1358', '15')).toBe(0.2635090535);
    expect(marker(r, 'Penta E').sampleSize).toBe(1000);
  });

  it('dvi-example.fam: its database is a toy locus L1, which no lab catalogue holds', async () => {
    const r = await parse('formats/frequencies-formats/dvi-example.fam');
    expect(r.format).toBe('Familias project (.fam)');
    expect(r.errors).toEqual([{ row: 15, marker: 'L1', message: 'Marker L1 is invalid' }]);
    const anyName = await parse('formats/frequencies-formats/dvi-example.fam', {}, makeResolver([{ name: 'L1', kind: 'Autosomal' }]));
    expect(messages(anyName)).toEqual([]);
    expect(frequency(anyName, 'L1', '3')).toBe(0.9);
    expect(marker(anyName, 'L1').sampleSize).toBe(2500);
  });

  it('strider-2015.xml: one origin read, N from the origin, empty markers skipped with a warning', async () => {
    const r = await parse('formats/frequencies-formats/strider-2015.xml', { population: 'Europe' });
    expect(r.format).toBe('STRidER XML');
    expect(messages(r)).toEqual([]);
    expect(r.populations).toHaveLength(21);
    expect(r.markers).toHaveLength(16);
    expect(frequency(r, 'vWA', '18')).toBe(2.13844e-1);
    expect(marker(r, 'vWA').sampleSize).toBe(5172);
    expect(marker(r, 'SE33').sampleSize).toBe(3023);
    expect(r.warnings.filter((w) => w.marker).map((w) => w.marker)).toEqual(
      expect.arrayContaining(['TPOX', 'CSF1PO', 'Penta D', 'D6S1043', 'Y indel']),
    );
    expect(r.warnings.some((w) => /rare-allele bins/.test(w.message))).toBe(true);
  });

  it('frequencies_STRBASE.xml: the pretty-printed snapshot gives the same Europe data', async () => {
    const r = await parse('formats/frequencies-formats/frequencies_STRBASE.xml', { population: 'europe' });
    expect(messages(r)).toEqual([]);
    expect(r.population).toBe('Europe');
    expect(r.markers).toHaveLength(16);
    expect(frequency(r, 'FGA', '20')).toBe(1.42126e-1);
    // FGA's rare-allele bin "1" is kept, so the marker still sums to 1.
    expect(frequency(r, 'FGA', '1')).toBe(9.66184e-5);
    const norway = await parse('formats/frequencies-formats/frequencies_STRBASE.xml', { population: 'NORWAY' });
    expect(norway.markers).toHaveLength(15);
    expect(marker(norway, 'vWA').sampleSize).toBe(202);
  });

  it('D3_B.count.csv: LabRetriever\'s short name D3 is read as D3S1358; counts become count / total, N is half the allele total', async () => {
    const r = await parse('formats/frequencies-formats/D3_B.count.csv', { population: 'Cau' });
    expect(r.format).toBe('LabRetriever allele count table');
    expect(messages(r)).toEqual([]);
    expect(r.warnings).toContainEqual({
      row: null,
      marker: 'D3S1358',
      message: "The marker D3S1358 (LabRetriever's short name D3) is taken from the file name D3_B.count.csv",
    });
    expect(r.populations).toEqual(['Af Am', 'Cau', 'Hsp']);
    // Cau column: 14 → 62 of 604 alleles; alleles with count 0 are absent.
    expect(frequency(r, 'D3S1358', '14')).toBe(62 / 604);
    expect(marker(r, 'D3S1358').sampleSize).toBe(302);
    expect(marker(r, 'D3S1358').alleles.map((a) => a.allele)).toEqual(['11', '14', '15', '16', '17', '18', '19', '20']);
  });

  it('reads the locus of LabRetriever\'s other count-table names (THO_B, TPO_B, CSF_B, Penta_E_B, Penta D_B) from the file name', async () => {
    const d3 = sharedFile('formats/frequencies-formats/D3_B.count.csv').bytes;
    const names: Record<string, string> = { 'THO_B.count.csv': 'TH01', 'TPO_B.count.csv': 'TPOX', 'CSF_B.count.csv': 'CSF1PO', 'Penta_E_B.count.csv': 'Penta E', 'Penta D_B.count.csv': 'Penta D' };
    for (const [fileName, name] of Object.entries(names)) {
      const r = await parseFrequencyFile({ fileName, bytes: d3 }, resolveKinshipMarker, { population: 'Cau' });
      expect(r.kind === 'Autosomal' && r.markers.map((m) => m.marker)).toEqual([name]);
    }
  });

  it('FGA_B.count.csv: the marker named by the file resolves directly', async () => {
    const r = await parse('formats/frequencies-formats/FGA_B.count.csv', { population: 'Af Am' });
    expect(messages(r)).toEqual([]);
    expect(frequency(r, 'FGA', '22')).toBe(101 / 516);
    expect(marker(r, 'FGA').sampleSize).toBe(258);
  });

  it('zeyad-2020-uae-ystrs.csv: a Y-STR allele-frequency table is refused, and its malformed rows are flagged, not guessed', async () => {
    const r = await parse('formats/ystr/zeyad-2020-uae-ystrs.csv');
    expect(r.errors.filter((e) => e.row !== null).map((e) => [e.row, e.message])).toEqual([
      [55, '"?" is not an allele designation; the row is skipped'],
      [56, 'The allele label reads as "10,11": an unquoted comma shifts this row one column to the right. Quote the label or fix the row; it is skipped'],
      [57, 'The allele label reads as "15,16": an unquoted comma shifts this row one column to the right. Quote the label or fix the row; it is skipped'],
      [58, 'The allele label reads as "20,21": an unquoted comma shifts this row one column to the right. Quote the label or fix the row; it is skipped'],
      [59, 'The allele label reads as "31,32": an unquoted comma shifts this row one column to the right. Quote the label or fix the row; it is skipped'],
    ]);
    expect(r.errors.filter((e) => e.row === null).map((e) => e.message)).toEqual([
      expect.stringMatching(/^DYS576, DYS389I, .* are Y-STR markers: Y-STR statistics are imported as a haplotype table \(one row per man, one column per marker\), not as allele frequencies$/),
    ]);
  });
});

describe('files in the frequency folders that are not frequency tables', () => {
  it('database_readme.txt (ISO-8859-1 prose) is refused with the list of readable formats', async () => {
    const r = await parse('formats/frequencies-formats/database_readme.txt');
    expect(r.markers).toEqual([]);
    expect(messages(r)).toEqual([
      'database_readme.txt is not a frequency file Locus can read; expected an allele × marker table, a marker/allele/frequency table, ' +
        'a pop.STR export, a LabRetriever count table, a Familias or MERLIN frequency list, a Familias project (.fam), a STRidER XML file ' +
        'or a Y-STR haplotype table',
    ]);
  });

  it('strbase.xsd is an XML schema, not STRidER data', async () => {
    const r = await parse('formats/frequencies-formats/strbase.xsd');
    expect(messages(r)).toEqual(['strbase.xsd is an XML schema, not a STRidER frequency file (root element <frequencies>)']);
  });
});
