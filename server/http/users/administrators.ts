import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { accessGroups, users } from '../../db/schema';
import { Conflict } from '../errors';

export const LAST_ADMINISTRATOR_MESSAGE =
  'This change would leave no unlocked administrator with scope All, and nobody could manage roles, organizations or reference data any more. Give another user an administrator role with scope All first.';

// Any constant: serializes the transactions that can take away administrator rights, so two of
// them cannot each believe the other administrator remains (write skew under READ COMMITTED).
const ADMINISTRATORS_LOCK = 0x4c6f6375;

async function countAdministratorsWithScopeAll(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(accessGroups, eq(accessGroups.id, users.accessGroupId))
    .where(and(eq(accessGroups.isAdmin, true), eq(users.scope, 'All'), isNull(users.lockedAt)));
  return row?.n ?? 0;
}

/**
 * Runs `change` in a transaction and rolls it back (409) when it leaves the system without an
 * unlocked administrator with scope All, so a laboratory cannot lock itself out of administration.
 * A system that had none before (a fresh test database) is not held to it.
 */
export async function keepingAnAdministrator<T>(db: Db, change: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ADMINISTRATORS_LOCK})`);
    const before = await countAdministratorsWithScopeAll(tx as unknown as Db);
    const result = await change(tx as unknown as Db);
    if (before > 0 && (await countAdministratorsWithScopeAll(tx as unknown as Db)) === 0) throw new Conflict(LAST_ADMINISTRATOR_MESSAGE);
    return result;
  });
}
