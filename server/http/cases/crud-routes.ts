import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq, ilike, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, can } from '../../../core/permissions';
import { Case, CASE_STATUSES, CaseInput, CaseSettingsInput, UpdateCaseBody } from '../../../core/schemas/cases';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf } from '../../../core/schemas/list';
import { appendAudit } from '../../audit/audit-trail';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { countedRows } from '../../db/row-counts';
import { caseAssignedUsers, cases, caseTypes, organizations, profiles, users } from '../../db/schema';
import type { Access } from '../access';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Conflict } from '../errors';
import { containsPattern, LIST_TUNING, listClauses, matchNamedRows, namedIdsMatch, planPage, valuesContaining, type ListColumn, type NamedIds } from '../list';
import { searchedTexts } from '../profiles/profile-query';
import { pageRows, type ListScope } from '../list-page';
import { inReachableOrganizations, reachableOrganizations } from '../tenancy';
import { updateVersioned } from '../../db/versioned';
import { findVisibleCase } from './case-access';
import { checkCaseInput, eligibleUsers } from './case-rules';
import { readCases, toCase } from './case-view';

const tags = ['cases'];
const ById = z.object({ id: Id });
const ByOrganization = z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) });
const FormOptionsQuery = z.object({ organizationId: Id.optional() });
const CaseFormOptions = z.object({
  caseTypes: z.array(z.object({ id: Id, name: z.string() })),
  organizations: z.array(z.object({ id: Id, name: z.string() })),
  users: z.array(z.object({ id: Id, name: z.string(), email: z.string() })),
});

/** The case form's options: whoever may add or edit cases. */
export const CASE_FORM_ACCESS: Access = { rule: 'Cases Add or Cases Edit', allows: (user) => can(user, 'Cases', 'Add') || can(user, 'Cases', 'Edit') };

/** A name of the row `fk` points at, lowercased, as one value per case (the list's id query reads cases alone). */
const nameOf = (column: SQLWrapper, table: SQLWrapper, id: SQLWrapper, fk: SQLWrapper) => sql`(select lower(${column}) from ${table} where ${id} = ${fk})`;

/** The small named tables a case refers to by id, searched by name (list.ts matchNamedRows). */
const CASE_NAMED_TABLES = {
  caseType: { table: caseTypes, id: caseTypes.id, name: caseTypes.name },
  organization: { table: organizations, id: organizations.id, name: organizations.name },
};
type CaseNamed = keyof typeof CASE_NAMED_TABLES;

/**
 * The case list's columns over the cases table alone. Each searchable column matches through an index or a
 * constant (issue 29): `lower(case_number) ILIKE` and a name subquery per row read every case and ran two
 * subqueries for each (PGlite's case search p95 68.6 ms at 10,000 cases), where the number by its trigram
 * index (cases_case_number_trgm_idx), the case type and organization by ids looked up first and the status by
 * value leave the planner index probes.
 */
function caseListColumns(named: Map<string, Record<CaseNamed, NamedIds>>): Record<string, ListColumn> {
  const inIds = (column: SQLWrapper, kind: CaseNamed) => (text: string) => namedIdsMatch(column, CASE_NAMED_TABLES[kind], named.get(text)?.[kind], text);
  return {
    caseNumber: { expr: sql`lower(${cases.caseNumber})`, sortable: true, searchable: true, matches: (text) => ilike(cases.caseNumber, containsPattern(text)) },
    caseType: { expr: nameOf(caseTypes.name, caseTypes, caseTypes.id, cases.caseTypeId), sortable: true, searchable: true, matches: inIds(cases.caseTypeId, 'caseType') },
    organization: { expr: nameOf(organizations.name, organizations, organizations.id, cases.organizationId), sortable: true, searchable: true, matches: inIds(cases.organizationId, 'organization') },
    status: {
      expr: cases.status,
      sortable: true,
      searchable: true,
      matches: (text) => {
        const values = valuesContaining(CASE_STATUSES, text);
        return values.length > 0 ? inArray(cases.status, values) : undefined;
      },
    },
    createdAt: { expr: cases.createdAt, sortable: true },
    updatedAt: { expr: cases.updatedAt, sortable: true },
  };
}

const duplicateNumber = (caseNumber: string) =>
  new BadRequest(`A case ${caseNumber} already exists in this organization`, [{ path: '/caseNumber', message: 'Already exists in this organization' }]);

/**
 * A page of cases (issue 29): as the profile list, the page's ids from the cases table alone by its list index
 * (cases_list_organization_idx or cases_list_updated_idx, migration 0018; a deep page read from the end), then
 * that page's names. The count is exact: from row_counts for an organization scope, else counted.
 */
export async function listCases(db: Db, query: ListQuery, scope: ListScope) {
  const named = await matchNamedRows(db, searchedTexts(query), CASE_NAMED_TABLES);
  const clauses = listClauses(query, caseListColumns(named), { scope: scope.where, defaultSort: 'updatedAt:desc', tiebreak: cases.id });
  const total = scope.organizations && !clauses.narrowed ? await countedRows(db, 'cases', scope.organizations) : await db.$count(cases, clauses.where);
  const page = await planPage(db, sql`${cases}`, clauses, LIST_TUNING, total);
  const rows = await pageRows(
    page,
    cases.id,
    db.select({ id: cases.id }).from(cases).where(clauses.where).orderBy(...page.orderBy).limit(page.limit).offset(page.offset),
    (onPage, orderBy) => readCases(db, onPage, orderBy),
  );
  return { items: rows, count: total };
}

async function assign(db: Db, caseId: string, userIds: readonly string[]) {
  await db.delete(caseAssignedUsers).where(eq(caseAssignedUsers.caseId, caseId));
  const unique = [...new Set(userIds)];
  if (unique.length > 0) await db.insert(caseAssignedUsers).values(unique.map((userId) => ({ caseId, userId })));
}

/** Cases (spec 2.8, 3, 6): list, read, add, edit, settings and delete, each write audited. */
export const caseCrudRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.get(
    '/cases',
    {
      config: { access: { entity: 'Cases', verb: 'Read' } },
      schema: { tags, summary: 'Cases of every organization the user reaches', querystring: ListQuery, response: { 200: listOf(Case), 400: ErrorBody } },
    },
    async (request) => listCases(db, request.query, { where: inReachableOrganizations(cases.organizationId, request.user), organizations: reachableOrganizations(request.user) }),
  );

  app.get(
    '/organizations/:orgId/cases',
    {
      config: { access: { entity: 'Cases', verb: 'Read', orgParam: 'orgId' } },
      schema: { tags, summary: "An organization's cases (all: every organization the user reaches)", params: ByOrganization, querystring: ListQuery, response: { 200: listOf(Case), 400: ErrorBody } },
    },
    async (request) => {
      const { orgId } = request.params;
      const scope: ListScope =
        orgId === ALL_ORGANIZATIONS
          ? { where: inReachableOrganizations(cases.organizationId, request.user), organizations: reachableOrganizations(request.user) }
          : { where: eq(cases.organizationId, orgId), organizations: [orgId] };
      return listCases(db, request.query, scope);
    },
  );

  app.get(
    '/cases/form-options',
    {
      config: { access: CASE_FORM_ACCESS },
      schema: { tags, summary: 'Case types, organizations and assignable users the case form offers', querystring: FormOptionsQuery, response: { 200: CaseFormOptions } },
    },
    async (request) => {
      const user = request.user;
      const [types, orgs] = await Promise.all([
        db.select({ id: caseTypes.id, name: caseTypes.name }).from(caseTypes).orderBy(asc(caseTypes.name)),
        db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(inReachableOrganizations(organizations.id, user)).orderBy(asc(organizations.name)),
      ]);
      const orgId = request.query.organizationId;
      let assignable: { id: string; name: string; email: string }[] = [];
      if (orgId && orgs.some((o) => o.id === orgId)) {
        const ids = [...(await eligibleUsers(db, orgId))];
        const rows = ids.length === 0 ? [] : await db.select().from(users).where(inArray(users.id, ids)).orderBy(asc(users.lastName), asc(users.firstName));
        assignable = rows.filter((u) => !u.lockedAt).map((u) => ({ id: u.id, name: `${u.firstName} ${u.lastName}`.trim() || u.email, email: u.email }));
      }
      return { caseTypes: types, organizations: orgs, users: assignable };
    },
  );

  app.get(
    '/cases/:id',
    {
      config: { access: { entity: 'Cases', verb: 'Read' } },
      schema: { tags, summary: 'One case', params: ById, response: { 200: Case, 404: ErrorBody } },
    },
    async (request) => toCase(db, await findVisibleCase(db, request.user, request.params.id)),
  );

  app.post(
    '/cases',
    {
      config: { access: { entity: 'Cases', verb: 'Add' } },
      schema: { tags, summary: 'Add a case', body: CaseInput, response: { 201: Case, 400: ErrorBody, 403: ErrorBody } },
    },
    async (request, reply) => {
      const input = request.body;
      await checkCaseInput(db, request.user, input);
      const created = await onUniqueViolation(
        () =>
          db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            const [row] = await t.insert(cases).values({ caseNumber: input.caseNumber, caseTypeId: input.caseTypeId, organizationId: input.organizationId }).returning();
            await assign(t, row!.id, input.assignedUserIds);
            const view = await toCase(t, row!);
            await appendAudit(t, auditActor(request.user), clock, { entity: 'Case', entityId: row!.id, action: 'Added', caseId: row!.id, organizationId: row!.organizationId, after: view });
            return view;
          }),
        () => duplicateNumber(input.caseNumber),
      );
      return reply.code(201).send(created);
    },
  );

  app.put(
    '/cases/:id',
    {
      config: { access: { entity: 'Cases', verb: 'Edit' } },
      schema: { tags, summary: 'Edit a case (number, type, organization, assigned users)', params: ById, body: UpdateCaseBody, response: { 200: Case, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const current = await findVisibleCase(db, request.user, request.params.id);
      const { version, ...input } = request.body;
      await checkCaseInput(db, request.user, input);
      return onUniqueViolation(
        () =>
          db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            const before = await toCase(t, current);
            const row = await updateVersioned(t, cases, current.id, version, { caseNumber: input.caseNumber, caseTypeId: input.caseTypeId, organizationId: input.organizationId }, 'case');
            // Profiles carry their case's organization for tenancy filtering: they move with the case.
            if (input.organizationId !== current.organizationId) {
              await t.update(profiles).set({ organizationId: input.organizationId }).where(eq(profiles.caseId, current.id));
            }
            await assign(t, current.id, input.assignedUserIds);
            const after = await toCase(t, row);
            await appendAudit(t, auditActor(request.user), clock, { entity: 'Case', entityId: row.id, action: 'Edited', caseId: row.id, organizationId: row.organizationId, before, after });
            return after;
          }),
        () => duplicateNumber(input.caseNumber),
      );
    },
  );

  app.put(
    '/cases/:id/settings',
    {
      config: { access: { entity: 'Cases', verb: 'ChangeSettings' } },
      schema: { tags, summary: 'Change the case settings (open or closed, notes)', params: ById, body: CaseSettingsInput, response: { 200: Case, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const current = await findVisibleCase(db, request.user, request.params.id);
      const { status, notes, version } = request.body;
      return db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const row = await updateVersioned(t, cases, current.id, version, { status, notes }, 'case');
        await appendAudit(t, auditActor(request.user), clock, {
          entity: 'Case',
          entityId: row.id,
          action: 'Settings changed',
          caseId: row.id,
          organizationId: row.organizationId,
          before: { status: current.status, notes: current.notes },
          after: { status, notes },
        });
        return toCase(t, row);
      });
    },
  );

  app.delete(
    '/cases/:id',
    {
      config: { access: { entity: 'Cases', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a case that has no profiles', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findVisibleCase(db, request.user, request.params.id);
      const n = await db.$count(profiles, eq(profiles.caseId, row.id));
      if (n > 0) throw new Conflict(`Case ${row.caseNumber} cannot be deleted: it has ${n} profile${n === 1 ? '' : 's'}. Delete them first.`);
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const before = await toCase(t, row);
        await t.delete(cases).where(eq(cases.id, row.id));
        await appendAudit(t, auditActor(request.user), clock, { entity: 'Case', entityId: row.id, action: 'Deleted', caseId: row.id, organizationId: row.organizationId, before });
      });
      return reply.code(204).send(null);
    },
  );
};


