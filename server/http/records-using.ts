import { count, eq, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/database';
import { cases, profiles } from '../db/schema';
import { nameList } from './reference-lists/routes';

async function namesUsing(db: Db, table: typeof profiles | typeof cases, name: SQLWrapper, column: PgColumn, id: string, what: string): Promise<string | null> {
  const [total] = await db.select({ n: count() }).from(table).where(eq(column, id));
  if (!total || total.n === 0) return null;
  const rows = (await db.select({ name: name as PgColumn }).from(table).where(eq(column, id)).orderBy(name as PgColumn).limit(5)) as { name: string }[];
  return `${what} still use it (${nameList(rows.map((r) => r.name), total.n)})`;
}

/** Why a record that profiles refer to (chemistry, sample source, laboratory) cannot be deleted, or null. */
export const profilesUsing = (db: Db, column: PgColumn, id: string) => namesUsing(db, profiles, profiles.profileId, column, id, 'profiles');

/** Why a record that cases refer to (case type, organization) cannot be deleted, or null. */
export const casesUsing = (db: Db, column: PgColumn, id: string) => namesUsing(db, cases, cases.caseNumber, column, id, 'cases');
