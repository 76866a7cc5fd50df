import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, eq, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { appendAudit, type AuditActor } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import type { RouteDeps } from '../route-deps';
import { auditActor } from '../audit-actor';
import { BadRequest, Conflict, NotFound } from '../errors';
import { listClauses, type ListColumn } from '../list';
import { updateVersioned } from '../../db/versioned';
import { findVisibleCase } from './case-access';

type ChildTable = PgTable & { id: PgColumn; version: PgColumn; updatedAt: PgColumn; caseId: PgColumn; createdAt: PgColumn };

/** A record kept inside a case (involved parties, physical items): listed, added, edited and deleted with the case's rights. */
export interface CaseChild<T extends ChildTable, Input extends z.ZodObject, Item extends z.ZodType> {
  /** Path segment under /cases/:caseId (spec 7.1). */
  path: string;
  table: T;
  /** How messages and the audit trail name it. */
  what: string;
  auditEntity: string;
  input: Input;
  item: Item;
  toItem(row: T['$inferSelect']): z.infer<Item>;
  columns: Record<string, ListColumn>;
  defaultSort: string;
  /** The columns an input writes, where they differ from the input (e.g. an instant sent as text). */
  toValues?(input: z.infer<Input>): Record<string, unknown>;
  /** The 400 for a unique violation (e.g. an item id used twice in a case). */
  duplicate?(input: z.infer<Input>): Error;
  /** Why the record cannot be deleted (what still uses it), or null. */
  inUse?(db: Db, row: T['$inferSelect']): Promise<string | null>;
  /** Adds what other tables say about the records (e.g. the profiles linked to a party) to the answers. */
  present?(db: Db, items: z.infer<Item>[]): Promise<z.infer<Item>[]>;
  /** Undoes, audited and in the delete's transaction, what would otherwise change silently with the record (e.g. profiles' links). */
  beforeDelete?(db: Db, row: T['$inferSelect'], who: { actor: AuditActor; clock: Clock }): Promise<void>;
}

/** The five calls of a case child (spec 7.1 nested paths); reading needs Cases Read, writing Cases Edit. */
export function caseChildRoutes<T extends ChildTable, Input extends z.ZodObject, Item extends z.ZodType>(
  child: CaseChild<T, Input, Item>,
): FastifyPluginAsyncZod<RouteDeps> {
  const { table, what } = child;
  const tags = ['cases'];
  const ByCase = z.object({ caseId: Id });
  const ById = z.object({ caseId: Id, id: Id });
  const UpdateBody = child.input.extend(Versioned.shape) as z.ZodObject;
  // Erased to plain zod types: the route types stay concrete, the factory's generics stay in its signature.
  const itemSchema = child.item as z.ZodType;
  const inputSchema = child.input as z.ZodObject;
  const duplicate = (input: z.infer<Input>) => child.duplicate?.(input) ?? new BadRequest(`This ${what} already exists`);
  const values = (input: z.infer<Input>) => child.toValues?.(input) ?? input;

  async function findChild(db: Db, caseId: string, id: string): Promise<T['$inferSelect']> {
    const [row] = (await db.select().from(table as PgTable).where(and(eq(table.id, id), eq(table.caseId, caseId)))) as T['$inferSelect'][];
    if (!row) throw new NotFound(`No ${what} with id ${id} in this case`);
    return row;
  }

  return async (app, { db, clock }) => {
    const present = async (items: z.infer<Item>[]) => (child.present ? child.present(db, items) : items);
    const presentOne = async (item: z.infer<Item>) => (await present([item]))[0]!;
    app.get(
      `/cases/:caseId/${child.path}`,
      {
        config: { access: { entity: 'Cases', verb: 'Read' } },
        schema: { tags, summary: `The ${what} records of a case`, params: ByCase, querystring: ListQuery, response: { 200: listOf(itemSchema), 400: ErrorBody, 404: ErrorBody } },
      },
      async (request) => {
        const found = await findVisibleCase(db, request.user, request.params.caseId);
        const clauses = listClauses(request.query, child.columns, { scope: eq(table.caseId, found.id), defaultSort: child.defaultSort, tiebreak: table.id });
        const rows = (await db.select().from(table as PgTable).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset)) as T['$inferSelect'][];
        const [total] = await db.select({ n: count() }).from(table as PgTable).where(clauses.where);
        return { items: await present(rows.map(child.toItem)), count: total?.n ?? 0 };
      },
    );

    app.get(
      `/cases/:caseId/${child.path}/:id`,
      {
        config: { access: { entity: 'Cases', verb: 'Read' } },
        schema: { tags, summary: `One ${what}`, params: ById, response: { 200: itemSchema, 404: ErrorBody } },
      },
      async (request) => {
        const found = await findVisibleCase(db, request.user, request.params.caseId);
        return presentOne(child.toItem(await findChild(db, found.id, request.params.id)));
      },
    );

    app.post(
      `/cases/:caseId/${child.path}`,
      {
        config: { access: { entity: 'Cases', verb: 'Edit' } },
        schema: { tags, summary: `Add a ${what} to a case`, params: ByCase, body: inputSchema, response: { 201: itemSchema, 400: ErrorBody, 404: ErrorBody } },
      },
      async (request, reply) => {
        const found = await findVisibleCase(db, request.user, request.params.caseId);
        const input = request.body as z.infer<Input>;
        const row = await onUniqueViolation(
          () =>
            db.transaction(async (tx) => {
              const t = tx as unknown as Db;
              const [created] = (await t.insert(table).values({ ...values(input), caseId: found.id } as never).returning()) as T['$inferSelect'][];
              await appendAudit(t, auditActor(request.user), clock, { entity: child.auditEntity, entityId: created!.id as string, action: 'Added', caseId: found.id, organizationId: found.organizationId, after: child.toItem(created!) });
              return created!;
            }),
          () => duplicate(input),
        );
        return reply.code(201).send(await presentOne(child.toItem(row)));
      },
    );

    app.put(
      `/cases/:caseId/${child.path}/:id`,
      {
        config: { access: { entity: 'Cases', verb: 'Edit' } },
        schema: { tags, summary: `Edit a ${what}`, params: ById, body: UpdateBody, response: { 200: itemSchema, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
      },
      async (request) => {
        const found = await findVisibleCase(db, request.user, request.params.caseId);
        const current = await findChild(db, found.id, request.params.id);
        const { version, ...input } = request.body as { version: number } & Record<string, unknown>;
        const saved = await onUniqueViolation(
          () =>
            db.transaction(async (tx) => {
              const t = tx as unknown as Db;
              const row = await updateVersioned(t, table, current.id as string, version, values(input as z.infer<Input>) as never, what);
              const after = child.toItem(row);
              await appendAudit(t, auditActor(request.user), clock, { entity: child.auditEntity, entityId: current.id as string, action: 'Edited', caseId: found.id, organizationId: found.organizationId, before: child.toItem(current), after });
              return after;
            }),
          () => duplicate(input as z.infer<Input>),
        );
        return presentOne(saved);
      },
    );

    app.delete(
      `/cases/:caseId/${child.path}/:id`,
      {
        config: { access: { entity: 'Cases', verb: 'Edit' } },
        schema: { tags, summary: `Delete a ${what}`, params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
      },
      async (request, reply) => {
        const found = await findVisibleCase(db, request.user, request.params.caseId);
        const current = await findChild(db, found.id, request.params.id);
        const use = (await child.inUse?.(db, current)) ?? null;
        if (use) throw new Conflict(use);
        await db.transaction(async (tx) => {
          const t = tx as unknown as Db;
          await child.beforeDelete?.(t, current, { actor: auditActor(request.user), clock });
          await t.delete(table).where(eq(table.id, current.id as string));
          await appendAudit(t, auditActor(request.user), clock, { entity: child.auditEntity, entityId: current.id as string, action: 'Deleted', caseId: found.id, organizationId: found.organizationId, before: child.toItem(current) });
        });
        return reply.code(204).send(null);
      },
    );
  };
}

/** Case-insensitive sort and search over a text column. */
export const textColumn = (column: PgColumn): ListColumn => ({ expr: sql`lower(${column})`, sortable: true, searchable: true });
