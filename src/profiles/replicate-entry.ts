import { readPeaks } from '../../core/peak-cells';
import type { Replicate, ReplicateInput } from '../../core/schemas/replicates';
import { parseAlleleText } from './allele-text';

/** One replicate (run) as the marker entry form holds it: its name and, per marker id, heights and sizes as typed. */
export interface RunText {
  name: string;
  heights: Record<string, string>;
  sizes: Record<string, string>;
}

/** Heights or sizes as typed: comma or space separated, in the order of the marker's alleles; `-` for none. */
export const splitCells = (text: string): string[] => (text.trim() === '' ? [] : text.split(/[\s,;]+/).filter((c) => c !== ''));

/** A stored replicate as text, paired with the marker's alleles as the form shows them (`-` where the run has no peak). */
export function runText(replicate: Replicate, allelesOf: (markerId: string) => readonly string[]): RunText {
  const heights: Record<string, string> = {};
  const sizes: Record<string, string> = {};
  for (const m of replicate.markers) {
    const byAllele = new Map(m.peaks.map((p) => [p.allele, p]));
    const alleles = allelesOf(m.markerId);
    heights[m.markerId] = alleles.map((a) => byAllele.get(a)?.height ?? '-').join(', ');
    // Only sizes the entry or the file gave; the kit's are filled when read.
    if (m.peaks.some((p) => p.sizeSource === 'file')) sizes[m.markerId] = alleles.map((a) => (byAllele.get(a)?.sizeSource === 'file' ? byAllele.get(a)!.size : '-')).join(', ');
  }
  return { name: replicate.name, heights, sizes };
}

/**
 * One marker of a run read as an import reads `Allele k`/`Height k`/`Size k` (core/peak-cells.ts, the same
 * messages): each height and size a positive number, no more of them than alleles. A position left `-` is a peak
 * not seen in this run (an allele the run dropped), so it is left out.
 */
export function readRunMarker(allelesText: string, heightsText: string, sizesText: string): { peaks: ReplicateInput['markers'][number]['peaks']; problems: string[] } {
  const alleles = parseAlleleText(allelesText);
  const { peaks, problems } = readPeaks({ alleles, heights: splitCells(heightsText), sizes: sizesText.trim() === '' ? null : splitCells(sizesText) });
  return { peaks: peaks.filter((p) => p.height !== null || p.size !== null), problems };
}
