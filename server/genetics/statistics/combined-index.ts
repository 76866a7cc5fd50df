import type { SkippedMarker } from './aligned-markers';

/** One marker's factor of a combined index (an LR or PI), with its log10. */
export interface LocusIndex {
  marker: string;
  value: number;
  log10: number;
}

/** A product of per-marker factors, kept in log space so twenty loci of 1e3 neither overflow nor lose digits. */
export interface CombinedIndex {
  /** Sum of the per-marker log10 values (−Infinity when a factor is 0). */
  log10: number;
  /** 10^log10: Infinity only beyond ~1e308. */
  product: number;
  loci: LocusIndex[];
  skipped: SkippedMarker[];
}

/** Multiplies per-marker LRs across independent loci by summing logs (NRC II 1996 rec. 4.1, product rule across loci). */
export function combineIndices(values: readonly { marker: string; value: number }[], skipped: readonly SkippedMarker[]): CombinedIndex {
  const loci = values.map(({ marker, value }) => ({ marker, value, log10: Math.log10(value) }));
  const log10 = loci.reduce((sum, l) => sum + l.log10, 0);
  return { log10, product: 10 ** log10, loci, skipped: [...skipped] };
}
