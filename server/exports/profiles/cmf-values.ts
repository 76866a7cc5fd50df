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

// The specimen categories live in core: the SPA's CMF download offers them too.
export { CMF_SPECIMEN_CATEGORIES, CMF_SPECIMEN_CATEGORY, cmfSpecimenCategory, type CmfSpecimenCategory } from '../../../core/cmf-categories';

export { CMF_LIMITS } from '../../../core/cmf-limits';

/** Kit names compared without case, separators or Applied Biosystems' old `AmpFlSTR` prefix (Yfiler Plus = AmpFlSTR Yfiler Plus). */
const kitKey = (name: string) => markerNameKey(name).replace(/^ampflstr/, '');
const KITS = new Map(CMF_KITS.map((k) => [kitKey(k), k]));
const LOCI = new Map(CMF_LOCUS_NAMES.map((l) => [markerNameKey(l), l]));

/** The CMF KIT value a chemistry stands for (spelling and case as CODIS lists it), or null when CODIS lists none. */
export function cmfKit(chemistryName: string | undefined): string | null {
  return chemistryName === undefined ? null : (KITS.get(kitKey(chemistryName)) ?? null);
}


/** Whether CODIS lists a LOCUSNAME (exact spelling, as cmfLocusName gives it). */
export function isCmfLocusName(name: string): boolean {
  return LOCI.get(markerNameKey(name)) === name;
}

/** The LOCUSNAME CODIS spells a marker with (DYS389I → `DYS389 I`); a marker CODIS does not list keeps its name. */
export function cmfLocusName(marker: string): string {
  return LOCI.get(markerNameKey(marker)) ?? marker;
}
