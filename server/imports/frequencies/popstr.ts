import { isAlleleDesignation, normaliseAllele } from './alleles';
import { FrequencyBuilder } from './frequency-builder';
import { INDIVIDUALS_HEADERS, MARKER_HEADERS, POPULATION_HEADERS, headerKey } from './header-names';
import { DecimalReader, isBlank, readCount } from './numbers';
import { distinct, pickPopulation } from './populations';
import type { AutosomalDraft, ParseContext, Table } from './types';

const BIN = /^freq_(.+)$/i;

/** Whether a table is a pop.STR export: `STR;population;N;freq_<allele>;…`, one row per marker (FORMATS.md 4d). */
export function isPopStrTable(table: Table): boolean {
  const cells = table.rows[0]?.cells ?? [];
  return MARKER_HEADERS.has(headerKey(cells[0])) && cells.some((c) => BIN.test(c));
}

/** Reads a pop.STR export: every allele bin is a column, zeros mean "not observed"; other statistics columns are ignored. */
export function parsePopStr(table: Table, ctx: ParseContext): AutosomalDraft {
  const { errors } = ctx.issues;
  const [header, ...body] = table.rows;
  const cells = header?.cells ?? [];
  const keys = cells.map(headerKey);
  const popCol = keys.findIndex((k) => POPULATION_HEADERS.has(k));
  const nCol = keys.findIndex((k) => INDIVIDUALS_HEADERS.has(k));
  const bins: { col: number; allele: string }[] = [];
  cells.forEach((cell, col) => {
    const m = BIN.exec(cell);
    if (!m) return;
    const allele = normaliseAllele(m[1] ?? '');
    if (isAlleleDesignation(allele)) bins.push({ col, allele });
    else errors.push({ row: header?.line ?? null, message: `Column "${cell}" does not name an allele` });
  });

  const populations = popCol < 0 ? [] : distinct(body.map((r) => r.cells[popCol] ?? '').filter((p) => p !== ''));
  const draft: AutosomalDraft = { kind: 'Autosomal', format: 'pop.STR export', markers: [], population: null, populations };
  const pick = pickPopulation(populations, ctx.population);
  if (!pick.ok) {
    errors.push({ row: null, message: pick.message });
    return draft;
  }
  draft.population = pick.population;

  const builder = new FrequencyBuilder(ctx.resolve, ctx.issues);
  const numbers = new DecimalReader();
  for (const row of body) {
    if (popCol >= 0 && row.cells[popCol] !== pick.population) continue;
    const name = row.cells[0] ?? '';
    const values = bins.map((b) => ({ ...b, cell: row.cells[b.col] ?? '' })).filter((v) => !isBlank(v.cell));
    const read = values.map((v) => ({ ...v, number: numbers.read(v.cell) }));
    if (!read.some((v) => !v.number.ok || v.number.value !== 0)) {
      ctx.issues.warnings.push({ row: row.line, marker: name, message: `${name} has no allele frequencies in this file; skipped` });
      continue;
    }
    const marker = builder.marker(name, row.line);
    if (!marker) continue;
    for (const { allele, number } of read) {
      if (!number.ok) {
        errors.push({ row: row.line, marker: marker.name, message: `Frequency of allele ${allele} at ${marker.name}: ${number.reason}` });
        builder.markUnreadable(marker);
      } else if (number.value !== 0) builder.add(marker, allele, number.value, row.line);
    }
    if (nCol >= 0) {
      const n = readCount(row.cells[nCol]);
      if (n === null && !isBlank(row.cells[nCol])) {
        errors.push({ row: row.line, marker: marker.name, message: `Sample size "${row.cells[nCol]}" of ${marker.name} is not a positive whole number` });
      }
      builder.setSampleSize(marker, n);
    }
  }
  draft.markers = builder.build();
  return draft;
}
