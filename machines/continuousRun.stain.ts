import type { ContinuousLrBody } from '../core/schemas/continuous';
import type { KitAlleles } from '../core/schemas/kit-bins';
import type { ProfileWithMarkers } from '../core/schemas/profiles';

// The stain a continuous run weighs (issue 31): the profile's replicates with their peak heights, and what its kit
// knows — the analytical thresholds (per kit, per dye) and the fragment sizes degradation needs.

/** What the `loadStain` actor gives: the profile as GET profiles/{id} returns it and its kit's alleles (null: unreadable). */
export interface LoadedStain {
  profile: ProfileWithMarkers;
  kit: KitAlleles | null;
}

/** One replicate of the stain as the form lists it: its name and how many peaks carry a height. */
export interface StainReplicate {
  name: string;
  peaks: number;
  markers: number;
}

/** The stain's replicates with their counts of peaks with heights. */
export function stainReplicates(stain: LoadedStain): StainReplicate[] {
  return stain.profile.replicates.map((r, i) => ({
    name: r.name || `Replicate ${i + 1}`,
    peaks: r.markers.reduce((n, m) => n + m.peaks.filter((p) => p.height !== null).length, 0),
    markers: r.markers.filter((m) => m.peaks.some((p) => p.height !== null)).length,
  }));
}

/** The chosen replicates written out for the model: per marker the peaks with a height (a size when known, the kit's filled in). */
export function replicatesBody(stain: LoadedStain, chosen: readonly boolean[]): ContinuousLrBody['replicates'] {
  return stain.profile.replicates.flatMap((r, i) => {
    if (!chosen[i]) return [];
    const markers = r.markers.flatMap((m) => {
      const peaks = m.peaks.flatMap((p) => (p.height === null ? [] : [{ allele: p.allele, height: p.height, ...(p.size === null ? {} : { size: p.size }) }]));
      return peaks.length > 0 ? [{ marker: m.marker, peaks }] : [];
    });
    return markers.length > 0 ? [{ ...(r.name ? { name: r.name.slice(0, 80) } : {}), markers }] : [];
  });
}

/** The kit's thresholds: the kit's own (the model's default when it has none) and, per marker, its dye's where set. */
export function kitThresholds(kit: KitAlleles | null, fallback: number): { analyticalThreshold: number; markerThresholds: ContinuousLrBody['markerThresholds'] } {
  if (!kit) return { analyticalThreshold: fallback, markerThresholds: [] };
  const markerThresholds = kit.markers.flatMap((m) => {
    const threshold = kit.thresholds.dyes[m.dye];
    return threshold === undefined ? [] : [{ marker: m.marker, threshold }];
  });
  return { analyticalThreshold: kit.thresholds.kit ?? fallback, markerThresholds };
}

/** The fragment sizes degradation reads for the stain's markers: every allele the kit sizes, and the longest (Q's size). */
export function kitFragmentSizes(kit: KitAlleles | null, markers: ReadonlySet<string>): ContinuousLrBody['fragmentSizes'] {
  if (!kit) return [];
  return kit.markers.flatMap((m) => {
    if (!markers.has(m.marker) || m.alleles.length === 0) return [];
    return [{ marker: m.marker, alleles: m.alleles.map((a) => ({ allele: a.allele, size: a.size })), longest: Math.max(...m.alleles.map((a) => a.size)) }];
  });
}
