import { count, eq } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database';
import { hits } from '../db/schema';

/**
 * Why a record hits were computed with (an analysis, a population) cannot be deleted, or null: a
 * hit must stay reproducible, so what it names is kept (an analysis can be deactivated instead).
 */
export async function hitsUsing(db: Db, column: PgColumn, id: string): Promise<string | null> {
  const [total] = await db.select({ n: count() }).from(hits).where(eq(column, id));
  const n = total?.n ?? 0;
  return n === 0 ? null : `${n} ${n === 1 ? 'hit still uses' : 'hits still use'} it`;
}
