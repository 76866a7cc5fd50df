import { and, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { STALE_RECORD_MESSAGE } from '../../core/schemas/list';
import type { Db } from '../db/database';
import { Conflict, NotFound } from '../errors';

type VersionedTable = PgTable & { id: PgColumn; version: PgColumn; updatedAt: PgColumn };

/**
 * Optimistic locking (ARCHITECTURE.md "Calls"): updates the row only if it still has `version`,
 * bumping it; otherwise 404 when the row is gone and 409 when someone else changed it meanwhile.
 */
export async function updateVersioned<T extends VersionedTable>(
  db: Db,
  table: T,
  id: string,
  version: number,
  values: Partial<T['$inferInsert']>,
  what = 'record',
): Promise<T['$inferSelect']> {
  const rows = (await db
    .update(table)
    .set({ ...values, version: sql`${table.version} + 1`, updatedAt: new Date() } as never)
    .where(and(eq(table.id, id), eq(table.version, version)))
    .returning()) as T['$inferSelect'][];
  if (rows[0]) return rows[0];
  const [exists] = await db.select({ id: table.id }).from(table as PgTable).where(eq(table.id, id));
  if (!exists) throw new NotFound(`This ${what} no longer exists`);
  throw new Conflict(STALE_RECORD_MESSAGE);
}

/** Reads one row by id or fails with 404 naming what was looked for. */
export async function findOr404<T extends VersionedTable>(db: Db, table: T, id: string, what = 'record'): Promise<T['$inferSelect']> {
  const [row] = (await db.select().from(table as PgTable).where(eq(table.id, id))) as T['$inferSelect'][];
  if (!row) throw new NotFound(`No ${what} with id ${id}`);
  return row;
}
