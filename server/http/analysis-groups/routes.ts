import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AnalysisGroup, AnalysisGroupInput, AnalysisGroupSummary, AnalysisSummary } from '../../../core/schemas/analysis-groups';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { analyses, analysisGroups } from '../../db/schema';
import { onUniqueViolation } from '../../db/errors';
import type { RouteDeps } from '../route-deps';
import { Conflict, NotFound } from '../errors';
import { listClauses } from '../list';
import { nameList } from '../reference-lists/routes';
import { findOr404, updateVersioned } from '../../db/versioned';

type GroupRow = typeof analysisGroups.$inferSelect;

const ById = z.object({ id: Id });
const ByAnalysis = z.object({ id: Id, analysisId: Id });
const UpdateBody = AnalysisGroupInput.extend(Versioned.shape);
const tags = ['analysis-groups'];
const what = 'analysis group';

const toGroup = (row: GroupRow): AnalysisGroup => ({ id: row.id, name: row.name, version: row.version, createdAt: row.createdAt.toISOString() });
const duplicate = (name: string) => () => new Conflict(`An analysis group named "${name}" already exists`);

/** Counted over the join below (a join makes Drizzle qualify every column). */
const analysisCount = sql<number>`count(${analyses.id})::int`;
const analysisColumns = {
  id: analyses.id,
  analysisGroupId: analyses.analysisGroupId,
  name: analyses.name,
  label: analyses.label,
  kind: analyses.kind,
  active: analyses.active,
};

/**
 * Analysis groups (spec 2.7) and the list of each group's analyses, under the Analyses permission.
 * Groups hold no organization: every user who may read analyses sees all of them.
 */
export const analysisGroupsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/analysis-groups',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'List analysis groups with their number of analyses', querystring: ListQuery, response: { 200: listOf(AnalysisGroupSummary), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        { name: { expr: analysisGroups.name, sortable: true, searchable: true }, analysisCount: { expr: analysisCount, sortable: true } },
        { defaultSort: 'name:asc', tiebreak: analysisGroups.id },
      );
      const items = await db
        .select({ id: analysisGroups.id, name: analysisGroups.name, version: analysisGroups.version, analysisCount })
        .from(analysisGroups)
        .leftJoin(analyses, eq(analyses.analysisGroupId, analysisGroups.id))
        .where(clauses.where)
        .groupBy(analysisGroups.id)
        .orderBy(...clauses.orderBy)
        .limit(clauses.limit)
        .offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(analysisGroups).where(clauses.where);
      return { items, count: total?.n ?? 0 };
    },
  );

  app.get(
    '/analysis-groups/:id',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'One analysis group', params: ById, response: { 200: AnalysisGroup, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => toGroup(await findOr404(db, analysisGroups, request.params.id, what)),
  );

  app.post(
    '/analysis-groups',
    {
      config: { access: { entity: 'Analyses', verb: 'Add' } },
      schema: { tags, summary: 'Add an analysis group', body: AnalysisGroupInput, response: { 201: AnalysisGroup, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const { name } = request.body;
      const [row] = await onUniqueViolation(() => db.insert(analysisGroups).values({ name }).returning(), duplicate(name));
      return reply.code(201).send(toGroup(row!));
    },
  );

  app.put(
    '/analysis-groups/:id',
    {
      config: { access: { entity: 'Analyses', verb: 'Edit' } },
      schema: { tags, summary: 'Rename an analysis group', params: ById, body: UpdateBody, response: { 200: AnalysisGroup, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { name, version } = request.body;
      return toGroup(await onUniqueViolation(() => updateVersioned(db, analysisGroups, request.params.id, version, { name }, what), duplicate(name)));
    },
  );

  app.delete(
    '/analysis-groups/:id',
    {
      config: { access: { entity: 'Analyses', verb: 'Delete' } },
      schema: { tags, summary: 'Delete an analysis group that has no analyses', params: ById, response: { 204: z.null(), 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const group = await findOr404(db, analysisGroups, request.params.id, what);
      const members = await db.select({ name: analyses.name }).from(analyses).where(eq(analyses.analysisGroupId, group.id)).orderBy(analyses.name).limit(6);
      if (members.length > 0) {
        const [total] = await db.select({ n: count() }).from(analyses).where(eq(analyses.analysisGroupId, group.id));
        const names = nameList(members.map((m) => m.name), total?.n ?? members.length);
        throw new Conflict(`Analysis group "${group.name}" cannot be deleted: it still has analyses (${names})`);
      }
      await db.delete(analysisGroups).where(eq(analysisGroups.id, group.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/analysis-groups/:id/analyses',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'The analyses of a group', params: ById, querystring: ListQuery, response: { 200: listOf(AnalysisSummary), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const group = await findOr404(db, analysisGroups, request.params.id, what);
      const clauses = listClauses(
        request.query,
        {
          name: { expr: analyses.name, sortable: true, searchable: true },
          label: { expr: analyses.label, sortable: true, searchable: true },
          kind: { expr: analyses.kind, sortable: true, searchable: true },
          active: { expr: analyses.active, sortable: true },
        },
        { scope: eq(analyses.analysisGroupId, group.id), defaultSort: 'name:asc', tiebreak: analyses.id },
      );
      const items = await db.select(analysisColumns).from(analyses).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(analyses).where(clauses.where);
      return { items, count: total?.n ?? 0 };
    },
  );

  app.get(
    '/analysis-groups/:id/analyses/:analysisId',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'One analysis of a group, as the group lists it', params: ByAnalysis, response: { 200: AnalysisSummary, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const { id, analysisId } = request.params;
      const [row] = await db.select(analysisColumns).from(analyses).where(and(eq(analyses.id, analysisId), eq(analyses.analysisGroupId, id)));
      if (!row) throw new NotFound(`No analysis with id ${analysisId} in analysis group ${id}`);
      return row;
    },
  );
};
