import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { cases, organizations } from '../../db/schema';
import { BadRequest } from '../errors';
import { activeMembers } from './members';

/**
 * Checks what a task refers to: an existing organization, an assignee who works for it (and is not
 * locked out), a case of the same organization. Each failure names its field (spec 8.1 400).
 */
export async function checkTaskReferences(db: Db, organizationId: string, refs: { assignedToId: string | null; caseId: string | null }): Promise<void> {
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId));
  if (!org) throw new BadRequest('Choose an existing organization', [{ path: '/organizationId', message: 'No such organization' }]);
  const details: { path: string; message: string }[] = [];
  if (refs.assignedToId && !(await activeMembers(db, organizationId)).some((m) => m.id === refs.assignedToId)) {
    details.push({ path: '/assignedToId', message: 'Choose a user of the task’s organization' });
  }
  if (refs.caseId) {
    const [found] = await db.select({ id: cases.id }).from(cases).where(and(eq(cases.id, refs.caseId), eq(cases.organizationId, organizationId)));
    if (!found) details.push({ path: '/caseId', message: 'Choose a case of the task’s organization' });
  }
  if (details.length > 0) throw new BadRequest('A task can only refer to users and cases of its own organization', details);
}
