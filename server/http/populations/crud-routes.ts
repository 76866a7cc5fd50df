import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf } from '../../../core/schemas/list';
import { CreatePopulationBody, Population, UpdatePopulationBody } from '../../../core/schemas/populations';
import { ALL_ORGANIZATIONS } from '../../../core/permissions';
import type { Db } from '../../db/database';
import { populationMarkers, populationOrganizations, populations } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { Conflict } from '../errors';
import { listClauses } from '../list';
import { updateVersioned } from '../../db/versioned';
import type { RouteDeps } from '../route-deps';
import { populationInUse } from './in-use';
import { toPopulation, toPopulations } from './population-view';
import { organizationsAfterUpdate, organizationsForNewPopulation } from './sharing';
import { findVisiblePopulation, sharedOrganizationIds, sharedWithAny, visibleTo } from './visibility';

const tags = ['populations'];
const ById = z.object({ id: Id });
const ByOrganization = z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) });

const LIST_COLUMNS = {
  // Case-insensitive, so "Tenancy both" sorts before "Tenancy Oslo" on every collation.
  name: { expr: sql`lower(${populations.name})`, sortable: true, searchable: true },
  // The calculator offers only populations of its analysis's kind (filter {"kind":"Autosomal"}).
  kind: { expr: populations.kind, sortable: true, searchable: true },
  createdAt: { expr: populations.createdAt, sortable: true },
};

async function listPopulations(db: Db, user: AuthenticatedUser, query: ListQuery, scope: SQL | undefined) {
  const clauses = listClauses(query, LIST_COLUMNS, { scope, defaultSort: 'name:asc', tiebreak: populations.id });
  const rows = await db.select().from(populations).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
  const [total] = await db.select({ n: count() }).from(populations).where(clauses.where);
  return { items: await toPopulations(db, user, rows), count: total?.n ?? 0 };
}

async function shareWith(db: Db, populationId: string, organizationIds: readonly string[]) {
  await db.delete(populationOrganizations).where(eq(populationOrganizations.populationId, populationId));
  if (organizationIds.length > 0) await db.insert(populationOrganizations).values(organizationIds.map((organizationId) => ({ populationId, organizationId })));
}

/** List, read, add, edit and delete populations (spec 2.7, 6, 7.1). */
export const populationCrudRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/populations',
    {
      config: { access: { entity: 'Populations', verb: 'Read' } },
      schema: { tags, summary: 'Populations the user may see', querystring: ListQuery, response: { 200: listOf(Population), 400: ErrorBody } },
    },
    async (request) => listPopulations(db, request.user, request.query, visibleTo(request.user)),
  );

  app.get(
    '/organizations/:orgId/populations',
    {
      config: { access: { entity: 'Populations', verb: 'Read', orgParam: 'orgId' } },
      schema: {
        tags,
        summary: 'Populations shared with an organization (all: every population the user may see)',
        params: ByOrganization,
        querystring: ListQuery,
        response: { 200: listOf(Population), 400: ErrorBody },
      },
    },
    async (request) => {
      const { orgId } = request.params;
      return listPopulations(db, request.user, request.query, orgId === ALL_ORGANIZATIONS ? visibleTo(request.user) : sharedWithAny([orgId]));
    },
  );

  app.get(
    '/populations/:id',
    {
      config: { access: { entity: 'Populations', verb: 'Read' } },
      schema: { tags, summary: 'One population', params: ById, response: { 200: Population, 404: ErrorBody } },
    },
    async (request) => toPopulation(db, request.user, await findVisiblePopulation(db, request.user, request.params.id)),
  );

  app.post(
    '/populations',
    {
      config: { access: { entity: 'Populations', verb: 'Add' } },
      schema: { tags, summary: 'Add a population', body: CreatePopulationBody, response: { 201: Population, 400: ErrorBody, 403: ErrorBody } },
    },
    async (request, reply) => {
      const { name, kind, minimumAlleleFrequency, organizationIds } = request.body;
      const shared = await organizationsForNewPopulation(db, request.user, organizationIds);
      const row = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [created] = await t
          .insert(populations)
          .values({ name, kind, ...(minimumAlleleFrequency === undefined ? {} : { minimumAlleleFrequency }) })
          .returning();
        await shareWith(t, created!.id, shared);
        return created!;
      });
      return reply.code(201).send(await toPopulation(db, request.user, row));
    },
  );

  app.put(
    '/populations/:id',
    {
      config: { access: { entity: 'Populations', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Edit a population (its organizations: administrators with scope All only)',
        params: ById,
        body: UpdatePopulationBody,
        response: { 200: Population, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const current = await findVisiblePopulation(db, request.user, request.params.id);
      const { name, kind, minimumAlleleFrequency, organizationIds, version } = request.body;
      const shared = await organizationsAfterUpdate(db, request.user, await sharedOrganizationIds(db, current.id), organizationIds);
      if (kind !== current.kind && (await hasStatistics(db, current.id))) {
        throw new Conflict('The kind of a population cannot change once it has statistics.');
      }
      const row = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const updated = await updateVersioned(t, populations, current.id, version, { name, kind, minimumAlleleFrequency }, 'population');
        if (shared) await shareWith(t, current.id, shared);
        return updated;
      });
      return toPopulation(db, request.user, row);
    },
  );

  app.delete(
    '/populations/:id',
    {
      config: { access: { entity: 'Populations', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a population and its statistics', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findVisiblePopulation(db, request.user, request.params.id);
      const use = await populationInUse(db, row.id);
      if (use) throw new Conflict(`Population "${row.name}" cannot be deleted: ${use}`);
      // Organizations, markers, alleles and haplotypes go with it (ON DELETE CASCADE).
      await db.delete(populations).where(eq(populations.id, row.id));
      return reply.code(204).send(null);
    },
  );
};

/** Statistics fix the kind: alleles of autosomal markers cannot become a haplotype table. */
async function hasStatistics(db: Db, populationId: string): Promise<boolean> {
  return (await db.$count(populationMarkers, eq(populationMarkers.populationId, populationId))) > 0;
}
