import { CODIS_CORE_LOCI } from '../../../../core/network/codis-core-loci';

/** The chromosome group a seed marker belongs to; Amelogenin (X/Y) is typed with the autosomal kits. */
export type SeedMarkerKind = 'Autosomal' | 'YStr';

/** A marker Locus creates on first start: canonical name, the other spellings it is known by, multi-copy flag. */
export interface SeedMarker {
  name: string;
  kind: SeedMarkerKind;
  aliases: readonly string[];
  multiCopy?: true;
}

/** The expanded CODIS core loci (core/network/codis-core-loci.ts, where the upload rules read them too). */
export const CODIS_CORE_MARKERS = CODIS_CORE_LOCI;

/** The European Standard Set (Council Resolution 2009/C 296/01): 12 loci, all also CODIS core loci. */
export const ESS_MARKERS = [
  'D3S1358', 'vWA', 'D8S1179', 'D21S11', 'D18S51', 'TH01', 'FGA', 'D1S1656', 'D2S441', 'D10S1248', 'D12S391',
  'D22S1045',
] as const;

// Aliases are the spellings seen in the example files and listed in shared/data/formats/FORMATS.md §0 and §3,
// plus those the kit definitions use (OSIRIS LadderInfo, strvalidator kit.txt, CODIS CMF-2017 locus list).
// Case-only variants (VWA) are listed for the reader; lookup ignores case anyway (marker-names.ts).
// A split copy column (DYS385a, DYS385b) resolves to its one multi-copy marker: both copies are values of it.

/** CODIS core, ESS, Penta D/E, SE33, Amelogenin and every Y marker of the seeded kits. */
export const KIT_MARKERS: readonly SeedMarker[] = [
  { name: 'CSF1PO', kind: 'Autosomal', aliases: [] },
  { name: 'D1S1656', kind: 'Autosomal', aliases: [] },
  { name: 'D2S441', kind: 'Autosomal', aliases: [] },
  { name: 'D2S1338', kind: 'Autosomal', aliases: [] },
  { name: 'D3S1358', kind: 'Autosomal', aliases: [] },
  { name: 'D5S818', kind: 'Autosomal', aliases: [] },
  { name: 'D7S820', kind: 'Autosomal', aliases: [] },
  { name: 'D8S1179', kind: 'Autosomal', aliases: [] },
  { name: 'D10S1248', kind: 'Autosomal', aliases: [] },
  { name: 'D12S391', kind: 'Autosomal', aliases: [] },
  { name: 'D13S317', kind: 'Autosomal', aliases: [] },
  { name: 'D16S539', kind: 'Autosomal', aliases: [] },
  { name: 'D18S51', kind: 'Autosomal', aliases: [] },
  { name: 'D19S433', kind: 'Autosomal', aliases: [] },
  { name: 'D21S11', kind: 'Autosomal', aliases: [] },
  { name: 'D22S1045', kind: 'Autosomal', aliases: [] },
  { name: 'FGA', kind: 'Autosomal', aliases: [] },
  // THO1 (letter O) is a typo CODIS itself accepts; TH 01 comes from a re-typed table.
  { name: 'TH01', kind: 'Autosomal', aliases: ['TH 01', 'THO1'] },
  // TP0X (digit zero) is likewise in the CODIS locus list.
  { name: 'TPOX', kind: 'Autosomal', aliases: ['TP0X'] },
  { name: 'vWA', kind: 'Autosomal', aliases: ['VWA'] },
  { name: 'Penta D', kind: 'Autosomal', aliases: ['Penta_D', 'PentaD', 'PENTAD', 'PENTA_D'] },
  { name: 'Penta E', kind: 'Autosomal', aliases: ['Penta_E', 'PentaE', 'PENTAE', 'PENTA_E'] },
  { name: 'SE33', kind: 'Autosomal', aliases: [] },
  // X/Y sex marker; the kinds are chromosome groups and Amelogenin is typed with the autosomal kits.
  { name: 'Amelogenin', kind: 'Autosomal', aliases: ['AMEL', 'AM'] },

  { name: 'DYS19', kind: 'YStr', aliases: [] },
  { name: 'DYS385', kind: 'YStr', aliases: ['DYS385 a/b', 'DYS385a/b', 'DYS385ab', 'DYS385a', 'DYS385b'], multiCopy: true },
  // DYS389II includes DYS389I in its length; the two are distinct loci and must never share a key.
  { name: 'DYS389I', kind: 'YStr', aliases: ['DYS389 I'] },
  { name: 'DYS389II', kind: 'YStr', aliases: ['DYS389 II'] },
  { name: 'DYS390', kind: 'YStr', aliases: [] },
  { name: 'DYS391', kind: 'YStr', aliases: [] },
  { name: 'DYS392', kind: 'YStr', aliases: [] },
  { name: 'DYS393', kind: 'YStr', aliases: [] },
  { name: 'DYS437', kind: 'YStr', aliases: [] },
  { name: 'DYS438', kind: 'YStr', aliases: [] },
  { name: 'DYS439', kind: 'YStr', aliases: [] },
  { name: 'DYS448', kind: 'YStr', aliases: [] },
  { name: 'DYS449', kind: 'YStr', aliases: [] },
  { name: 'DYS456', kind: 'YStr', aliases: [] },
  { name: 'DYS458', kind: 'YStr', aliases: [] },
  { name: 'DYS460', kind: 'YStr', aliases: [] },
  { name: 'DYS481', kind: 'YStr', aliases: [] },
  { name: 'DYS518', kind: 'YStr', aliases: [] },
  // Not on the seeded kits; GENETICS.md names it among the multi-copy markers Locus must handle.
  { name: 'DYS527', kind: 'YStr', aliases: ['DYS527 a/b', 'DYS527a/b', 'DYS527ab', 'DYS527a', 'DYS527b'], multiCopy: true },
  { name: 'DYS533', kind: 'YStr', aliases: [] },
  { name: 'DYS549', kind: 'YStr', aliases: [] },
  { name: 'DYS570', kind: 'YStr', aliases: [] },
  { name: 'DYS576', kind: 'YStr', aliases: [] },
  { name: 'DYS627', kind: 'YStr', aliases: [] },
  { name: 'DYS635', kind: 'YStr', aliases: [] },
  { name: 'DYS643', kind: 'YStr', aliases: [] },
  {
    name: 'DYF387S1',
    kind: 'YStr',
    aliases: ['DYF387S1 a/b', 'DYF387S1a/b', 'DYF387S1ab', 'DYF387S1a', 'DYF387S1b'],
    multiCopy: true,
  },
  { name: 'YGATAH4', kind: 'YStr', aliases: ['Y-GATA-H4', 'Y GATA H4'] },
  // A Y-chromosome insertion/deletion, not an STR; grouped with the Y markers (OSIRIS marks it YLinked).
  { name: 'Yindel', kind: 'YStr', aliases: ['Y indel', 'Y-indel'] },
];

/**
 * Further autosomal STRs that published frequency tables carry beside the kit loci: kinship and
 * supplementary panels (NIST 1036 and its 26plex/kinship loci, NorSTR, pop.STR) and legacy loci
 * (F13A01, F13B, FESFPS, LPL, Penta B/C). Seeded so those real tables upload without 'Marker … is invalid'.
 */
export const SUPPLEMENTARY_MARKERS: readonly SeedMarker[] = [
  { name: 'F13A01', kind: 'Autosomal', aliases: ['F13A1'] },
  { name: 'F13B', kind: 'Autosomal', aliases: [] },
  { name: 'FESFPS', kind: 'Autosomal', aliases: ['FES/FPS', 'FES_FPS', 'FES'] },
  { name: 'LPL', kind: 'Autosomal', aliases: [] },
  { name: 'Penta B', kind: 'Autosomal', aliases: ['Penta_B', 'PentaB', 'PENTAB', 'PENTA_B'] },
  { name: 'Penta C', kind: 'Autosomal', aliases: ['Penta_C', 'PentaC', 'PENTAC', 'PENTA_C'] },
  { name: 'APOAI1', kind: 'Autosomal', aliases: [] },
  { name: 'D10S1435', kind: 'Autosomal', aliases: [] },
  { name: 'D10S2325', kind: 'Autosomal', aliases: [] },
  { name: 'D11S1304', kind: 'Autosomal', aliases: [] },
  { name: 'D11S2368', kind: 'Autosomal', aliases: [] },
  { name: 'D11S4463', kind: 'Autosomal', aliases: [] },
  { name: 'D11S554', kind: 'Autosomal', aliases: [] },
  { name: 'D12ATA63', kind: 'Autosomal', aliases: [] },
  { name: 'D12S297', kind: 'Autosomal', aliases: [] },
  { name: 'D13S325', kind: 'Autosomal', aliases: [] },
  { name: 'D14S1426', kind: 'Autosomal', aliases: [] },
  { name: 'D14S1434', kind: 'Autosomal', aliases: [] },
  { name: 'D15S659', kind: 'Autosomal', aliases: [] },
  { name: 'D15S822', kind: 'Autosomal', aliases: [] },
  { name: 'D17S1301', kind: 'Autosomal', aliases: [] },
  { name: 'D17S906', kind: 'Autosomal', aliases: [] },
  { name: 'D17S974', kind: 'Autosomal', aliases: [] },
  { name: 'D18S1364', kind: 'Autosomal', aliases: [] },
  { name: 'D19S253', kind: 'Autosomal', aliases: [] },
  { name: 'D1S1627', kind: 'Autosomal', aliases: [] },
  { name: 'D1S1677', kind: 'Autosomal', aliases: [] },
  { name: 'D1S1679', kind: 'Autosomal', aliases: [] },
  { name: 'D20S482', kind: 'Autosomal', aliases: [] },
  { name: 'D21S102', kind: 'Autosomal', aliases: [] },
  { name: 'D21S2055', kind: 'Autosomal', aliases: [] },
  { name: 'D22GATA198B05', kind: 'Autosomal', aliases: [] },
  { name: 'D2S1360', kind: 'Autosomal', aliases: [] },
  { name: 'D2S1776', kind: 'Autosomal', aliases: [] },
  { name: 'D2S427', kind: 'Autosomal', aliases: [] },
  { name: 'D3S1744', kind: 'Autosomal', aliases: [] },
  { name: 'D3S2406', kind: 'Autosomal', aliases: [] },
  { name: 'D3S3045', kind: 'Autosomal', aliases: [] },
  { name: 'D3S3053', kind: 'Autosomal', aliases: [] },
  { name: 'D3S4529', kind: 'Autosomal', aliases: [] },
  { name: 'D3S4545', kind: 'Autosomal', aliases: [] },
  { name: 'D4S2364', kind: 'Autosomal', aliases: [] },
  { name: 'D4S2366', kind: 'Autosomal', aliases: [] },
  { name: 'D4S2408', kind: 'Autosomal', aliases: [] },
  { name: 'D5S1457', kind: 'Autosomal', aliases: [] },
  { name: 'D5S2500', kind: 'Autosomal', aliases: [] },
  { name: 'D5S2800', kind: 'Autosomal', aliases: [] },
  { name: 'D6S1017', kind: 'Autosomal', aliases: [] },
  { name: 'D6S1027', kind: 'Autosomal', aliases: [] },
  { name: 'D6S1043', kind: 'Autosomal', aliases: [] },
  { name: 'D6S474', kind: 'Autosomal', aliases: [] },
  { name: 'D6S477', kind: 'Autosomal', aliases: [] },
  { name: 'D7S1517', kind: 'Autosomal', aliases: [] },
  { name: 'D7S2201', kind: 'Autosomal', aliases: [] },
  { name: 'D7S3048', kind: 'Autosomal', aliases: [] },
  { name: 'D8S1132', kind: 'Autosomal', aliases: [] },
  { name: 'D9S1118', kind: 'Autosomal', aliases: [] },
  { name: 'D9S1120', kind: 'Autosomal', aliases: [] },
  { name: 'D9S1122', kind: 'Autosomal', aliases: [] },
  { name: 'D9S2157', kind: 'Autosomal', aliases: [] },
];

/** Markers Locus seeds: the kit markers, then the supplementary autosomal STRs. */
export const SEED_MARKERS: readonly SeedMarker[] = [...KIT_MARKERS, ...SUPPLEMENTARY_MARKERS];
