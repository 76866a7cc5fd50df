/** The expanded CODIS core loci (FBI, effective 2017; Hares 2015, FSI Genetics 17:33): the loci NDIS's upload rules count. */
export const CODIS_CORE_LOCI = [
  'CSF1PO', 'D1S1656', 'D2S441', 'D2S1338', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D10S1248', 'D12S391',
  'D13S317', 'D16S539', 'D18S51', 'D19S433', 'D21S11', 'D22S1045', 'FGA', 'TH01', 'TPOX', 'vWA',
] as const;
