import { compareAlleles } from '../../imports/frequencies/alleles';
import { cmfKit, cmfLocusName } from './cmf-values';
import type { ExportableProfile } from './types';

/** Who submits the file and when (CMF 3.2 header). */
export interface CmfExportOptions {
  /** ORI of the CODIS laboratory that will import the file; the source laboratory when not given. */
  destinationOri?: string;
  sourceLab: string;
  submitByUserId: string;
  submitDateTime: Date;
}

const NAMESPACE = 'urn:CODISImportFile-schema';

// Header fields have lengths fixed by the schema (CODISLabType 1–10, CODISUserType 1–20): longer values are cut
// and empty ones get a placeholder, so the file stays valid. Identifiers (SPECIMENID, CASEID) are never cut:
// CODIS refusing a long one is better than a silently different one.
const LAB_LENGTH = 10;
const USER_LENGTH = 20;

/**
 * Writes profiles as a CODIS CMF 3.2 import file (CODIS Interface Specification, Appendix B): one SPECIMEN per
 * profile with its sample type as SPECIMENCATEGORY and the case number as CASEID, one LOCUS per typed marker
 * (CODIS spelling where CODIS lists the marker, KIT when CODIS lists the chemistry), alleles in SWGDAM order.
 */
export function profilesToCmf(profiles: readonly ExportableProfile[], opts: CmfExportOptions): string {
  const when = cmfDateTime(opts.submitDateTime);
  const user = headerValue(opts.submitByUserId, USER_LENGTH, 'NO-USER');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<CODISImportFile xmlns="${NAMESPACE}">`,
    element(1, 'HEADERVERSION', '3.2'),
    element(1, 'MESSAGETYPE', 'Import'),
    element(1, 'DESTINATIONORI', headerValue(opts.destinationOri || opts.sourceLab, LAB_LENGTH, 'NO-ORI')),
    element(1, 'SOURCELAB', headerValue(opts.sourceLab, LAB_LENGTH, 'NO-LAB')),
    element(1, 'SUBMITBYUSERID', user),
    element(1, 'SUBMITDATETIME', when),
    ...profiles.flatMap((p) => specimen(p, user, when)),
    '</CODISImportFile>',
  ];
  return `${lines.join('\n')}\n`;
}

function specimen(profile: ExportableProfile, user: string, when: string): string[] {
  const caseId = profile.caseNumber ? ` CASEID="${escapeXml(profile.caseNumber)}"` : '';
  const kit = cmfKit(profile.chemistryName);
  const kitAttribute = kit ? ` KIT="${escapeXml(kit)}"` : '';
  const loci = profile.markerValues
    .filter((m) => m.alleles.length > 0)
    .flatMap((m) => [
      `    <LOCUS${kitAttribute}>`,
      element(3, 'LOCUSNAME', cmfLocusName(m.marker)),
      element(3, 'READINGBY', user),
      element(3, 'READINGDATETIME', when),
      ...[...m.alleles].sort(compareAlleles).map((a) => `      <ALLELE>${element(0, 'ALLELEVALUE', a)}</ALLELE>`),
      '    </LOCUS>',
    ]);
  return [
    `  <SPECIMEN${caseId}>`,
    element(2, 'SPECIMENID', profile.profileId),
    element(2, 'SPECIMENCATEGORY', profile.sampleType),
    ...loci,
    '  </SPECIMEN>',
  ];
}

function element(depth: number, name: string, text: string): string {
  return `${'  '.repeat(depth)}<${name}>${escapeXml(text)}</${name}>`;
}

/** Escapes text for XML content and attributes, dropping the control characters XML 1.0 cannot hold. */
function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

function headerValue(value: string, length: number, placeholder: string): string {
  const text = value.trim();
  return text === '' ? placeholder : text.slice(0, length);
}

/** xs:dateTime as CODIS writes it (CCYY-MM-DDThh:mm:ss), in UTC. */
function cmfDateTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}
