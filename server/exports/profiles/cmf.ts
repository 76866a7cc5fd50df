import { BadRequest } from '../../errors';
import { compareAlleles } from '../../imports/frequencies/alleles';
import { CMF_LIMITS, cmfKit, cmfLocusName, cmfSpecimenCategory } from './cmf-values';
import type { ExportableProfile } from './types';
import { CMF_SUBMITTER_LENGTH } from '../../../core/schemas/cmf-download';

export { defaultSubmitter } from '../../../core/schemas/cmf-download';

/** Who submits the file and when (CMF 3.2 header). */
export interface CmfExportOptions {
  /** ORI of the CODIS laboratory that will import the file; the source laboratory when not given. */
  destinationOri?: string;
  sourceLab: string;
  submitByUserId: string;
  submitDateTime: Date;
}

const NAMESPACE = 'urn:CODISImportFile-schema';

// Header fields have lengths fixed by the schema (CODISLabType 1–10, CODISUserType 1–20). A laboratory name is cut
// to its first 10 characters; a missing laboratory or a submitter over 20 characters refuses the file (cmfHeaderProblems):
// a placeholder laboratory or a cut user id is a submission that names nobody. Identifiers (SPECIMENID, CASEID) are
// never cut: CODIS refusing a long one is better than a silently different one.
const LAB_LENGTH = 10;
const USER_LENGTH = CMF_SUBMITTER_LENGTH;

/** Problems the error message lists; the rest are in its details (the SPA shows the message). */
const PROBLEMS_IN_MESSAGE = 5;

/**
 * A CMF export that CODIS would refuse. The whole file is refused, never written without the profiles or loci at
 * fault: the file is what a laboratory submits to CODIS, and a profile (or a locus of a mixture) silently left out
 * of it is a submission nobody knows is incomplete. The caller gets every problem at once (`details.problems`).
 * 400 rather than 409: the SPA's API client shows the server's message for a 400 (spec 8.1) and only a generic
 * "request failed" for a 409.
 */
export class CmfExportRefused extends BadRequest {
  constructor(readonly problems: readonly string[]) {
    const shown = problems.slice(0, PROBLEMS_IN_MESSAGE);
    const more = problems.length - shown.length;
    super(`No CMF file was written: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}.`, { problems });
  }
}

/**
 * Writes profiles as a CODIS CMF 3.2 import file (CODIS Interface Specification, Appendix B): one SPECIMEN per
 * profile with its sample type's CODIS category as SPECIMENCATEGORY and the case number as CASEID, one LOCUS per
 * typed marker (CODIS spelling where CODIS lists the marker, KIT when CODIS lists the chemistry), alleles in SWGDAM
 * order. Throws CmfExportRefused, naming each profile and what is wrong, when a profile cannot be written within the
 * schema (cmfProblems).
 */
export function profilesToCmf(profiles: readonly ExportableProfile[], opts: CmfExportOptions): string {
  const problems = [...cmfHeaderProblems(opts), ...cmfProblems(profiles)];
  if (problems.length > 0) throw new CmfExportRefused(problems);
  const when = cmfDateTime(opts.submitDateTime);
  const user = opts.submitByUserId.trim();
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<CODISImportFile xmlns="${NAMESPACE}">`,
    element(1, 'HEADERVERSION', '3.2'),
    element(1, 'MESSAGETYPE', 'Import'),
    element(1, 'DESTINATIONORI', labValue(opts.destinationOri || opts.sourceLab)),
    element(1, 'SOURCELAB', labValue(opts.sourceLab)),
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
  const loci = typedMarkers(profile).flatMap((m) => [
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
    element(2, 'SPECIMENCATEGORY', cmfSpecimenCategory(profile.sampleType) ?? ''),
    ...loci,
    '  </SPECIMEN>',
  ];
}

const typedMarkers = (profile: ExportableProfile) => profile.markerValues.filter((m) => m.alleles.length > 0);

/** Length as the schema counts it (characters, not UTF-16 units). */
const length = (text: string) => [...text].length;

/**
 * What keeps profiles from a CMF file CODIS accepts (CMF-2017.xsd): a sample type with no CODIS specimen category,
 * a SPECIMENID or CASEID over the schema's length, a locus with more than 8 alleles (a mixture may hold up to 40) or
 * an allele over 10 characters, no typed locus or more than 64, two profiles with one SPECIMENID, two markers
 * written as one LOCUSNAME. Each message names the profile. A marker CODIS does not list is still written under its
 * own name (cmfLocusName).
 */
export function cmfProblems(profiles: readonly ExportableProfile[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const profile of profiles) {
    const name = `Profile ${profile.profileId}`;
    const idLength = length(profile.profileId);
    if (idLength > CMF_LIMITS.specimenIdLength) {
      problems.push(`${name}: the profile id has ${idLength} characters; CMF 3.2 allows at most ${CMF_LIMITS.specimenIdLength} in SPECIMENID`);
    }
    if (seen.has(profile.profileId)) problems.push(`${name} is exported twice; CMF 3.2 SPECIMENIDs must be unique`);
    seen.add(profile.profileId);
    if (cmfSpecimenCategory(profile.sampleType) === null) {
      problems.push(`${name}: the sample type "${profile.sampleType}" has no CODIS specimen category; give the profile the sample type it stands for (for example "Suspect, Known" or "Victim, Known")`);
    }
    const caseLength = length(profile.caseNumber ?? '');
    if (caseLength > CMF_LIMITS.caseIdLength) {
      problems.push(`${name}: the case number "${profile.caseNumber}" has ${caseLength} characters; CMF 3.2 allows at most ${CMF_LIMITS.caseIdLength} in CASEID`);
    }
    problems.push(...locusProblems(name, typedMarkers(profile)));
  }
  return problems;
}

function locusProblems(name: string, typed: readonly { marker: string; alleles: readonly string[] }[]): string[] {
  const problems: string[] = [];
  if (typed.length === 0) problems.push(`${name} has no typed marker; a CMF 3.2 SPECIMEN needs at least one LOCUS`);
  if (typed.length > CMF_LIMITS.lociPerSpecimen) problems.push(`${name} has ${typed.length} typed markers; CMF 3.2 allows at most ${CMF_LIMITS.lociPerSpecimen} per specimen`);
  const written = new Map<string, string>();
  for (const { marker, alleles } of typed) {
    const locus = cmfLocusName(marker);
    const other = written.get(locus);
    if (other !== undefined) problems.push(`${name}: ${other} and ${marker} are both CODIS locus ${locus}; CMF 3.2 allows one LOCUS of each name`);
    written.set(locus, marker);
    if (alleles.length > CMF_LIMITS.allelesPerLocus) {
      problems.push(`${name}: ${marker} has ${alleles.length} alleles; CMF 3.2 allows at most ${CMF_LIMITS.allelesPerLocus} per locus`);
    }
    for (const allele of alleles.filter((a) => length(a) > CMF_LIMITS.alleleValueLength)) {
      problems.push(`${name}: ${marker} allele "${allele}" has ${length(allele)} characters; CMF 3.2 allows at most ${CMF_LIMITS.alleleValueLength}`);
    }
  }
  return problems;
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

const labValue = (value: string): string => value.trim().slice(0, LAB_LENGTH);


/** What keeps the header from naming who submits: no laboratory (SOURCELAB), or a submitter CODIS would have cut. */
export function cmfHeaderProblems(opts: Pick<CmfExportOptions, 'sourceLab' | 'submitByUserId'>): string[] {
  const problems: string[] = [];
  if (opts.sourceLab.trim() === '') problems.push('the profile has no laboratory, which CMF 3.2 names as SOURCELAB; give the profile its laboratory');
  const user = opts.submitByUserId.trim();
  if (user === '') problems.push('no submitter is named for SUBMITBYUSERID');
  else if (length(user) > USER_LENGTH) {
    problems.push(`the submitter "${user}" has ${length(user)} characters; CMF 3.2 SUBMITBYUSERID takes at most ${USER_LENGTH}: give a shorter submitter id`);
  }
  return problems;
}

/** xs:dateTime as CODIS writes it (CCYY-MM-DDThh:mm:ss), in UTC. */
function cmfDateTime(date: Date): string {
  return date.toISOString().slice(0, 19);
}
