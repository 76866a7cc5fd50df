import { z } from 'zod';
import { Id } from './common';
import { ListQuery, Versioned } from './list';
import { REQUIRED, requiredText } from './named-record';

/** ARCHITECTURE.md "States": a task request is open, then in progress, then done or cancelled. */
export const TASK_STATUSES = ['open', 'in-progress', 'done', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** The statuses a task may move to from each status; anything else is refused with 409. */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  open: ['in-progress'],
  'in-progress': ['done', 'cancelled'],
  done: [],
  cancelled: [],
};

/** The words a user reads for each status. */
export const TASK_STATUS_LABELS: Readonly<Record<TaskStatus, string>> = {
  open: 'Open',
  'in-progress': 'In progress',
  done: 'Done',
  cancelled: 'Cancelled',
};

/** Whether `from` → `to` is a transition ARCHITECTURE.md allows. */
export const canMoveTask = (from: TaskStatus, to: TaskStatus): boolean => TASK_TRANSITIONS[from].includes(to);

/** Why a transition is refused (HTTP 409). */
export const taskTransitionRefused = (from: TaskStatus, to: TaskStatus): string => {
  const allowed = TASK_TRANSITIONS[from];
  const next = allowed.length === 0 ? 'it is finished and cannot change any more' : `it can only become ${allowed.map((s) => TASK_STATUS_LABELS[s]).join(' or ')}`;
  return `A task that is ${TASK_STATUS_LABELS[from]} cannot become ${TASK_STATUS_LABELS[to]}: ${next}.`;
};

const optionalId = Id.nullable();
/** A calendar date, YYYY-MM-DD, or none. */
const DueDate = z.iso.date('Enter a date as YYYY-MM-DD').nullable();

/** What the task form sends (spec 2.2: create a task request, assign it). */
export const TaskRequestInput = z.object({
  organizationId: z.uuid({ error: REQUIRED }),
  title: requiredText(200),
  description: z.string().max(4000, 'At most 4000 characters'),
  assignedToId: optionalId,
  caseId: optionalId,
  dueDate: DueDate,
});
export type TaskRequestInput = z.infer<typeof TaskRequestInput>;

/** An edit keeps the organization: a task moves with its organization's work, not between them. */
export const UpdateTaskRequestBody = TaskRequestInput.omit({ organizationId: true }).extend(Versioned.shape);
export type UpdateTaskRequestBody = z.infer<typeof UpdateTaskRequestBody>;

export const TaskStatusChange = z.object({ status: z.enum(TASK_STATUSES, { error: REQUIRED }), version: Versioned.shape.version });
export type TaskStatusChange = z.infer<typeof TaskStatusChange>;

const PersonRef = z.object({ id: Id, name: z.string() });

/** A task request as the API returns it. */
export const TaskRequest = z
  .object({
    id: Id,
    version: z.number().int(),
    organizationId: Id,
    organizationName: z.string(),
    title: z.string(),
    description: z.string(),
    status: z.enum(TASK_STATUSES),
    requestedBy: PersonRef.nullable(),
    assignedTo: PersonRef.nullable(),
    case: z.object({ id: Id, caseNumber: z.string() }).nullable(),
    dueDate: z.string().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'TaskRequest' });
export type TaskRequest = z.infer<typeof TaskRequest>;

/** A member of an organization, as the dashboard and the assignee choice list them. */
export const OrganizationMember = z.object({ id: Id, name: z.string(), email: z.string(), roleName: z.string().nullable() }).meta({ id: 'OrganizationMember' });
export type OrganizationMember = z.infer<typeof OrganizationMember>;

const STATUS_LIST = new RegExp(`^(${TASK_STATUSES.join('|')})(,(${TASK_STATUSES.join('|')}))*$`);

/** A list query of task requests, optionally only some statuses (`status=open,in-progress`). */
export const TaskRequestListQuery = ListQuery.extend({
  status: z.string().regex(STATUS_LIST, `Statuses separated by commas: ${TASK_STATUSES.join(', ')}`).optional(),
});
export type TaskRequestListQuery = z.infer<typeof TaskRequestListQuery>;
