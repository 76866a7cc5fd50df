import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { CmfExportRefused, profilesToCmf, type ExportableProfile } from '../../../../../server/exports/profiles';
import type { ParsedProfile } from '../../../../../server/imports/profiles';
import { parseShared, parseUpload } from '../../imports/profiles/profile-files.fixture';

const OPTIONS = { destinationOri: 'NL0000000', sourceLab: 'NFI-LAB', submitByUserId: 'analyst1', submitDateTime: new Date('2026-03-04T05:06:07.890Z') };

/** A parsed profile as the download route hands it over, with the sample type chosen when it was added. */
const exportable = (p: ParsedProfile, sampleType = p.sampleType ?? 'Suspect, Known'): ExportableProfile => ({ ...p, sampleType });

/** What must survive an export and a re-import. */
const essence = (profiles: readonly ParsedProfile[]) => profiles.map((p) => ({ profileId: p.profileId, kind: p.kind, sampleType: p.sampleType, markerValues: p.markerValues }));

describe('profilesToCmf writes CMF 3.2 that Locus reads back unchanged', () => {
  it('round-trips Codis-Single-Profile.xml', async () => {
    const parsed = await parseShared('cmf/Codis-Single-Profile.xml');
    const again = await parseUpload('export.xml', profilesToCmf(parsed.profiles.map((p) => exportable(p)), OPTIONS));
    expect(again.format).toBe('CODIS CMF 3.2 XML');
    expect(again.errors).toEqual([]);
    expect(again.warnings).toEqual([]);
    expect(essence(again.profiles)).toEqual(essence(parsed.profiles));
  });

  it('round-trips 77 references of databaseESX17.txt and the Y-STR haplotypes (DYS389I written as CODIS’s "DYS389 I")', async () => {
    for (const file of ['genemapper/databaseESX17.txt', 'ystr/KGP_O2_sample7.matrix']) {
      // databaseESX17's sample names have 32 characters, over CMF's 24 for a SPECIMENID (cmf-schema.test.ts): numbered here.
      const parsed = await parseShared(file);
      parsed.profiles = parsed.profiles.map((p, i) => ({ ...p, profileId: `${path.basename(file).slice(0, 8)}-${i}` }));
      const xml = profilesToCmf(parsed.profiles.map((p) => exportable(p)), OPTIONS);
      const again = await parseUpload('export.xml', xml);
      expect(again.errors).toEqual([]);
      expect(essence(again.profiles)).toEqual(essence(parsed.profiles.map((p) => ({ ...p, sampleType: 'Suspect, Known' }))));
    }
    const y = profilesToCmf((await parseShared('ystr/KGP_O2_sample7.matrix')).profiles.map((p) => exportable(p)), OPTIONS);
    expect(y).toContain('<LOCUSNAME>DYS389 I</LOCUSNAME>');
    expect(y).toContain('<LOCUSNAME>DYS389 II</LOCUSNAME>');
  });
});

describe('the CMF document', () => {
  const profile: ExportableProfile = {
    profileId: 'ABCD1234NL#01',
    sampleType: 'Forensic, Unknown',
    kind: 'Autosomal',
    chemistryName: 'GlobalFiler',
    caseNumber: '2026-0100',
    markerValues: [
      { marker: 'D18S51', alleles: ['>21', '9', '<8', '9.3'] },
      { marker: 'vWA', alleles: [] },
      { marker: 'Amelogenin', alleles: ['X', 'Y'] },
    ],
  };

  it('has the CMF 3.2 header from the options, in the schema’s order', () => {
    const xml = profilesToCmf([profile], OPTIONS);
    expect(xml.split('\n').slice(0, 8)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<CODISImportFile xmlns="urn:CODISImportFile-schema">',
      '  <HEADERVERSION>3.2</HEADERVERSION>',
      '  <MESSAGETYPE>Import</MESSAGETYPE>',
      '  <DESTINATIONORI>NL0000000</DESTINATIONORI>',
      '  <SOURCELAB>NFI-LAB</SOURCELAB>',
      '  <SUBMITBYUSERID>analyst1</SUBMITBYUSERID>',
      '  <SUBMITDATETIME>2026-03-04T05:06:07</SUBMITDATETIME>',
    ]);
  });

  it('writes one SPECIMEN per profile: case id, category, typed loci only, alleles in SWGDAM order, the CODIS kit', () => {
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, isArray: (n) => ['SPECIMEN', 'LOCUS', 'ALLELE'].includes(n) }).parse(
      profilesToCmf([profile, { ...profile, profileId: 'S-2', chemistryName: 'In-house 12plex', caseNumber: undefined }], OPTIONS),
    );
    const [first, second] = doc.CODISImportFile.SPECIMEN;
    expect(first['@_CASEID']).toBe('2026-0100');
    expect(first.SPECIMENID).toBe('ABCD1234NL#01');
    expect(first.SPECIMENCATEGORY).toBe('Forensic, Unknown');
    expect(first.LOCUS.map((l: { LOCUSNAME: string }) => l.LOCUSNAME)).toEqual(['D18S51', 'Amelogenin']);
    expect(first.LOCUS[0]).toMatchObject({ '@_KIT': 'GlobalFiler', READINGBY: 'analyst1', READINGDATETIME: '2026-03-04T05:06:07' });
    expect(first.LOCUS[0].ALLELE.map((a: { ALLELEVALUE: string }) => a.ALLELEVALUE)).toEqual(['<8', '9', '9.3', '>21']);
    // A chemistry CODIS does not list gets no KIT, and a profile without a case number no CASEID.
    expect(second['@_CASEID']).toBeUndefined();
    expect(second.LOCUS[0]['@_KIT']).toBeUndefined();
  });

  it('names kits and loci the way CODIS spells them', () => {
    const yfiler: ExportableProfile = { profileId: 'Y', sampleType: 'Suspect, Known', kind: 'YStr', chemistryName: 'Yfiler Plus', markerValues: [{ marker: 'YGATAH4', alleles: ['11'] }] };
    const xml = profilesToCmf([yfiler], OPTIONS);
    expect(xml).toContain('<LOCUS KIT="AmpFlSTR Yfiler Plus">');
    expect(xml).toContain('<LOCUSNAME>YGATAH4</LOCUSNAME>');
  });

  it('escapes <, &, " and \' in text and attributes, and reads them back as written', async () => {
    const tricky: ExportableProfile = { ...profile, profileId: `A<&"B'`, caseNumber: 'C"1<&>', markerValues: [{ marker: 'D18S51', alleles: ['<8', '12'] }] };
    const xml = profilesToCmf([tricky], OPTIONS);
    expect(xml).toContain('<SPECIMENID>A&lt;&amp;&quot;B&apos;</SPECIMENID>');
    expect(xml).toContain('<SPECIMEN CASEID="C&quot;1&lt;&amp;&gt;">');
    expect(xml).toContain('<ALLELEVALUE>&lt;8</ALLELEVALUE>');
    const again = await parseUpload('escaped.xml', xml);
    expect(again.errors).toEqual([]);
    expect(again.profiles[0]).toMatchObject({ profileId: `A<&"B'`, markerValues: [{ marker: 'D18S51', alleles: ['12', '<8'] }] });
  });

  it('refuses a profile with no laboratory and a submitter over 20 characters, instead of NO-ORI/NO-LAB placeholders and a cut user id', () => {
    const write = () => profilesToCmf([profile], { sourceLab: '', submitByUserId: 'someone.with.a.long.address@lab.example', submitDateTime: OPTIONS.submitDateTime });
    expect(write).toThrow(CmfExportRefused);
    expect(write).toThrow(
      'No CMF file was written: the profile has no laboratory, which CMF 3.2 names as SOURCELAB; give the profile its laboratory; ' +
        'the submitter "someone.with.a.long.address@lab.example" has 39 characters; CMF 3.2 SUBMITBYUSERID takes at most 20: give a shorter submitter id.',
    );
    const xml = profilesToCmf([profile], { sourceLab: 'NFI-LAB', submitByUserId: 'analyst@lab.example', submitDateTime: OPTIONS.submitDateTime });
    expect(xml).toContain('<DESTINATIONORI>NFI-LAB</DESTINATIONORI>');
    expect(xml).toContain('<SUBMITBYUSERID>analyst@lab.example</SUBMITBYUSERID>');
    expect(xml).toContain('<READINGBY>analyst@lab.example</READINGBY>');
  });
});
