import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import { Analysis, CreateAnalysisBody, UpdateAnalysisBody } from '../../../core/schemas/analyses';
import { ErrorBody, Id } from '../../../core/schemas/common';
import type { Db } from '../../db/database';
import { analyses, analysisFormulae, analysisGroups, hits, searchRules } from '../../db/schema';
import { hitsUsing } from '../../hits/hits-using';
import type { RouteDeps } from '../route-deps';
import { BadRequest, Conflict } from '../errors';
import { findOr404, updateVersioned } from '../../db/versioned';
import { findAnalysis, toAnalysis } from './analysis-view';
import { checkAnalysisPedigree } from './pedigree-checks';
import { checkAnalysisMixture } from './mixture-checks';

const tags = ['analyses'];
const ById = z.object({ id: Id });

/** Names are unique within their group, whatever their case. */
async function assertNameFree(db: Db, groupId: string, name: string, except?: string): Promise<void> {
  const rows = await db
    .select({ id: analyses.id, name: analyses.name })
    .from(analyses)
    .where(and(eq(analyses.analysisGroupId, groupId), except ? ne(analyses.id, except) : undefined));
  if (rows.some((r) => r.name.toLowerCase() === name.toLowerCase())) {
    throw new BadRequest(`This group already has an analysis named "${name}"`, [{ path: '/name', message: 'Already used in this group' }]);
  }
}

/** Analyses (spec 2.5 AnalysisEdit): read with completeness, add, edit, delete. */
export const analysisRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/analyses/:id',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: { tags, summary: 'One analysis, with the allele expressions its formula table lacks', params: ById, response: { 200: Analysis, 404: ErrorBody } },
    },
    async (request) => toAnalysis(db, await findAnalysis(db, request.params.id)),
  );

  app.post(
    '/analyses',
    {
      config: { access: { entity: 'Analyses', verb: 'Add' } },
      schema: { tags, summary: 'Add an analysis to a group', body: CreateAnalysisBody, response: { 201: Analysis, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      const { analysisGroupId, ...input } = request.body;
      await findOr404(db, analysisGroups, analysisGroupId, 'analysis group');
      await assertNameFree(db, analysisGroupId, input.name);
      const pedigree = input.pedigree ?? null;
      const mutation = input.mutation ?? null;
      const mixture = input.mixture ?? null;
      checkAnalysisPedigree(input, pedigree, mutation);
      checkAnalysisMixture(input, mixture, pedigree);
      const [row] = await db.insert(analyses).values({ ...input, pedigree, mutation, mixture, analysisGroupId }).returning();
      return reply.code(201).send(await toAnalysis(db, row!));
    },
  );

  app.put(
    '/analyses/:id',
    {
      config: { access: { entity: 'Analyses', verb: 'Edit' } },
      schema: { tags, summary: 'Edit an analysis', params: ById, body: UpdateAnalysisBody, response: { 200: Analysis, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const current = await findAnalysis(db, request.params.id);
      const { version, ...input } = request.body;
      await assertNameFree(db, current.analysisGroupId, input.name, current.id);
      // Absent: as stored (forms that do not show the pedigree keep it).
      const pedigree = input.pedigree === undefined ? current.pedigree : input.pedigree;
      const mutation = input.mutation === undefined ? current.mutation : input.mutation;
      const mixture = input.mixture === undefined ? current.mixture : input.mixture;
      checkAnalysisPedigree(input, pedigree, mutation);
      checkAnalysisMixture(input, mixture, pedigree);
      const shapeChanges = input.roles.length !== current.roles.length || input.kind !== current.kind || input.profileKind !== current.profileKind;
      if (shapeChanges && (await db.$count(analysisFormulae, eq(analysisFormulae.analysisId, current.id))) > 0) {
        throw new Conflict('The kind, the profile kind and the number of roles fix the formula table; delete its formulae before changing them.');
      }
      return toAnalysis(db, await updateVersioned(db, analyses, current.id, version, { ...input, pedigree, mutation, mixture }, 'analysis'));
    },
  );

  app.delete(
    '/analyses/:id',
    {
      config: { access: { entity: 'Analyses', verb: 'Delete' } },
      schema: { tags, summary: 'Delete an analysis with its formulae and constants', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findAnalysis(db, request.params.id);
      // An analysis that found hits is kept, so they stay reproducible (deactivate it instead).
      const use = await hitsUsing(db, hits.analysisId, row.id);
      if (use) throw new Conflict(`Analysis ${row.name} cannot be deleted: ${use}. Deactivate it instead.`);
      // A search rule names its analysis: the rule is changed or deleted first (Search rules).
      const rules = await db.select({ name: searchRules.name }).from(searchRules).where(eq(searchRules.analysisId, row.id));
      if (rules.length > 0) throw new Conflict(`Analysis ${row.name} cannot be deleted: the search ${rules.length === 1 ? 'rule' : 'rules'} ${rules.map((r) => r.name).join(', ')} ${rules.length === 1 ? 'uses' : 'use'} it. Change or delete ${rules.length === 1 ? 'that rule' : 'those rules'} first, or deactivate the analysis.`);
      await db.delete(analyses).where(eq(analyses.id, row.id));
      return reply.code(204).send(null);
    },
  );
};
