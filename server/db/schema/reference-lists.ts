import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';

/** A reference list whose records are just a name, unique regardless of case (spec 3). */
function namedList(table: string) {
  return pgTable(table, { ...recordColumns, name: text('name').notNull() }, (t) => [
    uniqueIndex(`${table}_name_unique`).on(sql`lower(${t.name})`),
  ]);
}

export const caseTypes = namedList('case_types');
export const sampleSources = namedList('sample_sources');
export const laboratories = namedList('laboratories');
