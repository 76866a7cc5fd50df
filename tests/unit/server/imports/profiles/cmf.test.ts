import { describe, expect, it } from 'vitest';
import { allelesOf, idOf, messages, parseShared, parseUpload, sharedBytes } from './profile-files.fixture';

/** A CMF 3.2 document around the given specimens (and optional header KIT). */
function cmf(specimens: string, { kit = '', version = '3.2' } = {}): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<CODISImportFile xmlns="urn:CODISImportFile-schema">',
    `<HEADERVERSION>${version}</HEADERVERSION><MESSAGETYPE>Import</MESSAGETYPE><DESTINATIONORI>ORI</DESTINATIONORI>`,
    '<SOURCELAB>LAB</SOURCELAB><SUBMITBYUSERID>U</SUBMITBYUSERID><SUBMITDATETIME>2026-01-02T03:04:05</SUBMITDATETIME>',
    kit === '' ? '' : `<KIT>${kit}</KIT>`,
    specimens,
    '</CODISImportFile>',
  ].join('\n');
}

const locus = (name: string, ...alleles: string[]) =>
  `<LOCUS><LOCUSNAME>${name}</LOCUSNAME><READINGBY>U</READINGBY><READINGDATETIME>2026-01-02T03:04:05</READINGDATETIME>${alleles
    .map((a) => `<ALLELE><ALLELEVALUE>${a}</ALLELEVALUE></ALLELE>`)
    .join('')}</LOCUS>`;

const specimen = (id: string, category: string, ...loci: string[]) =>
  `<SPECIMEN><SPECIMENID>${id}</SPECIMENID><SPECIMENCATEGORY>${category}</SPECIMENCATEGORY>\n${loci.join('\n')}\n</SPECIMEN>\n`;

describe('CODIS CMF 3.2: the shared real files', () => {
  it('reads Codis-Single-Profile.xml: one forensic unknown with 16 loci, homozygotes given once', async () => {
    const result = await parseShared('cmf/Codis-Single-Profile.xml');
    expect(result.format).toBe('CODIS CMF 3.2 XML');
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.profiles).toHaveLength(1);
    const [profile] = result.profiles;
    expect(profile).toMatchObject({ profileId: 'ABCD1234NL#01', kind: 'Autosomal', sampleType: 'Forensic, Unknown', kit: null, errors: [], line: 9 });
    expect(profile!.markerValues).toHaveLength(16);
    expect(profile!.markerValues[0]).toEqual({ markerId: idOf('D16S539'), marker: 'D16S539', alleles: ['10', '11'] });
    const alleles = allelesOf(profile);
    expect(alleles.vWA).toEqual(['16']);
    expect(alleles.Amelogenin).toEqual(['X', 'Y']);
    expect(alleles.D19S433).toEqual(['10']);
    expect(alleles.D2S441).toEqual(['10']);
  });

  it('reports broken-locus.xml’s locus without LOCUSNAME by specimen and position, and blocks that profile', async () => {
    const result = await parseShared('cmf/broken-locus.xml');
    const message = 'Specimen ABCD1234NL#01: locus 4 has no LOCUSNAME, so its alleles belong to no marker';
    expect(result.errors).toEqual([{ row: 45, sample: 'ABCD1234NL#01', message }]);
    expect(result.profiles[0]!.errors).toEqual([message]);
    expect(result.profiles[0]!.markerValues).toHaveLength(15);
    expect(allelesOf(result.profiles[0]).D3S1358).toBeUndefined();
  });

  it('refuses no-profiles.xml: a header without any SPECIMEN', async () => {
    const result = await parseShared('cmf/no-profiles.xml');
    expect(result.profiles).toEqual([]);
    expect(messages(result.errors)).toEqual(['no-profiles.xml holds no SPECIMEN: a CMF file lists at least one specimen with its loci']);
  });

  it('refuses not-a-codis-file.xml and the CODIS value list, naming their root elements', async () => {
    expect(messages((await parseShared('cmf/not-a-codis-file.xml')).errors)).toEqual([
      'not-a-codis-file.xml is XML with root element <rootnode>, not a CODIS CMF profile file (root element <CODISImportFile>)',
    ]);
    expect(messages((await parseShared('cmf/CmfList.xml')).errors)).toEqual([
      'CmfList.xml is XML with root element <CmfList>, not a CODIS CMF profile file (root element <CODISImportFile>)',
    ]);
  });

  it('sends a STRidER frequency XML to population upload instead of calling it only "not a CODIS CMF file"', async () => {
    for (const file of ['strider-2015.xml', 'frequencies_STRBASE.xml']) {
      const result = await parseShared(`frequencies-formats/${file}`);
      expect(result.profiles).toEqual([]);
      expect(messages(result.errors)).toEqual([
        `${file} is a STRidER allele-frequency file (root element <frequencies>), not profiles; upload it to a population instead`,
      ]);
    }
  });

  it('says a CMF schema is a schema, not a profile file', async () => {
    const result = await parseShared('cmf/CODIS-32.AppendixBexample.xsd');
    expect(messages(result.errors)).toEqual([
      'CODIS-32.AppendixBexample.xsd is an XML schema (XSD), not a CODIS CMF profile file (root element <CODISImportFile>)',
    ]);
  });
});

describe('CODIS CMF: broken and unusual files', () => {
  const real = sharedBytes('cmf/Codis-Single-Profile.xml').toString('utf8');
  /** The 1-based line where `needle` first stands in `text`. */
  const lineOf = (text: string, needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;

  it('says a file cut inside a closing tag is cut short, at the line where it breaks', async () => {
    const cut = real.slice(0, real.indexOf('</READINGDATETIME>', 2400) + 12);
    const result = await parseUpload('cut.xml', cut);
    const lastLine = cut.split('\n').length;
    expect(result.profiles).toEqual([]);
    expect(result.errors).toEqual([
      { row: lastLine, message: `The file is cut short or is not well-formed XML at line ${lastLine}: Closing tag 'READINGDAT' doesn't have proper closing.` },
    ]);
  });

  it('says which elements a file cut between tags leaves open', async () => {
    const cut = real.slice(0, real.indexOf('<ALLELEVALUE>', 1000));
    const result = await parseUpload('cut.xml', cut);
    const lastLine = cut.trimEnd().split('\n').length;
    expect(result.errors).toEqual([
      { row: lastLine, message: `The file is cut short or is not well-formed XML at line ${lastLine}: the XML ends before <ALLELE>, <LOCUS>, <SPECIMEN>, <CODISImportFile> are closed` },
    ]);
  });

  it('refuses a DOCTYPE, so no entity is ever expanded', async () => {
    const xxe = real.replace('<CODISImportFile', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<CODISImportFile');
    const result = await parseUpload('xxe.xml', xxe);
    expect(result.profiles).toEqual([]);
    expect(messages(result.errors)).toEqual(['XML files with a DOCTYPE or entity declarations are refused; remove the declaration and upload again']);
  });

  it('refuses an undeclared entity (&xxe;) instead of storing it as an allele, naming the line', async () => {
    const xxe = real.replace('<ALLELEVALUE>16</ALLELEVALUE>', '<ALLELEVALUE>&xxe;</ALLELEVALUE>');
    const line = lineOf(xxe, '&xxe;');
    const result = await parseUpload('xxe.xml', xxe);
    expect(result.profiles).toEqual([]);
    expect(result.errors).toEqual([
      {
        row: line,
        message: `The XML is not well-formed at line ${line}: it uses the entity &xxe;, which is not declared (only &lt; &gt; &amp; &quot; &apos; and character references such as &#60; may appear)`,
      },
    ]);
  });

  it('refuses an undeclared entity in an attribute too', async () => {
    const text = cmf(specimen('S-1', 'Forensic, Unknown', locus('TH01', '6').replace('<LOCUS>', '<LOCUS KIT="&kit;">')));
    const line = lineOf(text, '&kit;');
    const result = await parseUpload('kit.xml', text);
    expect(result.profiles).toEqual([]);
    expect(result.errors.map((e) => e.row)).toEqual([line]);
    expect(messages(result.errors)[0]).toMatch(new RegExp(`^The XML is not well-formed at line ${line}: it uses the entity &kit;`));
  });

  it('refuses a mismatched closing tag, naming the line', async () => {
    const broken = real.replace('</SPECIMENID>', '</SPECIMENI>');
    const line = lineOf(broken, '</SPECIMENI>');
    const result = await parseUpload('mismatch.xml', broken);
    expect(result.profiles).toEqual([]);
    expect(result.errors.map((e) => e.row)).toEqual([line]);
    expect(messages(result.errors)).toEqual([
      `The file is cut short or is not well-formed XML at line ${line}: Expected closing tag 'SPECIMENID' (opened in line ${line}, col 5) instead of closing tag 'SPECIMENI'.`,
    ]);
  });

  it('refuses a second document or text after the root element, naming the line', async () => {
    const twice = `${real.trimEnd()}\n${real.slice(real.indexOf('<CODISImportFile'))}`;
    const line = real.trimEnd().split('\n').length + 1;
    const result = await parseUpload('twice.xml', twice);
    expect(result.profiles).toEqual([]);
    expect(messages(result.errors)).toEqual([`The file is cut short or is not well-formed XML at line ${line}: Multiple possible root nodes found.`]);
    const text = await parseUpload('text.xml', `${real.trimEnd()}\nleftover\n`);
    expect(messages(text.errors)).toEqual([`The file is cut short or is not well-formed XML at line ${line}: Extra text at the end`]);
  });

  it('accepts comments and white space after the root element', async () => {
    const result = await parseUpload('comment.xml', `${real}\n<!-- exported by LIMS -->\n\n`);
    expect(result.errors).toEqual([]);
    expect(result.profiles).toHaveLength(1);
  });

  it('reads character references (&#60;9, &#x3E;21) like the predefined entities', async () => {
    const result = await parseUpload('refs.xml', cmf(specimen('S-1', 'Forensic, Unknown', locus('D18S51', '&#60;9', '12'), locus('FGA', '&#x3E;30', '22'))));
    expect(result.errors).toEqual([]);
    expect(allelesOf(result.profiles[0])).toEqual({ D18S51: ['12', '<9'], FGA: ['22', '>30'] });
  });

  it('reads CODIS’s "Unidentified Person" (what the export writes for remains) as Unidentified Human (Remains), with no warning', async () => {
    const result = await parseUpload('remains.xml', cmf(specimen('UHR-1', 'Unidentified Person', locus('D3S1358', '15', '16'))));
    expect(result.warnings).toEqual([]);
    expect(result.profiles[0]).toMatchObject({ profileId: 'UHR-1', sampleType: 'Unidentified Human (Remains)' });
  });

  it('recognises and refuses a Rapid DNA CMF file', async () => {
    const rapid = '<?xml version="1.0"?><CODISRapidImportFile xmlns="urn:CODISRapidImportFile-schema"><HEADER/></CODISRapidImportFile>';
    expect(messages((await parseUpload('rapid.xml', rapid)).errors)).toEqual([
      'rapid.xml is a Rapid DNA CMF file (CODISRapidImportFile), which Locus does not import; export the profiles as CODIS CMF 3.2 (CODISImportFile)',
    ]);
  });

  it('reads namespace-prefixed elements like the default namespace', async () => {
    const prefixed = real
      .replace(/<(\/?)([A-Z]+)/g, '<$1cmf:$2')
      .replace('xmlns=', 'xmlns:cmf=');
    const result = await parseUpload('prefixed.xml', prefixed);
    expect(result.errors).toEqual([]);
    expect(allelesOf(result.profiles[0]).vWA).toEqual(['16']);
  });

  it('reads any CMF version with the same layout, the kit, and escaped range alleles', async () => {
    const text = cmf(specimen('S-1', 'Suspect, Known', locus('D18S51', '&lt;9', '12'), locus('TH01', '9.3', '6')), { kit: 'GlobalFiler', version: '3.3' });
    const result = await parseUpload('v33.xml', text);
    expect(result.format).toBe('CODIS CMF 3.3 XML');
    expect(result.profiles[0]).toMatchObject({ profileId: 'S-1', sampleType: 'Suspect, Known', kit: 'GlobalFiler', errors: [] });
    expect(allelesOf(result.profiles[0])).toEqual({ D18S51: ['12', '<9'], TH01: ['6', '9.3'] });
  });

  it('takes the kit of the loci when they override the header’s', async () => {
    const text = cmf(specimen('S-1', 'Forensic, Unknown', locus('TH01', '6').replace('<LOCUS>', '<LOCUS KIT="Identifiler Plus">')), { kit: 'GlobalFiler' });
    expect((await parseUpload('kit.xml', text)).profiles[0]!.kit).toBe('Identifiler Plus');
  });

  it('keeps a specimen category Locus has no sample type for as a warning, leaving the type to choose', async () => {
    const result = await parseUpload('pop.xml', cmf(specimen('P-1', 'Population', locus('TH01', '6', '7'))));
    expect(result.profiles[0]).toMatchObject({ sampleType: null, errors: [] });
    expect(messages(result.warnings)).toEqual(['P-1: the specimen category "Population" is not a Locus sample type; choose one when adding']);
  });

  it('reports an ALLELE without ALLELEVALUE, a locus given twice and a repeated SPECIMENID', async () => {
    const text = cmf(
      specimen('S-1', 'Forensic, Unknown', locus('TH01', '6', ''), locus('vWA', '14'), locus('vWA', '15')) +
        specimen('S-1', 'Forensic, Unknown', locus('TH01', '7')),
    );
    const result = await parseUpload('dup.xml', text);
    expect(messages(result.errors)).toEqual([
      'Specimen S-1, locus TH01: allele 2 has no ALLELEVALUE',
      'vWA is given twice for S-1 (rows 8 and 9); is the name used for two runs?',
      'The sample name S-1 is used 2 times in the file (rows 6, 11); each profile needs its own name',
    ]);
    expect(result.profiles.map((p) => p.errors.length)).toEqual([3, 1]);
  });

  it('skips a locus without alleles with a warning', async () => {
    const result = await parseUpload('empty.xml', cmf(specimen('S-1', 'Forensic, Unknown', locus('TH01'), locus('vWA', '14'))));
    expect(result.errors).toEqual([]);
    expect(allelesOf(result.profiles[0])).toEqual({ vWA: ['14'] });
    expect(messages(result.warnings)).toEqual(['S-1: no alleles at TH01; skipped']);
  });
});
