import { isCountTable } from './count-table';
import { isFamiliasProject } from './familias-project';
import { isFamiliasList, isMerlinList } from './familias';
import { isHaplotypeTable } from './haplotypes';
import { findLongColumns } from './long-table';
import { isPopStrTable } from './popstr';
import { isSampleSizeTable } from './sample-sizes';
import { isWideTable } from './wide-table';
import type { MarkerResolver, Table } from './types';

/** How a text upload is laid out at the top level. */
export type TextLayout = 'xml' | 'familias-project' | 'familias-list' | 'merlin' | 'table';

/** What a table holds. */
export type TableFormat = 'popstr' | 'long' | 'sample-sizes' | 'wide' | 'counts' | 'haplotypes';

/** Recognises a text upload by its content; the file extension is never trusted (a .csv may be tab-separated, a .txt a Familias list). */
export function detectTextLayout(text: string): TextLayout {
  const start = text.trimStart();
  if (start.startsWith('<')) return 'xml';
  if (isFamiliasProject(start)) return 'familias-project';
  if (isMerlinList(start)) return 'merlin';
  if (isFamiliasList(start)) return 'familias-list';
  return 'table';
}

/** Recognises a table from its header (and, for count tables, its first row). */
export function detectTableFormat(table: Table, resolve: MarkerResolver, kind: 'Autosomal' | 'YStr' | undefined): TableFormat | null {
  if (table.rows.length === 0) return null;
  // Most specific first: a pop.STR header also names a marker column, and a haplotype table has no allele column.
  if (isPopStrTable(table)) return 'popstr';
  if (findLongColumns(table)) return 'long';
  if (isSampleSizeTable(table)) return 'sample-sizes';
  if (isWideTable(table)) return 'wide';
  if (isCountTable(table)) return 'counts';
  if (isHaplotypeTable(table, resolve, kind === 'YStr')) return 'haplotypes';
  return null;
}
