import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { Constant, ConstantInput, UpdateConstantBody } from '../../../core/schemas/analyses';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf } from '../../../core/schemas/list';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { analysisConstants, analysisFormulae } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { BadRequest, Conflict, NotFound } from '../errors';
import { listClauses } from '../list';
import { updateVersioned } from '../../db/versioned';
import { findAnalysis } from './analysis-view';
import { identifiersOf } from './formula-checks';

const tags = ['analyses'];
const ByAnalysis = z.object({ id: Id });
const ByConstant = z.object({ id: Id, constantId: Id });

type ConstantRow = typeof analysisConstants.$inferSelect;
const toConstant = (r: ConstantRow): Constant => ({ id: r.id, analysisId: r.analysisId, name: r.name, notation: r.notation, value: r.value, version: r.version });
const duplicate = (name: string) => () => new BadRequest(`This analysis already has a constant named ${name}`, [{ path: '/name', message: 'Already used in this analysis' }]);

const COLUMNS = {
  name: { expr: analysisConstants.name, sortable: true, searchable: true },
  notation: { expr: analysisConstants.notation, sortable: true, searchable: true },
  value: { expr: analysisConstants.value, sortable: true },
};

async function findConstant(db: Db, analysisId: string, id: string): Promise<ConstantRow> {
  const [row] = await db.select().from(analysisConstants).where(and(eq(analysisConstants.id, id), eq(analysisConstants.analysisId, analysisId)));
  if (!row) throw new NotFound(`No constant with id ${id} in this analysis`);
  return row;
}

/** The allele expressions whose formula names the constant: renaming or deleting it would break them. */
async function formulaeUsing(db: Db, analysisId: string, name: string): Promise<string[]> {
  const rows = await db.select({ pattern: analysisFormulae.pattern, expression: analysisFormulae.expression }).from(analysisFormulae).where(eq(analysisFormulae.analysisId, analysisId));
  return rows.filter((r) => r.expression && identifiersOf(r.expression).has(name)).map((r) => r.pattern);
}

/** analyses/{id}/constants (spec 2.5 ConstantEdit; constants table: name, mathematical notation, value, all sortable). */
export const constantRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/analyses/:id/constants',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: "An analysis's constants", params: ByAnalysis, querystring: ListQuery, response: { 200: listOf(Constant), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const analysis = await findAnalysis(db, request.params.id);
      const clauses = listClauses(request.query, COLUMNS, { scope: eq(analysisConstants.analysisId, analysis.id), defaultSort: 'name:asc', tiebreak: analysisConstants.id });
      const rows = await db.select().from(analysisConstants).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(analysisConstants).where(clauses.where);
      return { items: rows.map(toConstant), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/analyses/:id/constants/:constantId',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'One constant', params: ByConstant, response: { 200: Constant, 404: ErrorBody } },
    },
    async (request) => toConstant(await findConstant(db, (await findAnalysis(db, request.params.id)).id, request.params.constantId)),
  );

  app.post(
    '/analyses/:id/constants',
    {
      config: { access: { entity: 'Analyses', verb: 'Add' } },
      schema: { tags, summary: 'Add a constant', params: ByAnalysis, body: ConstantInput, response: { 201: Constant, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      const analysis = await findAnalysis(db, request.params.id);
      if (analysis.kind !== 'Computational') throw new BadRequest('Only computational analyses have constants');
      const [row] = await onUniqueViolation(() => db.insert(analysisConstants).values({ ...request.body, analysisId: analysis.id }).returning(), duplicate(request.body.name));
      return reply.code(201).send(toConstant(row!));
    },
  );

  app.put(
    '/analyses/:id/constants/:constantId',
    {
      config: { access: { entity: 'Analyses', verb: 'Edit' } },
      schema: { tags, summary: 'Edit a constant', params: ByConstant, body: UpdateConstantBody, response: { 200: Constant, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const analysis = await findAnalysis(db, request.params.id);
      const current = await findConstant(db, analysis.id, request.params.constantId);
      const { version, ...input } = request.body;
      if (input.name !== current.name) {
        const using = await formulaeUsing(db, analysis.id, current.name);
        if (using.length > 0) throw new Conflict(`Constant ${current.name} cannot be renamed: the formulae of ${using.join(', ')} use it.`);
      }
      return toConstant(await onUniqueViolation(() => updateVersioned(db, analysisConstants, current.id, version, input, 'constant'), duplicate(input.name)));
    },
  );

  app.delete(
    '/analyses/:id/constants/:constantId',
    {
      config: { access: { entity: 'Analyses', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a constant no formula uses', params: ByConstant, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const analysis = await findAnalysis(db, request.params.id);
      const current = await findConstant(db, analysis.id, request.params.constantId);
      const using = await formulaeUsing(db, analysis.id, current.name);
      if (using.length > 0) throw new Conflict(`Constant ${current.name} cannot be deleted: the formulae of ${using.join(', ')} use it.`);
      await db.delete(analysisConstants).where(eq(analysisConstants.id, current.id));
      return reply.code(204).send(null);
    },
  );
};

