import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, canAssignOrganizations, canSeeAdminUserOptions } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { UserFormOptions, UserInput, UserRecord, UserSummary } from '../../../core/schemas/users';
import { accessGroups, organizations } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { findVisibleUser, listUsers, toUserRecord } from './user-queries';
import { deleteUser, saveUser } from './user-writes';

const tags = ['users'];
const ById = z.object({ id: Id });
const ByOrganization = z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) });
const UpdateBody = UserInput.extend(Versioned.shape);

/** The Users area (spec 2.7, 3, 6): list, read, add, change and delete users. */
export const userRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, config, clock }) => {
  app.get(
    '/users',
    {
      config: { access: { entity: 'Users', verb: 'Read' } },
      schema: { tags, summary: 'List users (organization scope: those sharing an organization)', querystring: ListQuery, response: { 200: listOf(UserSummary), 400: ErrorBody } },
    },
    async (request) => listUsers(db, request.user, request.query),
  );

  app.get(
    '/organizations/:orgId/users',
    {
      config: { access: { entity: 'Users', verb: 'Read', orgParam: 'orgId' } },
      schema: { tags, summary: "List an organization's users", params: ByOrganization, querystring: ListQuery, response: { 200: listOf(UserSummary), 400: ErrorBody } },
    },
    async (request) => listUsers(db, request.user, request.query, request.params.orgId),
  );

  app.get(
    '/users/form-options',
    {
      config: { access: { entity: 'Users', verb: 'Read' } },
      schema: { tags, summary: 'Roles and organizations the user form may offer the signed-in user', response: { 200: UserFormOptions } },
    },
    async (request) => {
      const actor = request.user;
      // Not GET /api/access-groups: an administrator whose scope is not All may not read Roles, yet chooses roles here (spec 6).
      const roles = canSeeAdminUserOptions(actor)
        ? await db.select({ id: accessGroups.id, name: accessGroups.name, isAdmin: accessGroups.isAdmin }).from(accessGroups).orderBy(asc(accessGroups.name))
        : [];
      const orgs = canAssignOrganizations(actor)
        ? await db.select({ id: organizations.id, name: organizations.name }).from(organizations).orderBy(asc(organizations.name))
        : actor.organizations;
      return { roles, organizations: orgs, passwordsManagedHere: config.identity.kind === 'embedded' };
    },
  );

  app.get(
    '/users/:id',
    {
      config: { access: { entity: 'Users', verb: 'Read' } },
      schema: { tags, summary: 'One user', params: ById, response: { 200: UserRecord, 404: ErrorBody } },
    },
    async (request) => toUserRecord(await findVisibleUser(db, request.user, request.params.id)),
  );

  app.post(
    '/users',
    {
      config: { access: { entity: 'Users', verb: 'Add' } },
      schema: { tags, summary: 'Add a user', body: UserInput, response: { 201: UserRecord, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => reply.code(201).send(toUserRecord(await saveUser(db, clock, request.user, null, request.body))),
  );

  app.put(
    '/users/:id',
    {
      config: { access: { entity: 'Users', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Change a user (role, lockout and notifications: administrators; organizations: Users Edit with scope All)',
        params: ById,
        body: UpdateBody,
        response: { 200: UserRecord, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const before = await findVisibleUser(db, request.user, request.params.id);
      const { version, ...input } = request.body;
      return toUserRecord(await saveUser(db, clock, request.user, { before, version }, input));
    },
  );

  app.delete(
    '/users/:id',
    {
      config: { access: { entity: 'Users', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a user (administrators)', params: ById, response: { 204: z.null(), 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      await deleteUser(db, request.user, await findVisibleUser(db, request.user, request.params.id));
      return reply.code(204).send(null);
    },
  );
};
