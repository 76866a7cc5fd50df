/** A kit's allele bins as kit.txt gives them (scripts/derive-kit-bins.ts). */
export interface KitBins {
  /** The chemistry's name in Locus. */
  name: string;
  /** The kit.txt panel it comes from. */
  panel: string;
  kind: 'Autosomal' | 'YStr';
  /** In kit.txt order (dye, then size); `bins` is `allele:size[v],…` (v: a virtual bin, not in the physical ladder). */
  markers: { marker: string; dye: string; repeat: number; offset: number; bins: string }[];
}
