import type { TableCell } from 'pdfmake/interfaces';
import { formatScientific } from '../../core/scientific-display';
import type { MarkerResult } from '../../core/schemas/analyses';
import type { PopulationFacts } from './report-facts';

/** Repeat numbers in numeric order, designations such as X or OL after them. */
const byAllele = (a: string, b: string) => (Number(a) - Number(b)) || a.localeCompare(b);

/**
 * A marker's allele frequencies as the engine used them (issue 18: a reviewer checks every value against them), one
 * allele a line, "(min.)" where the population lacks the allele and the minimum allele frequency stood in; and
 * the marker's sample size N. A pedigree marker carries the frequencies it used; a formula table's are read
 * from the population the same way the engine reads them.
 */
export function frequencyCells(m: MarkerResult, population: PopulationFacts | undefined): [TableCell, TableCell] {
  const n = population?.sampleSize(m.marker) ?? null;
  const nCell = n === null ? '—' : n.toLocaleString('en-US');
  if (m.pedigree) return [m.pedigree.alleles.map((a, i) => `${a}: ${formatScientific(m.pedigree!.frequencies[i]!)}`).join('\n') || '—', nCell];
  if (!population) return ['—', nCell];
  const alleles = [...new Set(m.genotypes.flatMap((g) => g ?? []))].sort(byAllele);
  const lines = alleles.map((a) => `${a}: ${formatScientific(population.frequency(m.marker, a))}${population.observed(m.marker, a) ? '' : ' (min.)'}`);
  return [lines.join('\n') || '—', nCell];
}
