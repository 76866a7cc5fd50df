import type { SeedMarkerKind } from './markers';

/** A chemistry (kit) Locus creates on first start; `markers` are canonical names in the kit's dye/size order. */
export interface SeedChemistry {
  name: string;
  kind: SeedMarkerKind;
  markers: readonly string[];
}

// Membership and order come from the OSIRIS LadderInfo files (ncbi/osiris @2ab5f25) kept in
// shared/data/formats/kits/, one `Locus` per entry in document order (dye channel, then size), names mapped
// to SEED_MARKERS. strvalidator's kit.txt panels for the same kits list the same loci in the same order.
// Autosomal kits keep the Y markers they amplify (GlobalFiler: Yindel, DYS391; Fusion 6C: DYS391, DYS576,
// DYS570). A multi-copy marker (DYS385, DYF387S1) is one entry, so PowerPlex Y23 has 22 entries for its
// 23 published loci and Yfiler Plus 25 for 27.

/** The five kits Locus seeds, from OSIRIS GlobalFiler, PPFusion6C, IdentifilerPlus, PPlexY23, YfilerPlus LadderInfo. */
export const SEED_CHEMISTRIES: readonly SeedChemistry[] = [
  {
    // GlobalFiler_LadderInfo.xml; its TPOX window (209–257 bp) is Identifiler Plus's; kit.txt gives 332.5–384.5 bp.
    name: 'GlobalFiler',
    kind: 'Autosomal',
    markers: [
      'D3S1358', 'vWA', 'D16S539', 'CSF1PO', 'TPOX',
      'Yindel', 'Amelogenin', 'D8S1179', 'D21S11', 'D18S51', 'DYS391',
      'D2S441', 'D19S433', 'TH01', 'FGA',
      'D22S1045', 'D5S818', 'D13S317', 'D7S820', 'SE33',
      'D10S1248', 'D1S1656', 'D12S391', 'D2S1338',
    ],
  },
  {
    // PPFusion6C_LadderInfo.xml
    name: 'PowerPlex Fusion 6C',
    kind: 'Autosomal',
    markers: [
      'Amelogenin', 'D3S1358', 'D1S1656', 'D2S441', 'D10S1248', 'D13S317', 'Penta E',
      'D16S539', 'D18S51', 'D2S1338', 'CSF1PO', 'Penta D',
      'TH01', 'vWA', 'D21S11', 'D7S820', 'D5S818', 'TPOX',
      'D8S1179', 'D12S391', 'D19S433', 'SE33', 'D22S1045',
      'DYS391', 'FGA', 'DYS576', 'DYS570',
    ],
  },
  {
    // IdentifilerPlus_LadderInfo.xml
    name: 'Identifiler Plus',
    kind: 'Autosomal',
    markers: [
      'D8S1179', 'D21S11', 'D7S820', 'CSF1PO',
      'D3S1358', 'TH01', 'D13S317', 'D16S539', 'D2S1338',
      'D19S433', 'vWA', 'TPOX', 'D18S51',
      'Amelogenin', 'D5S818', 'FGA',
    ],
  },
  {
    // PPlexY23_LadderInfo.xml
    name: 'PowerPlex Y23',
    kind: 'YStr',
    markers: [
      'DYS576', 'DYS389I', 'DYS448', 'DYS389II', 'DYS19',
      'DYS391', 'DYS481', 'DYS549', 'DYS533', 'DYS438', 'DYS437',
      'DYS570', 'DYS635', 'DYS390', 'DYS439', 'DYS392', 'DYS643',
      'DYS393', 'DYS458', 'DYS385', 'DYS456', 'YGATAH4',
    ],
  },
  {
    // YfilerPlus_LadderInfo.xml
    name: 'Yfiler Plus',
    kind: 'YStr',
    markers: [
      'DYS576', 'DYS389I', 'DYS635', 'DYS389II', 'DYS627',
      'DYS460', 'DYS458', 'DYS19', 'YGATAH4', 'DYS448', 'DYS391',
      'DYS456', 'DYS390', 'DYS438', 'DYS392', 'DYS518',
      'DYS570', 'DYS437', 'DYS385', 'DYS449',
      'DYS393', 'DYS439', 'DYS481', 'DYF387S1', 'DYS533',
    ],
  },
];
