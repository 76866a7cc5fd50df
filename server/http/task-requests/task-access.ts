import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { taskRequests } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { inReachableOrganizations } from '../tenancy';

export type TaskRequestRow = typeof taskRequests.$inferSelect;

/** One task request the user may reach; another organization's answers 404, so its existence is not confirmed (spec 6). */
export async function findVisibleTask(db: Db, user: AuthenticatedUser, id: string): Promise<TaskRequestRow> {
  const [row] = await db.select().from(taskRequests).where(and(eq(taskRequests.id, id), inReachableOrganizations(taskRequests.organizationId, user)));
  if (!row) throw new NotFound(`No task request with id ${id}`);
  return row;
}
