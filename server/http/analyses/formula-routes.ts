import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, eq } from 'drizzle-orm';
import { z } from 'zod';
import { Formula, FormulaInput, UpdateFormulaBody } from '../../../core/schemas/analyses';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf } from '../../../core/schemas/list';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { analysisConstants, analysisFormulae } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { BadRequest, NotFound } from '../errors';
import { listClauses } from '../list';
import { updateVersioned } from '../../db/versioned';
import { findAnalysis, type AnalysisRow } from './analysis-view';
import { checkFormula, describeFormula } from './formula-checks';

const tags = ['analyses'];
const ByAnalysis = z.object({ id: Id });
const ByFormula = z.object({ id: Id, formulaId: Id });

type FormulaRow = typeof analysisFormulae.$inferSelect;

const COLUMNS = { pattern: { expr: analysisFormulae.pattern, sortable: true, searchable: true } };

const duplicate = (pattern: string) => () => new BadRequest(`This analysis already has a formula for ${pattern}`, [{ path: '/pattern', message: 'Already in the table' }]);

async function constantsOf(db: Db, analysisId: string): Promise<Record<string, number>> {
  const rows = await db.select({ name: analysisConstants.name, value: analysisConstants.value }).from(analysisConstants).where(eq(analysisConstants.analysisId, analysisId));
  return Object.fromEntries(rows.map((r) => [r.name, r.value]));
}

function toFormula(row: FormulaRow, constants: Readonly<Record<string, number>>): Formula {
  return { id: row.id, analysisId: row.analysisId, version: row.version, pattern: row.pattern, expression: row.expression, isExclusion: row.isExclusion, ...describeFormula(row.expression, constants) };
}

async function findFormula(db: Db, analysisId: string, id: string): Promise<FormulaRow> {
  const [row] = await db.select().from(analysisFormulae).where(and(eq(analysisFormulae.id, id), eq(analysisFormulae.analysisId, analysisId)));
  if (!row) throw new NotFound(`No formula with id ${id} in this analysis`);
  return row;
}

/** What a formula row stores for its analysis's kind: an expression, or the exclusion flag. */
const stored = (analysis: AnalysisRow, input: z.infer<typeof FormulaInput>, pattern: string) =>
  analysis.kind === 'Exclusion' ? { pattern, expression: null, isExclusion: input.isExclusion } : { pattern, expression: input.expression!.trim(), isExclusion: null };

/** analyses/{id}/formulae (spec 2.5 FormulaEdit; formulae table: allele expression, information). */
export const formulaRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/analyses/:id/formulae',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: "An analysis's formula table, with each formula in LaTeX", params: ByAnalysis, querystring: ListQuery, response: { 200: listOf(Formula), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const analysis = await findAnalysis(db, request.params.id);
      const clauses = listClauses(request.query, COLUMNS, { scope: eq(analysisFormulae.analysisId, analysis.id), defaultSort: 'pattern:asc', tiebreak: analysisFormulae.id });
      const rows = await db.select().from(analysisFormulae).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(analysisFormulae).where(clauses.where);
      const constants = await constantsOf(db, analysis.id);
      return { items: rows.map((r) => toFormula(r, constants)), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/analyses/:id/formulae/:formulaId',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'One formula', params: ByFormula, response: { 200: Formula, 404: ErrorBody } },
    },
    async (request) => {
      const analysis = await findAnalysis(db, request.params.id);
      return toFormula(await findFormula(db, analysis.id, request.params.formulaId), await constantsOf(db, analysis.id));
    },
  );

  app.post(
    '/analyses/:id/formulae',
    {
      config: { access: { entity: 'Analyses', verb: 'Add' } },
      schema: { tags, summary: 'Add a formula (validated: it parses and uses only the pattern’s letters and known constants)', params: ByAnalysis, body: FormulaInput, response: { 201: Formula, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      const analysis = await findAnalysis(db, request.params.id);
      const constants = await constantsOf(db, analysis.id);
      const pattern = checkFormula(analysis, request.body, Object.keys(constants));
      const [row] = await onUniqueViolation(() => db.insert(analysisFormulae).values({ analysisId: analysis.id, ...stored(analysis, request.body, pattern) }).returning(), duplicate(pattern));
      return reply.code(201).send(toFormula(row!, constants));
    },
  );

  app.put(
    '/analyses/:id/formulae/:formulaId',
    {
      config: { access: { entity: 'Analyses', verb: 'Edit' } },
      schema: { tags, summary: 'Edit a formula', params: ByFormula, body: UpdateFormulaBody, response: { 200: Formula, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const analysis = await findAnalysis(db, request.params.id);
      const current = await findFormula(db, analysis.id, request.params.formulaId);
      const { version, ...input } = request.body;
      const constants = await constantsOf(db, analysis.id);
      const pattern = checkFormula(analysis, input, Object.keys(constants));
      const row = await onUniqueViolation(() => updateVersioned(db, analysisFormulae, current.id, version, stored(analysis, input, pattern), 'formula'), duplicate(pattern));
      return toFormula(row, constants);
    },
  );

  app.delete(
    '/analyses/:id/formulae/:formulaId',
    {
      config: { access: { entity: 'Analyses', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a formula (its pattern is then reported as missing)', params: ByFormula, response: { 204: z.null(), 404: ErrorBody } },
    },
    async (request, reply) => {
      const analysis = await findAnalysis(db, request.params.id);
      const current = await findFormula(db, analysis.id, request.params.formulaId);
      await db.delete(analysisFormulae).where(eq(analysisFormulae.id, current.id));
      return reply.code(204).send(null);
    },
  );
};
