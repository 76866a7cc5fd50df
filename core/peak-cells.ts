import { isBlank } from './blank-cell';
import type { PeakInput } from './schemas/replicates';

/** One marker's cells of one run: the alleles and, position by position, their heights and sizes (null: no such column). */
export interface PeakCells {
  alleles: readonly string[];
  heights: readonly string[] | null;
  sizes: readonly string[] | null;
}

/** The peaks read from a marker's cells, and what is wrong with them (FORMATS.md §2a: `Height k` pairs with `Allele k` by index). */
export interface ReadPeaks {
  peaks: PeakInput[];
  problems: string[];
}

/** A plain decimal (points only: heights and sizes are never written with a decimal comma in these exports). */
const NUMBER = /^\d+(?:\.\d+)?$|^\d*\.\d+$/;

/** A height or size cell as a positive number, or why it is not one. */
function measure(cell: string, what: 'height' | 'size', allele: string): { value: number } | { problem: string } {
  const text = cell.trim();
  const value = NUMBER.test(text) ? Number(text) : Number.NaN;
  if (!(value > 0)) return { problem: `the ${what} "${text}" of allele ${allele} is not a positive number` };
  return { value };
}

/**
 * Pairs a marker's alleles with their heights and sizes by position. A height beside no allele ("more heights than
 * alleles") or one that is not a positive number is a problem, named with the allele, so nothing is dropped silently.
 */
export function readPeaks({ alleles, heights, sizes }: PeakCells): ReadPeaks {
  const problems: string[] = [];
  const peaks: PeakInput[] = [];
  const width = Math.max(alleles.length, heights?.length ?? 0, sizes?.length ?? 0);
  const extra: string[] = [];
  for (let i = 0; i < width; i++) {
    const allele = (alleles[i] ?? '').trim();
    const h = heights?.[i] ?? '';
    const s = sizes?.[i] ?? '';
    if (isBlank(allele)) {
      if (!isBlank(h)) extra.push(h.trim());
      continue;
    }
    const peak: PeakInput = { allele, height: null, size: null };
    for (const [cell, what] of [[h, 'height'], [s, 'size']] as const) {
      if (isBlank(cell)) continue;
      const read = measure(cell, what, allele);
      if ('problem' in read) problems.push(read.problem);
      else peak[what] = read.value;
    }
    peaks.push(peak);
  }
  if (extra.length > 0) {
    const given = peaks.length;
    problems.push(`${given + extra.length} heights for ${given} allele${given === 1 ? '' : 's'} (${extra.join(', ')} beside no allele)`);
  }
  return { peaks, problems };
}

/** A GeneMapper samples-table cell (`12, 13, , `) split into its positions, blanks kept so heights pair by position. */
export function listPositions(cell: string): string[] {
  return cell.split(',').map((c) => c.trim());
}
