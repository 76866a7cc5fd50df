import type { SampleType } from './schemas/profiles';

/** CMF SPECIMENCATEGORY values (SpecimenCategoryType of CMF-2017.xsd, CmfList.xml): CODIS refuses any other. */
export const CMF_SPECIMEN_CATEGORIES = [
  'Alleged Father', 'Alleged Mother', 'Arrestee', 'Biological Child', 'Biological Father', 'Biological Mother',
  'Biological Sibling', 'CO Duplicate', 'Convicted Offender', 'Deceased', 'Deduced Missing Person', 'Deduced Suspect',
  'Detainee', 'Elimination, Known', 'Forensic Mixture', 'Forensic Partial', 'Forensic Targeted', 'Forensic, Unknown',
  'Juvenile', 'Legal', 'Maternal Relative', 'Missing Person', 'Multi-allelic Offender', 'Other', 'Paternal Relative',
  'Population', 'Proficiency', 'Spouse', 'Staff', 'Suspect, Known', 'Unidentified Person', 'Unreviewed Offender',
  'Victim, Known', 'Volunteer',
] as const;
export type CmfSpecimenCategory = (typeof CMF_SPECIMEN_CATEGORIES)[number];

/**
 * The SPECIMENCATEGORY each Locus sample type is written as. Most are CODIS's own words; the two that are not in
 * the schema's list: `Unidentified Human (Remains)` is the NDIS index whose specimens CODIS files as
 * `Unidentified Person`, and `Reference` has no CODIS category (a reference is a suspect's, a victim's, an
 * elimination sample, a relative's… and only the lab knows which), so a CMF export refuses it rather than guess.
 */
export const CMF_SPECIMEN_CATEGORY: Readonly<Record<SampleType, CmfSpecimenCategory | null>> = {
  'Forensic, Unknown': 'Forensic, Unknown',
  'Forensic Mixture': 'Forensic Mixture',
  'Suspect, Known': 'Suspect, Known',
  'Victim, Known': 'Victim, Known',
  'Elimination, Known': 'Elimination, Known',
  'Convicted Offender': 'Convicted Offender',
  Arrestee: 'Arrestee',
  'Missing Person': 'Missing Person',
  'Unidentified Human (Remains)': 'Unidentified Person',
  'Biological Mother': 'Biological Mother',
  'Biological Father': 'Biological Father',
  'Biological Child': 'Biological Child',
  'Alleged Father': 'Alleged Father',
  'Alleged Mother': 'Alleged Mother',
  Spouse: 'Spouse',
  'Biological Sibling': 'Biological Sibling',
  Reference: null,
};

/**
 * The SPECIMENCATEGORY a sample type is written as: the table above for a Locus sample type, the value itself when it
 * already is a CODIS category, null when CODIS has none.
 */
export function cmfSpecimenCategory(sampleType: string): CmfSpecimenCategory | null {
  if (Object.hasOwn(CMF_SPECIMEN_CATEGORY, sampleType)) return CMF_SPECIMEN_CATEGORY[sampleType as SampleType];
  return CMF_SPECIMEN_CATEGORIES.find((c) => c === sampleType) ?? null;
}
