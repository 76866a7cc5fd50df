import { expandLabRetrieverLocus } from '../../../core/locus-abbreviations';
import { isAlleleDesignation, normaliseAllele } from './alleles';
import { FrequencyBuilder } from './frequency-builder';
import { isBlank } from './numbers';
import { pickPopulation } from './populations';
import type { AutosomalDraft, ParseContext, Table } from './types';

/** Population names of a count table's header (`Af Am,,Cau,,Hsp`): a name over each (allele, count) pair of columns. */
function headerPopulations(table: Table): string[] | null {
  const cells = table.rows[0]?.cells ?? [];
  if (cells.length < 2) return null;
  const names: string[] = [];
  for (let i = 0; i < cells.length; i += 2) {
    const name = cells[i] ?? '';
    // The last pair may lose its empty cell when the line has no trailing separator.
    if (name === '' || (cells[i + 1] ?? '') !== '') return null;
    names.push(name);
  }
  return names;
}

/** Whether a table is a LabRetriever per-locus count table (FORMATS.md 4h): population header, then (allele, count) pairs. */
export function isCountTable(table: Table): boolean {
  const populations = headerPopulations(table);
  const first = table.rows[1]?.cells;
  if (!populations || !first) return false;
  return populations.every((_, k) => isAlleleDesignation(normaliseAllele(first[2 * k] ?? '')) && /^\d+$/.test(first[2 * k + 1] ?? ''));
}

/**
 * The locus a count table is about, as its file name writes it: the name before the extensions, less the table
 * set after the last `_` (D3_B.count.csv → D3, Penta_E_B.count.csv → Penta_E); the content never names it.
 */
export function countTableMarkerName(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? fileName).split('.')[0] ?? '';
  const set = base.lastIndexOf('_');
  return set > 0 ? base.slice(0, set) : base;
}

/** Reads a count table: frequency = count / total count of the population, N = total / 2 (counts are alleles). */
export function parseCountTable(table: Table, ctx: ParseContext): AutosomalDraft {
  const { errors, warnings } = ctx.issues;
  const populations = headerPopulations(table) ?? [];
  const draft: AutosomalDraft = { kind: 'Autosomal', format: 'LabRetriever allele count table', markers: [], population: null, populations };
  const pick = pickPopulation(populations, ctx.population);
  if (!pick.ok) {
    errors.push({ row: null, message: pick.message });
    return draft;
  }
  draft.population = pick.population;
  const k = populations.indexOf(pick.population ?? '');
  const locus = countTableMarkerName(ctx.fileName);
  const name = expandLabRetrieverLocus(locus);
  const read = name === locus ? name : `${name} (LabRetriever's short name ${locus})`;
  warnings.push({ row: null, marker: name, message: `The marker ${read} is taken from the file name ${ctx.fileName}` });

  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const marker = builder.marker(name, null);
  if (!marker) return draft;
  const counts: { allele: string; count: number; line: number }[] = [];
  let unreadable = false;
  for (const row of table.rows.slice(1)) {
    const label = row.cells[2 * k] ?? '';
    const cell = row.cells[2 * k + 1] ?? '';
    if (label === '' && isBlank(cell)) continue;
    const allele = builder.allele(marker, label, row.line, '; the row is skipped');
    if (allele === null) continue;
    if (!/^\d+$/.test(cell)) {
      errors.push({ row: row.line, marker: marker.name, message: `Count "${cell}" of allele ${allele} at ${marker.name} is not a whole number` });
      unreadable = true;
      continue;
    }
    counts.push({ allele, count: Number(cell), line: row.line });
  }
  if (unreadable) builder.markUnreadable(marker);
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  for (const c of counts) if (c.count > 0) builder.add(marker, c.allele, c.count / total, c.line);
  builder.setSampleSize(marker, total > 0 ? Math.floor(total / 2) : null);
  draft.markers = builder.build();
  return draft;
}
