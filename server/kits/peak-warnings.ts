import type { KitSizing } from './kit-sizing';

/** One marker's peaks as a replicate gives them (size null: the file gave none). */
export interface MarkerPeaks {
  markerId: string;
  peaks: readonly { allele: string; height: number | null; size: number | null }[];
}

/**
 * Why the kit cannot size these alleles (the file gave no size): it has no allele table for the marker, or an
 * allele is no repeat number it can size. Null when every allele has a size.
 */
export function unsizedNote(sizing: KitSizing, kitName: string, marker: { id: string; name: string }, unsized: readonly string[]): string | null {
  if (unsized.length === 0) return null;
  return sizing.hasMarker(marker.id) ? `No size for ${unsized.join(', ')}: not a repeat number the kit ${kitName} can size` : `No size for ${unsized.join(', ')}: the kit ${kitName} has no allele table for ${marker.name}`;
}

/**
 * What an import's preview says of a replicate's peaks against the chosen kit (issue 31, "bad input gets a clear
 * message per row and loses nothing"): each height under the kit's analytical threshold (kept, flagged), and the
 * alleles without a size the kit cannot supply. `where` names the marker's place: "vWA of S1" or "vWA of S1, run A02".
 */
export function peakWarnings(sizing: KitSizing, kitName: string, marker: { id: string; name: string }, peaks: MarkerPeaks['peaks'], where: string): string[] {
  const warnings: string[] = [];
  const threshold = sizing.thresholdOf(marker.id);
  for (const p of peaks) {
    if (threshold !== null && p.height !== null && p.height < threshold) {
      warnings.push(`${where}: the height ${p.height} of allele ${p.allele} is under the analytical threshold of ${kitName} (${threshold} RFU); kept and flagged`);
    }
  }
  const note = unsizedNote(sizing, kitName, marker, peaks.filter((p) => p.size === null && sizing.sizeOf(marker.id, p.allele) === null).map((p) => p.allele));
  if (note) warnings.push(`${where}: ${note.charAt(0).toLowerCase()}${note.slice(1)}`);
  return warnings;
}
