import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AccessGroup, AccessGroupInput, AccessGroupSummary } from '../../../core/schemas/access-groups';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { onUniqueViolation } from '../../db/errors';
import { accessGroups } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { Conflict } from '../errors';
import { listClauses } from '../list';
import { findOr404, updateVersioned } from '../../db/versioned';
import { keepingAnAdministrator } from '../users/administrators';
import { grantsOf, replaceGrants, roleAssignees, roleOf, toAccessGroup } from './role-store';

const tags = ['access-groups'];
const ById = z.object({ id: Id });
const UpdateBody = AccessGroupInput.extend(Versioned.shape);

const duplicate = (name: string) => () => new Conflict(`A role named "${name}" already exists`);

/**
 * Roles, called access groups (spec 2.7, 3, 6): a name, the administrator flag and the permission
 * matrix. Reading needs AccessGroups Read (an administrator needs scope All); writing, an
 * administrator with scope All (core/permissions.ts).
 */
export const roleRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/access-groups',
    {
      config: { access: { entity: 'AccessGroups', verb: 'Read' } },
      schema: { tags, summary: 'List roles', querystring: ListQuery, response: { 200: listOf(AccessGroupSummary), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        { name: { expr: accessGroups.name, sortable: true, searchable: true }, isAdmin: { expr: accessGroups.isAdmin, sortable: true } },
        { defaultSort: 'name:asc', tiebreak: accessGroups.id },
      );
      const rows = await db.select().from(accessGroups).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(accessGroups).where(clauses.where);
      return { items: rows.map((r) => ({ id: r.id, name: r.name, isAdmin: r.isAdmin, version: r.version })), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/access-groups/:id',
    {
      config: { access: { entity: 'AccessGroups', verb: 'Read' } },
      schema: { tags, summary: 'One role with its permission matrix', params: ById, response: { 200: AccessGroup, 404: ErrorBody } },
    },
    async (request) => {
      const row = await findOr404(db, accessGroups, request.params.id, 'role');
      return toAccessGroup(row, await grantsOf(db, row.id));
    },
  );

  app.post(
    '/access-groups',
    {
      config: { access: { entity: 'AccessGroups', verb: 'Add' } },
      schema: { tags, summary: 'Add a role', body: AccessGroupInput, response: { 201: AccessGroup, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const { name, isAdmin, permissions } = request.body;
      const row = await onUniqueViolation(
        () =>
          db.transaction(async (tx) => {
            const [inserted] = await tx.insert(accessGroups).values({ name, isAdmin }).returning();
            await replaceGrants(tx as never, inserted!.id, permissions);
            return inserted!;
          }),
        duplicate(name),
      );
      return reply.code(201).send(toAccessGroup(row, await grantsOf(db, row.id)));
    },
  );

  app.put(
    '/access-groups/:id',
    {
      config: { access: { entity: 'AccessGroups', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Change a role (refused when it would leave no administrator with scope All)',
        params: ById,
        body: UpdateBody,
        response: { 200: AccessGroup, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const before = await findOr404(db, accessGroups, id, 'role');
      const { name, isAdmin, permissions, version } = request.body;
      if (before.isAdmin && !isAdmin && (await roleOf(db, request.user.id)) === id) {
        throw new Conflict(`You cannot take administrator rights away from your own role "${before.name}"; another administrator must do it.`);
      }
      const row = await onUniqueViolation(
        () =>
          keepingAnAdministrator(db, async (tx) => {
            const updated = await updateVersioned(tx, accessGroups, id, version, { name, isAdmin }, 'role');
            await replaceGrants(tx, id, permissions);
            return updated;
          }),
        duplicate(name),
      );
      return toAccessGroup(row, await grantsOf(db, id));
    },
  );

  app.delete(
    '/access-groups/:id',
    {
      config: { access: { entity: 'AccessGroups', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a role that no user has', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findOr404(db, accessGroups, request.params.id, 'role');
      const assignees = await roleAssignees(db, row.id);
      if (assignees) throw new Conflict(`Role "${row.name}" is ${assignees}. Give them another role first.`);
      await db.delete(accessGroups).where(eq(accessGroups.id, row.id));
      return reply.code(204).send(null);
    },
  );
};
