import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, canReachOrganization } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import {
  canMoveTask,
  TaskRequest,
  TaskRequestInput,
  TaskRequestListQuery,
  TaskStatusChange,
  taskTransitionRefused,
  UpdateTaskRequestBody,
  type TaskStatus,
} from '../../../core/schemas/task-requests';
import { appendAudit } from '../../audit/audit-trail';
import type { Db } from '../../db/database';
import { cases, organizations, taskRequests, users } from '../../db/schema';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { Conflict, Forbidden } from '../errors';
import { listClauses } from '../list';
import type { RouteDeps } from '../route-deps';
import { inReachableOrganizations } from '../tenancy';
import { updateVersioned } from '../../db/versioned';
import { findVisibleTask, type TaskRequestRow } from './task-access';
import { checkTaskReferences } from './task-rules';
import { toTaskRequest, toTaskRequests } from './task-view';

const tags = ['task-requests'];
const ById = z.object({ id: Id });
const ByOrganization = z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) });

const assignee = alias(users, 'assignee');
const LIST_COLUMNS = {
  title: { expr: sql`lower(${taskRequests.title})`, sortable: true, searchable: true },
  status: { expr: taskRequests.status, sortable: true, searchable: true },
  assignedTo: { expr: sql`lower(coalesce(${assignee.firstName} || ' ' || ${assignee.lastName}, ''))`, sortable: true, searchable: true },
  organization: { expr: sql`lower(${organizations.name})`, sortable: true, searchable: true },
  caseNumber: { expr: sql`lower(coalesce(${cases.caseNumber}, ''))`, sortable: true, searchable: true },
  dueDate: { expr: taskRequests.dueDate, sortable: true },
  createdAt: { expr: taskRequests.createdAt, sortable: true },
  updatedAt: { expr: taskRequests.updatedAt, sortable: true },
};

async function listTasks(db: Db, query: TaskRequestListQuery, scope: SQL | undefined) {
  const statuses = query.status ? inArray(taskRequests.status, query.status.split(',')) : undefined;
  const clauses = listClauses(query, LIST_COLUMNS, { scope: and(scope, statuses), defaultSort: 'updatedAt:desc', tiebreak: taskRequests.id });
  // The list's sort and filter columns need the organization, assignee and case joined in.
  const joined = <Q extends PgSelect>(q: Q) =>
    q
      .innerJoin(organizations, eq(organizations.id, taskRequests.organizationId))
      .leftJoin(assignee, eq(assignee.id, taskRequests.assignedTo))
      .leftJoin(cases, eq(cases.id, taskRequests.caseId))
      .where(clauses.where);
  const rows = await joined(db.select({ t: taskRequests }).from(taskRequests).$dynamic()).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
  const [total] = await joined(db.select({ n: count() }).from(taskRequests).$dynamic());
  return { items: await toTaskRequests(db, rows.map((r) => r.t)), count: total?.n ?? 0 };
}

/** Runs one audited write of a task in a transaction: the row it returns is recorded before and after. */
async function auditedWrite(
  db: Db,
  deps: Pick<RouteDeps, 'clock'>,
  user: AuthenticatedUser,
  action: string,
  before: TaskRequestRow | null,
  write: (tx: Db) => Promise<TaskRequestRow | null>,
): Promise<TaskRequest | null> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const row = await write(t);
    const [beforeView, afterView] = await Promise.all([before ? toTaskRequest(t, before) : null, row ? toTaskRequest(t, row) : null]);
    const subject = (row ?? before)!;
    await appendAudit(t, auditActor(user), deps.clock, {
      entity: 'TaskRequest',
      entityId: subject.id,
      action,
      caseId: subject.caseId,
      organizationId: subject.organizationId,
      before: beforeView,
      after: afterView,
    });
    return afterView;
  });
}

/** Task requests (spec 2.2, 3, 6 TaskRequests): list, read, add, edit, change status and delete, each write audited. */
export const taskRequestCrudRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/task-requests',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Read' } },
      schema: { tags, summary: 'Task requests of every organization the user reaches', querystring: TaskRequestListQuery, response: { 200: listOf(TaskRequest), 400: ErrorBody } },
    },
    async (request) => listTasks(db, request.query, inReachableOrganizations(taskRequests.organizationId, request.user)),
  );

  app.get(
    '/organizations/:orgId/task-requests',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Read', orgParam: 'orgId' } },
      schema: { tags, summary: "An organization's task requests (all: every organization the user reaches)", params: ByOrganization, querystring: TaskRequestListQuery, response: { 200: listOf(TaskRequest), 400: ErrorBody } },
    },
    async (request) => {
      const { orgId } = request.params;
      const scope = orgId === ALL_ORGANIZATIONS ? inReachableOrganizations(taskRequests.organizationId, request.user) : eq(taskRequests.organizationId, orgId);
      return listTasks(db, request.query, scope);
    },
  );

  app.get(
    '/task-requests/:id',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Read' } },
      schema: { tags, summary: 'One task request', params: ById, response: { 200: TaskRequest, 404: ErrorBody } },
    },
    async (request) => toTaskRequest(db, await findVisibleTask(db, request.user, request.params.id)),
  );

  app.post(
    '/task-requests',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Add' } },
      schema: { tags, summary: 'Add a task request (open)', body: TaskRequestInput, response: { 201: TaskRequest, 400: ErrorBody, 403: ErrorBody } },
    },
    async (request, reply) => {
      const input = request.body;
      if (!canReachOrganization(request.user, input.organizationId)) throw new Forbidden('You cannot add tasks for that organization.');
      await checkTaskReferences(db, input.organizationId, input);
      const created = await auditedWrite(db, deps, request.user, 'Added', null, async (t) => {
        const [row] = await t
          .insert(taskRequests)
          .values({
            organizationId: input.organizationId,
            title: input.title,
            description: input.description,
            requestedBy: request.user.id,
            assignedTo: input.assignedToId,
            caseId: input.caseId,
            dueDate: input.dueDate,
          })
          .returning();
        return row!;
      });
      return reply.code(201).send(created!);
    },
  );

  app.put(
    '/task-requests/:id',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Edit' } },
      schema: { tags, summary: 'Edit a task request (title, description, assignee, case, due date)', params: ById, body: UpdateTaskRequestBody, response: { 200: TaskRequest, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const current = await findVisibleTask(db, request.user, request.params.id);
      const { version, ...input } = request.body;
      await checkTaskReferences(db, current.organizationId, input);
      const values = { title: input.title, description: input.description, assignedTo: input.assignedToId, caseId: input.caseId, dueDate: input.dueDate };
      return (await auditedWrite(db, deps, request.user, 'Edited', current, (t) => updateVersioned(t, taskRequests, current.id, version, values, 'task request')))!;
    },
  );

  app.put(
    '/task-requests/:id/status',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Edit' } },
      schema: { tags, summary: 'Move a task request on: open → in-progress → done or cancelled (409 otherwise)', params: ById, body: TaskStatusChange, response: { 200: TaskRequest, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const current = await findVisibleTask(db, request.user, request.params.id);
      const { status, version } = request.body;
      const from = current.status as TaskStatus;
      // A stale version is reported as such before the transition is judged on old data.
      if (version === current.version && !canMoveTask(from, status)) throw new Conflict(taskTransitionRefused(from, status));
      return (await auditedWrite(db, deps, request.user, `Status ${from} → ${status}`, current, (t) =>
        updateVersioned(t, taskRequests, current.id, version, { status }, 'task request'),
      ))!;
    },
  );

  app.delete(
    '/task-requests/:id',
    {
      config: { access: { entity: 'TaskRequests', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a task request', params: ById, response: { 204: z.null(), 404: ErrorBody } },
    },
    async (request, reply) => {
      const current = await findVisibleTask(db, request.user, request.params.id);
      await auditedWrite(db, deps, request.user, 'Deleted', current, async (t) => {
        await t.delete(taskRequests).where(eq(taskRequests.id, current.id));
        return null;
      });
      return reply.code(204).send(null);
    },
  );
};
