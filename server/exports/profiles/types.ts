/** A profile as the exports need it; ProfileWithMarkers (core/schemas/profiles.ts) fits. */
export interface ExportableProfile {
  profileId: string;
  sampleType: string;
  kind: 'Autosomal' | 'YStr';
  chemistryName?: string;
  caseNumber?: string;
  markerValues: readonly { marker: string; alleles: readonly string[] }[];
}
