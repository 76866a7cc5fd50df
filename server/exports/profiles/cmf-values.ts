import type { SampleType } from '../../../core/schemas/profiles';
import { markerNameKey } from '../../db/seed/reference/marker-names';

// The value lists of CMF 3.2 as OSIRIS keeps them current (data/formats/cmf/CmfList.xml, the lists of CMF-2017.xsd).
// CODIS checks KIT and LOCUSNAME against them, case-sensitively.

/** CMF KIT values. */
const CMF_KITS = [
  'AmpFLSTR NGM', 'AmpFLSTR NGM SElect', 'AmpFlSTR Yfiler Plus', 'COfiler', 'GlobalFiler', 'GlobalFiler Express',
  'Identifiler', 'Identifiler Direct', 'Identifiler Plus', 'Investigator 24plex GO! Kit', 'Investigator 24plex QS Kit',
  'MiniFiler', 'Monoplex CSF1PO', 'Monoplex D13S317', 'Monoplex D16S539', 'Monoplex D5S818', 'Monoplex D7S820',
  'Monoplex TH01', 'Monoplex TPOX', 'Monoplex vWA', 'PowerPlex 1.1', 'PowerPlex 1.2', 'PowerPlex 16', 'PowerPlex 16 HS',
  'PowerPlex 2.1', 'PowerPlex ESI 16', 'PowerPlex ESI 17 Pro', 'PowerPlex ESX 16', 'PowerPlex ESX 17', 'PowerPlex Fusion',
  'PowerPlex Fusion 6C', 'Powerplex Y', 'Powerplex Y23', 'Profiler Plus', 'SGM Plus', 'Y-PLEX 5', 'Y-PLEX 6', 'Yfiler',
];

/** CMF LOCUSNAME values (without the typo spellings THO1 and TP0X, which Locus never writes). */
const CMF_LOCUS_NAMES = [
  'Amelogenin', 'CSF1PO', 'D10S1248', 'D12S391', 'D13S317', 'D16S539', 'D18S51', 'D19S433', 'D1S1656', 'D21S11',
  'D22S1045', 'D2S1338', 'D2S441', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'FGA', 'Penta D', 'Penta E', 'SE33', 'TH01',
  'TPOX', 'vWA', 'DYF387S1', 'DYS19', 'DYS385', 'DYS389 I', 'DYS389 II', 'DYS390', 'DYS391', 'DYS392', 'DYS393',
  'DYS437', 'DYS438', 'DYS439', 'DYS448', 'DYS449', 'DYS456', 'DYS458', 'DYS460', 'DYS481', 'DYS518', 'DYS533', 'DYS549',
  'DYS570', 'DYS576', 'DYS627', 'DYS635', 'DYS643', 'YGATAH4', 'Yindel',
];

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

export { CMF_LIMITS } from '../../../core/cmf-limits';

/** Kit names compared without case, separators or Applied Biosystems' old `AmpFlSTR` prefix (Yfiler Plus = AmpFlSTR Yfiler Plus). */
const kitKey = (name: string) => markerNameKey(name).replace(/^ampflstr/, '');
const KITS = new Map(CMF_KITS.map((k) => [kitKey(k), k]));
const LOCI = new Map(CMF_LOCUS_NAMES.map((l) => [markerNameKey(l), l]));

/** The CMF KIT value a chemistry stands for (spelling and case as CODIS lists it), or null when CODIS lists none. */
export function cmfKit(chemistryName: string | undefined): string | null {
  return chemistryName === undefined ? null : (KITS.get(kitKey(chemistryName)) ?? null);
}

/**
 * The SPECIMENCATEGORY a sample type is written as: the table above for a Locus sample type, the value itself when it
 * already is a CODIS category, null when CODIS has none.
 */
export function cmfSpecimenCategory(sampleType: string): CmfSpecimenCategory | null {
  if (Object.hasOwn(CMF_SPECIMEN_CATEGORY, sampleType)) return CMF_SPECIMEN_CATEGORY[sampleType as SampleType];
  return CMF_SPECIMEN_CATEGORIES.find((c) => c === sampleType) ?? null;
}

/** Whether CODIS lists a LOCUSNAME (exact spelling, as cmfLocusName gives it). */
export function isCmfLocusName(name: string): boolean {
  return LOCI.get(markerNameKey(name)) === name;
}

/** The LOCUSNAME CODIS spells a marker with (DYS389I → `DYS389 I`); a marker CODIS does not list keeps its name. */
export function cmfLocusName(marker: string): string {
  return LOCI.get(markerNameKey(marker)) ?? marker;
}
