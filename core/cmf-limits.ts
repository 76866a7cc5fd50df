import type { SampleType } from './schemas/profiles';

/** Most values the CODIS CMF 3.2 schema allows (CMF-2017.xsd): per SPECIMEN, per LOCUS, and lengths of the identifiers. */
export const CMF_LIMITS = {
  /** SpecimenIDType maxLength. */
  specimenIdLength: 24,
  /** CaseIDType maxLength. */
  caseIdLength: 32,
  /** LOCUS maxOccurs in SpecimenType. */
  lociPerSpecimen: 64,
  /** ALLELE maxOccurs in a LOCUS. */
  allelesPerLocus: 8,
  /** AlleleValueType maxLength. */
  alleleValueLength: 10,
} as const;

/** Sample types with no CODIS specimen category (server/exports/profiles/cmf-values.ts maps them to null; a test holds the two together). */
export const SAMPLE_TYPES_WITHOUT_CMF_CATEGORY: ReadonlySet<SampleType> = new Set<SampleType>(['Reference']);

/**
 * Why a profile cannot go out as CODIS CMF 3.2 as it stands (CMF-2017.xsd limits; empty when it can): shown on the
 * profile so nobody finds out first at download, where the export may give a category and a short specimen id.
 */
export function cmfExportObstacles(profile: { profileId: string; sampleType: string; markerValues: readonly { marker: string; alleles: readonly string[] }[] }): string[] {
  const why: string[] = [];
  if (SAMPLE_TYPES_WITHOUT_CMF_CATEGORY.has(profile.sampleType as SampleType)) why.push(`the sample type ${profile.sampleType} has no CODIS specimen category`);
  const nameLength = [...profile.profileId].length;
  if (nameLength > CMF_LIMITS.specimenIdLength) why.push(`the sample name has ${nameLength} characters, at most ${CMF_LIMITS.specimenIdLength}`);
  const typed = profile.markerValues.filter((m) => m.alleles.length > 0);
  if (typed.length > CMF_LIMITS.lociPerSpecimen) why.push(`${typed.length} markers, at most ${CMF_LIMITS.lociPerSpecimen}`);
  for (const m of typed) if (m.alleles.length > CMF_LIMITS.allelesPerLocus) why.push(`${m.alleles.length} alleles at ${m.marker}, at most ${CMF_LIMITS.allelesPerLocus}`);
  return why;
}
