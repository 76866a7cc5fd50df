/** A profile as the exports need it; ProfileWithMarkers (core/schemas/profiles.ts) fits. */
export interface ExportableProfile {
  profileId: string;
  sampleType: string;
  kind: 'Autosomal' | 'YStr';
  chemistryName?: string;
  caseNumber?: string;
  markerValues: readonly { marker: string; alleles: readonly string[] }[];
  /** Replicates with peak heights (issue 31); a size the kit filled in (sizeSource 'kit') is not the file's and is not written. */
  replicates?: readonly ExportableReplicate[];
}

/** A replicate as the CSV export writes it. */
export interface ExportableReplicate {
  name: string;
  markers: readonly { marker: string; peaks: readonly { allele: string; height: number | null; size: number | null; sizeSource?: string }[] }[];
}
