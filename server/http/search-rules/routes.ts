import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, count, eq, notInArray, sql } from 'drizzle-orm';
import { CONTINUOUS_MIXTURE } from '../../../core/schemas/analyses';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, STALE_RECORD_MESSAGE } from '../../../core/schemas/list';
import { SearchRule, SearchRuleFormOptions, SearchRuleInput, SearchRuleUpdate } from '../../../core/schemas/search-rules';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { analyses, analysisGroups, populations, searchRulePopulations, searchRules } from '../../db/schema';
import { auditBefore } from '../administration-audit';
import { Conflict, NotFound } from '../errors';
import { listClauses } from '../list';
import { visibleTo } from '../populations/visibility';
import type { RouteDeps } from '../route-deps';
import { findOr404, updateVersioned } from '../../db/versioned';
import { assertRuleValid, duplicateName } from './rule-checks';
import { toSearchRule, toSearchRules } from './rule-view';

const tags = ['search-rules'];
const what = 'search rule';
const ById = z.object({ id: Id });

const LIST_COLUMNS = {
  // Case-insensitive, as the unique name is.
  name: { expr: sql`lower(${searchRules.name})`, sortable: true, searchable: true },
  trigger: { expr: searchRules.trigger, sortable: true, searchable: true },
  searchingSampleTypes: { expr: sql`array_to_string(${searchRules.searchingSampleTypes}, ', ')`, sortable: true, searchable: true },
  searchedSampleTypes: { expr: sql`array_to_string(${searchRules.searchedSampleTypes}, ', ')`, sortable: true, searchable: true },
  analysisName: { expr: analyses.name, sortable: true, searchable: true },
  stringency: { expr: searchRules.stringency, sortable: true },
  active: { expr: searchRules.active, sortable: true },
  createdAt: { expr: searchRules.createdAt, sortable: true },
  updatedAt: { expr: searchRules.updatedAt, sortable: true },
};

/** The rule's own columns; its populations are rows of search_rule_populations. */
const columnsOf = ({ populationIds: _, ...rule }: SearchRuleInput) => rule;

/** Keeps the rule's populations in the order given (position = index). */
async function writePopulations(tx: Db, ruleId: string, populationIds: readonly string[]): Promise<void> {
  await tx.delete(searchRulePopulations).where(eq(searchRulePopulations.searchRuleId, ruleId));
  if (populationIds.length > 0) {
    await tx.insert(searchRulePopulations).values(populationIds.map((populationId, position) => ({ searchRuleId: ruleId, populationId, position })));
  }
}

/**
 * Search rules (ARCHITECTURE.md "Search policy"): what approving a profile searches it against, or
 * what a familial search on request runs. One policy for every organization: reading needs
 * SearchRules Read, writing an administrator with scope All (core/permissions.ts). Registered among
 * the administration areas, so each write is audited with the rule before and after.
 */
export const searchRulesRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/search-rules',
    {
      config: { access: { entity: 'SearchRules', verb: 'Read' } },
      schema: { tags, summary: 'List search rules', querystring: ListQuery, response: { 200: listOf(SearchRule), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(request.query, LIST_COLUMNS, { defaultSort: 'name:asc', tiebreak: searchRules.id });
      const rows = await db
        .select({ rule: searchRules })
        .from(searchRules)
        .innerJoin(analyses, eq(analyses.id, searchRules.analysisId))
        .where(clauses.where)
        .orderBy(...clauses.orderBy)
        .limit(clauses.limit)
        .offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(searchRules).innerJoin(analyses, eq(analyses.id, searchRules.analysisId)).where(clauses.where);
      return { items: await toSearchRules(db, rows.map((r) => r.rule)), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/search-rules/form-options',
    {
      config: { access: { entity: 'SearchRules', verb: 'Read' } },
      schema: { tags, summary: 'The analyses and populations a search rule may name', response: { 200: SearchRuleFormOptions } },
    },
    async (request) => {
      const analysisRows = await db
        .select({
          id: analyses.id,
          name: analyses.name,
          groupName: analysisGroups.name,
          kind: analyses.kind,
          profileKind: analyses.profileKind,
          roles: analyses.roles,
          threshold: analyses.threshold,
          active: analyses.active,
        })
        .from(analyses)
        .innerJoin(analysisGroups, eq(analysisGroups.id, analyses.analysisGroupId))
        // A family searches from its case; the continuous model's database search is not a rule's yet.
        .where(notInArray(analyses.kind, ['Pedigree', CONTINUOUS_MIXTURE]))
        .orderBy(asc(analysisGroups.name), asc(analyses.name));
      const populationRows = await db
        .select({ id: populations.id, name: populations.name, kind: populations.kind, synthetic: populations.synthetic })
        .from(populations)
        .where(visibleTo(request.user))
        .orderBy(asc(sql`lower(${populations.name})`));
      return {
        analyses: analysisRows.map(({ roles, ...a }) => ({
          ...a,
          kind: a.kind as 'Computational' | 'Exclusion' | 'Mixture',
          profileKind: a.profileKind as 'Autosomal' | 'YStr',
          roleCount: roles.length,
        })),
        populations: populationRows.map((p) => ({ ...p, kind: p.kind as 'Autosomal' | 'YStr' })),
      };
    },
  );

  app.get(
    '/search-rules/:id',
    {
      config: { access: { entity: 'SearchRules', verb: 'Read' } },
      schema: { tags, summary: 'One search rule', params: ById, response: { 200: SearchRule, 400: ErrorBody, 404: ErrorBody } },
    },
    async (request) => toSearchRule(db, await findOr404(db, searchRules, request.params.id, what)),
  );

  app.post(
    '/search-rules',
    {
      config: { access: { entity: 'SearchRules', verb: 'Add' } },
      schema: { tags, summary: 'Add a search rule', body: SearchRuleInput, response: { 201: SearchRule, 400: ErrorBody } },
    },
    async (request, reply) => {
      const input = request.body;
      const rule = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await assertRuleValid(tx, input, null);
        const [row] = await onUniqueViolation(() => tx.insert(searchRules).values(columnsOf(input)).returning(), duplicateName);
        await writePopulations(tx, row!.id, input.populationIds);
        return toSearchRule(tx, row!);
      });
      return reply.code(201).send(rule);
    },
  );

  app.put(
    '/search-rules/:id',
    {
      config: { access: { entity: 'SearchRules', verb: 'Edit' } },
      schema: { tags, summary: 'Change a search rule', params: ById, body: SearchRuleUpdate, response: { 200: SearchRule, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { id } = request.params;
      const { version, ...input } = request.body;
      const { before, after } = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // Locked, so the state the trail records as "before" is the one this save replaces.
        const [current] = await tx.select().from(searchRules).where(eq(searchRules.id, id)).for('update');
        if (!current) throw new NotFound(`This ${what} no longer exists`);
        if (current.version !== version) throw new Conflict(STALE_RECORD_MESSAGE);
        const previous = await toSearchRule(tx, current);
        await assertRuleValid(tx, input, id);
        const updated = await onUniqueViolation(() => updateVersioned(tx, searchRules, id, version, columnsOf(input), what), duplicateName);
        await writePopulations(tx, id, input.populationIds);
        return { before: previous, after: await toSearchRule(tx, updated) };
      });
      auditBefore(request, before);
      return after;
    },
  );

  app.delete(
    '/search-rules/:id',
    {
      config: { access: { entity: 'SearchRules', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a search rule (its hits stay, no longer naming it)', params: ById, response: { 204: z.null(), 400: ErrorBody, 404: ErrorBody } },
    },
    async (request, reply) => {
      const before = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const rule = await toSearchRule(tx, await findOr404(tx, searchRules, request.params.id, what));
        await tx.delete(searchRules).where(eq(searchRules.id, rule.id));
        return rule;
      });
      auditBefore(request, before);
      return reply.code(204).send(null);
    },
  );
};
