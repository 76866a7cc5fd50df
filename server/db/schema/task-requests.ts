import { date, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';
import { cases } from './cases';
import { organizations } from './organizations';
import { users } from './users';

/**
 * A task request of one organization (spec 2.2, 3 TaskRequest): work one user asks of another.
 * Status follows ARCHITECTURE.md "States": open → in-progress → done | cancelled.
 */
export const taskRequests = pgTable(
  'task_requests',
  {
    ...recordColumns,
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    // The trail keeps who asked even when the account is later removed.
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    /** 'open' | 'in-progress' | 'done' | 'cancelled' (core/schemas/task-requests.ts). */
    status: text('status').notNull().default('open'),
    caseId: uuid('case_id').references(() => cases.id, { onDelete: 'set null' }),
    dueDate: date('due_date', { mode: 'string' }),
  },
  (t) => [index('task_requests_organization_status_idx').on(t.organizationId, t.status), index('task_requests_assigned_to_idx').on(t.assignedTo)],
);
