import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { populationAlleles, populationHaplotypes, populationMarkers, populations } from '../../db/schema';
import { updateVersioned } from '../../db/versioned';
import type { StatisticsBatches } from './statistics-check';
import type { PopulationRow } from './visibility';

/** Table pages (8 kB each) one DELETE goes through: about 2 MB of rows, a statement as small as an insert's batch. */
const PAGES_PER_DELETE = 256;


/** The rows of a raw statement (both drivers answer { rows }). */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** A population with fewer rows than this in a table loses them in one DELETE. */
const FEW_ROWS = 5000;

// Deleting "the first 2,000 rows of the population" again and again rescans the rows deleted before (still
// there for the transaction), so each DELETE took longer than the last (up to 160 ms for 100,000 haplotypes),
// and finding where a population's rows lie reads them all (180 ms). Ranges of the table's pages (TID range
// scans) touch each page once, whichever population it holds.
/** Deletes a population's rows of one table: at once when they are few, else PAGES_PER_DELETE pages of the table at a time. */
async function deleteInBatches(t: Db, table: PgTable, populationId: string): Promise<void> {
  const [few] = rowsOf<{ n: number }>(
    await t.execute(sql`select count(*)::int as n from (select 1 from ${table} where population_id = ${populationId} limit ${FEW_ROWS}) as found`),
  );
  if ((few?.n ?? 0) < FEW_ROWS) {
    if ((few?.n ?? 0) > 0) await t.execute(sql`delete from ${table} where population_id = ${populationId}`);
    return;
  }
  const [size] = rowsOf<{ pages: number }>(
    await t.execute(sql`select (pg_relation_size(${getTableName(table)}::regclass) / current_setting('block_size')::int)::int as pages`),
  );
  for (let page = 0; page < (size?.pages ?? 0); page += PAGES_PER_DELETE) {
    await t.execute(sql`
      delete from ${table}
      where population_id = ${populationId} and ctid >= ${`(${page},0)`}::tid and ctid < ${`(${page + PAGES_PER_DELETE},0)`}::tid`);
  }
}

/** The INSERT of one batch per table: the database reads the JSON rows itself (statistics-check.ts statisticsBatches). */
const INSERT: Record<keyof StatisticsBatches, (populationId: string, rows: string) => SQL> = {
  markers: (populationId, rows) => sql`
    insert into ${populationMarkers} (population_id, marker_id, sample_size)
    select ${populationId}::uuid, r.m, r.n from jsonb_to_recordset(${rows}::jsonb) as r(m uuid, n int)`,
  alleles: (populationId, rows) => sql`
    insert into ${populationAlleles} (population_id, marker_id, allele, frequency)
    select ${populationId}::uuid, r.m, r.a, r.f from jsonb_to_recordset(${rows}::jsonb) as r(m uuid, a text, f float8)`,
  haplotypes: (populationId, rows) => sql`
    insert into ${populationHaplotypes} (population_id, "values", count)
    select ${populationId}::uuid, r.v, r.c from jsonb_to_recordset(${rows}::jsonb) as r(v jsonb, c int)`,
};

/**
 * Replaces a population's statistics in one transaction: the version check (409 when stale), the
 * removal of the old markers, alleles and haplotypes, and the new rows either all happen or none
 * do, so a failure part-way leaves the old statistics intact. Every statement is a batch of at most a
 * few thousand rows, with a turn of the event loop after it (ARCHITECTURE.md "Heavy work off the request thread").
 */
export async function replaceStatistics(
  db: Db,
  populationId: string,
  version: number,
  batches: StatisticsBatches,
  meta: { source: string; uploadedAt: Date },
): Promise<PopulationRow> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const row = await updateVersioned(t, populations, populationId, version, { source: meta.source, statisticsUploadedAt: meta.uploadedAt }, 'population');
    for (const table of [populationAlleles, populationHaplotypes, populationMarkers]) await deleteInBatches(t, table, populationId);
    const utf8 = new TextDecoder();
    for (const table of ['markers', 'alleles', 'haplotypes'] as const) {
      for (const rows of batches[table]) await t.execute(INSERT[table](populationId, utf8.decode(rows)));
    }
    return row;
  });
}
