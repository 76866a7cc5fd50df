/**
 * LabRetriever's short locus names, as its per-locus count tables are named (D3_B.count.csv), to the marker
 * names Locus keeps. Source: LabRetriever's data/LocusAbbreviationMappings.csv (SCIEG/LabRetriever @84bbe14).
 * Names it writes in full (FGA, vWA, Penta D) need no entry. Only what that table lists: a chromosome number
 * alone is no marker name elsewhere (D2 could be D2S1338 or D2S441), so no other abbreviation is guessed.
 */
export const LABRETRIEVER_LOCUS_ABBREVIATIONS: Readonly<Record<string, string>> = {
  CSF: 'CSF1PO',
  D2: 'D2S1338',
  D3: 'D3S1358',
  D5: 'D5S818',
  D7: 'D7S820',
  D8: 'D8S1179',
  D13: 'D13S317',
  D16: 'D16S539',
  D18: 'D18S51',
  D19: 'D19S433',
  D21: 'D21S11',
  THO: 'TH01',
  TPO: 'TPOX',
};

/** The marker name a LabRetriever short locus name stands for (LocusAbbreviationMappings.csv), or the name itself. */
export function expandLabRetrieverLocus(name: string): string {
  return LABRETRIEVER_LOCUS_ABBREVIATIONS[name.trim().toUpperCase()] ?? name;
}
