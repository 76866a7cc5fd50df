import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { Profile, ProfileListQuery } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { profiles } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { findVisibleCase } from '../cases/case-access';
import { listClauses } from '../list';
import { countProfiles, PROFILE_LIST_COLUMNS, reachableProfiles, selectProfiles, toProfile } from './profile-query';

const tags = ['profiles'];

async function listProfiles(db: Db, query: ProfileListQuery, scope: SQL | undefined) {
  const where = and(scope, query.status ? eq(profiles.status, query.status) : undefined);
  const clauses = listClauses(query, PROFILE_LIST_COLUMNS, { scope: where, defaultSort: 'updatedAt:desc', tiebreak: profiles.id });
  const rows = await selectProfiles(db).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
  const [total] = await countProfiles(db).where(clauses.where);
  return { items: rows.map(toProfile), count: total?.n ?? 0 };
}

/** Profile tables (spec 2.3): every reachable organization, one organization (Review: `status=pending`), one case. */
export const profileListRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/profiles',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: { tags, summary: 'Profiles of every organization the user reaches', querystring: ProfileListQuery, response: { 200: listOf(Profile), 400: ErrorBody } },
    },
    async (request) => listProfiles(db, request.query, reachableProfiles(request.user)),
  );

  app.get(
    '/organizations/:orgId/profiles',
    {
      config: { access: { entity: 'Profiles', verb: 'Read', orgParam: 'orgId' } },
      schema: {
        tags,
        summary: "An organization's profiles (all: every organization the user reaches); status=pending is the Review list",
        params: z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) }),
        querystring: ProfileListQuery,
        response: { 200: listOf(Profile), 400: ErrorBody },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      return listProfiles(db, request.query, orgId === ALL_ORGANIZATIONS ? reachableProfiles(request.user) : eq(profiles.organizationId, orgId));
    },
  );

  app.get(
    '/cases/:caseId/profiles',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: { tags, summary: "A case's profiles", params: z.object({ caseId: Id }), querystring: ProfileListQuery, response: { 200: listOf(Profile), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      return listProfiles(db, request.query, eq(profiles.caseId, found.id));
    },
  );
};
