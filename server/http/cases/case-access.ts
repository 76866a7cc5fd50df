import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { cases } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { inReachableOrganizations } from '../tenancy';

export type CaseRow = typeof cases.$inferSelect;

/** One case the user may reach; another organization's answers 404, so its existence is not confirmed (spec 6). */
export async function findVisibleCase(db: Db, user: AuthenticatedUser, id: string): Promise<CaseRow> {
  const [row] = await db.select().from(cases).where(and(eq(cases.id, id), inReachableOrganizations(cases.organizationId, user)));
  if (!row) throw new NotFound(`No case with id ${id}`);
  return row;
}
