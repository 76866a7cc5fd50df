/**
 * A replicate's peak heights and sizes packed in one bytea (profile_replicates.peaks): the only reader and writer
 * of that layout. The replicate's alleles are packed apart by genotype-codec.ts (profile_replicates.genotype), in
 * the same order, so a peak is the allele at the same position.
 *
 * Layout: per allele, in the genotype's order, two little-endian 32-bit floats: the height (RFU) and the size (bp);
 * NaN is "not given". With the allele's byte that is 9 bytes per allele (issue 31: at most 16). A float32 holds
 * six significant digits exactly, more than any instrument reports (integer RFU, sizes to 0.01 bp).
 */

/** One allele's measures; null when not given. */
export interface PeakMeasures {
  height: number | null;
  size: number | null;
}

const BYTES_PER_PEAK = 8;

/** Packs the measures of a replicate's alleles (in genotype order). */
export function encodePeaks(peaks: readonly PeakMeasures[]): Uint8Array {
  const bytes = new Uint8Array(peaks.length * BYTES_PER_PEAK);
  const view = new DataView(bytes.buffer);
  peaks.forEach((p, i) => {
    view.setFloat32(i * BYTES_PER_PEAK, p.height ?? Number.NaN, true);
    view.setFloat32(i * BYTES_PER_PEAK + 4, p.size ?? Number.NaN, true);
  });
  return bytes;
}

/** A stored float32 read back as the decimal it was given (six significant digits). */
function readMeasure(view: DataView, at: number): number | null {
  const value = view.getFloat32(at, true);
  return Number.isNaN(value) ? null : Number(value.toPrecision(6));
}

/** Unpacks stored measures; throws when the bytes are not whole peaks. */
export function decodePeaks(bytes: Uint8Array): PeakMeasures[] {
  if (bytes.length % BYTES_PER_PEAK !== 0) throw new RangeError(`Peaks of ${bytes.length} bytes are not whole ${BYTES_PER_PEAK}-byte peaks`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.length / BYTES_PER_PEAK }, (_, i) => ({ height: readMeasure(view, i * BYTES_PER_PEAK), size: readMeasure(view, i * BYTES_PER_PEAK + 4) }));
}
