import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf, type ListResult } from '../../../core/schemas/list';
import { Profile, ProfileListQuery } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { countedRows } from '../../db/row-counts';
import { profiles } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { findVisibleCase } from '../cases/case-access';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { countList, LIST_TUNING, listClauses, planPage, type ListTuning } from '../list';
import { pageRows, type ListScope } from '../list-page';
import { reachableOrganizations } from '../tenancy';
import { matchProfileNamedRows, profileListColumns, reachableProfiles, searchedTexts, readShownProfiles, toProfile } from './profile-query';

const tags = ['profiles'];

/**
 * A page of profiles (issues 15 and 29, measured at 1M profiles in PostgreSQL). The page's ids come from the profiles
 * table alone, in the list's order, and only those rows are joined with the names they show (list-page.ts). The
 * default sort (updatedAt desc, then id) reads an index backwards without visiting the table: one organization's
 * profiles_list_organization_idx, the pending ones' profiles_list_pending_idx (Review), every organization's
 * profiles_list_updated_idx (migrations 0009, 0010, 0018); a page far down the list reads it backwards from the
 * end (planPage). Page and pageSize stay the contract rather than a keyset cursor: the grid's scrollbar jumps to
 * any row, which a cursor cannot reach without walking there. The count of an organization scope, by status, is
 * exact from row_counts; a searched, filtered or case list's is exact up to EXACT_COUNT_LIMIT matching rows, at the
 * list's end or on a page read from the end, else an estimate (`estimated`: the table says "about"). Other sorts
 * have no index: at 1M rows they sort every row (1.5–3.5 s).
 */
export async function listProfiles(db: Db, query: ProfileListQuery, scope: ListScope, tuning: ListTuning = LIST_TUNING): Promise<ListResult<Profile> & { estimated?: true }> {
  const where = and(scope.where, query.status ? eq(profiles.status, query.status) : undefined);
  const named = await matchProfileNamedRows(db, searchedTexts(query));
  const clauses = listClauses(query, profileListColumns(named), { scope: where, defaultSort: 'updatedAt:desc', tiebreak: profiles.id });
  const known = scope.organizations && !clauses.narrowed ? await countedRows(db, 'profiles', scope.organizations, query.status ? [query.status] : undefined) : undefined;
  const page = await planPage(db, sql`${profiles}`, clauses, tuning, known);
  const rows = await pageRows(
    page,
    profiles.id,
    db.select({ id: profiles.id }).from(profiles).where(clauses.where).orderBy(...page.orderBy).limit(page.limit).offset(page.offset),
    (onPage, orderBy) => readShownProfiles(db, onPage, orderBy),
  );
  const counted = await countList(db, sql`${profiles}`, clauses.where, { offset: clauses.offset, pageSize: clauses.limit, returned: rows.length, total: page.total }, tuning);
  return { items: rows.map(toProfile), ...counted };
}

/** The profiles of every organization the user reaches (spec 6), counted by row_counts. */
export const reachableProfileScope = (user: AuthenticatedUser): ListScope => ({ where: reachableProfiles(user), organizations: reachableOrganizations(user) });

/** Profile tables (spec 2.3): every reachable organization, one organization (Review: `status=pending`), one case. */
export const profileListRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/profiles',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: { tags, summary: 'Profiles of every organization the user reaches', querystring: ProfileListQuery, response: { 200: listOf(Profile), 400: ErrorBody } },
    },
    async (request) => listProfiles(db, request.query, reachableProfileScope(request.user)),
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
      return listProfiles(db, request.query, orgId === ALL_ORGANIZATIONS ? reachableProfileScope(request.user) : { where: eq(profiles.organizationId, orgId), organizations: [orgId] });
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
      return listProfiles(db, request.query, { where: eq(profiles.caseId, found.id) });
    },
  );
};
