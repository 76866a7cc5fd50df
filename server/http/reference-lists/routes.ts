import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, count, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Entity } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import { NamedRecord, NamedRecordInput } from '../../../core/schemas/named-record';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { Conflict, NotFound } from '../errors';
import { listClauses } from '../list';
import { findOr404, updateVersioned } from '../../db/versioned';

type NamedTable = PgTable & { id: PgColumn; name: PgColumn; version: PgColumn; updatedAt: PgColumn; createdAt: PgColumn };
type NamedRow = { id: string; name: string; version: number; createdAt: Date };

export interface NamedListOptions {
  db: Db;
  /** Path segment under /api, e.g. `case-types`. */
  path: string;
  table: NamedTable;
  entity: Entity;
  /** Singular noun for messages: "case type". */
  what: string;
  /** Restricts what a user sees (e.g. organizations they belong to); undefined = everything. */
  scope?: (user: AuthenticatedUser) => SQL | undefined;
  /** Names what still uses a record, so deleting it is refused with that message; null when unused. */
  inUse?: (db: Db, id: string, name: string) => Promise<string | null>;
  /** Names why a record may be neither renamed nor deleted here (an organization held for a lower instance); null when editable. */
  readOnly?: (db: Db, id: string) => Promise<string | null>;
}

const toRecord = (row: NamedRow): NamedRecord => ({ id: row.id, name: row.name, version: row.version, createdAt: row.createdAt.toISOString() });
const ById = z.object({ id: Id });
const UpdateBody = NamedRecordInput.extend(Versioned.shape);

/** List, read, add, rename and delete for a reference list whose records are only a name. */
export const namedListRoutes: FastifyPluginAsyncZod<NamedListOptions> = async (app, opts) => {
  const { db, path, table, entity, what } = opts;
  const tags = [path];
  const capitalized = what[0]!.toUpperCase() + what.slice(1);
  const duplicate = (name: string) => () => new Conflict(`A ${what} named "${name}" already exists`);

  const findVisible = async (user: AuthenticatedUser, id: string) => {
    const row = (await findOr404(db, table, id, what)) as NamedRow;
    const scope = opts.scope?.(user);
    if (scope) {
      const [visible] = await db.select({ n: count() }).from(table).where(and(eq(table.id, id), scope));
      if (!visible?.n) throw new NotFound(`No ${what} with id ${id}`);
    }
    return row;
  };

  app.get(
    `/${path}`,
    {
      config: { access: { entity, verb: 'Read' } },
      schema: { tags, summary: `List ${what}s`, querystring: ListQuery, response: { 200: listOf(NamedRecord), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        { name: { expr: table.name, sortable: true, searchable: true }, createdAt: { expr: table.createdAt, sortable: true } },
        { scope: opts.scope?.(request.user), defaultSort: 'name:asc', tiebreak: table.id },
      );
      const rows = (await db.select().from(table).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset)) as NamedRow[];
      const [total] = await db.select({ n: count() }).from(table).where(clauses.where);
      return { items: rows.map(toRecord), count: total?.n ?? 0 };
    },
  );

  app.get(
    `/${path}/:id`,
    {
      config: { access: { entity, verb: 'Read' } },
      schema: { tags, summary: `One ${what}`, params: ById, response: { 200: NamedRecord, 404: ErrorBody } },
    },
    async (request) => toRecord(await findVisible(request.user, request.params.id)),
  );

  app.post(
    `/${path}`,
    {
      config: { access: { entity, verb: 'Add' } },
      schema: { tags, summary: `Add a ${what}`, body: NamedRecordInput, response: { 201: NamedRecord, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const { name } = request.body;
      const [row] = (await onUniqueViolation(() => db.insert(table).values({ name } as never).returning(), duplicate(name))) as NamedRow[];
      return reply.code(201).send(toRecord(row!));
    },
  );

  app.put(
    `/${path}/:id`,
    {
      config: { access: { entity, verb: 'Edit' } },
      schema: { tags, summary: `Rename a ${what}`, params: ById, body: UpdateBody, response: { 200: NamedRecord, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const current = await findVisible(request.user, request.params.id);
      const locked = await opts.readOnly?.(db, current.id);
      if (locked) throw new Conflict(`${capitalized} "${current.name}" cannot be renamed: ${locked}`);
      const { name, version } = request.body;
      const row = await onUniqueViolation(() => updateVersioned(db, table, request.params.id, version, { name } as never, what), duplicate(name));
      return toRecord(row as NamedRow);
    },
  );

  app.delete(
    `/${path}/:id`,
    {
      config: { access: { entity, verb: 'Delete' } },
      schema: { tags, summary: `Delete a ${what}`, params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findVisible(request.user, request.params.id);
      const use = (await opts.readOnly?.(db, row.id)) ?? (await opts.inUse?.(db, row.id, row.name));
      if (use) throw new Conflict(`${capitalized} "${row.name}" cannot be deleted: ${use}`);
      await db.delete(table).where(eq(table.id, row.id));
      return reply.code(204).send(null);
    },
  );
};

/** Lists up to `limit` names and how many more, for "in use" messages: "Ann, Bob and 3 more". */
export function nameList(names: string[], total: number, limit = 5): string {
  const shown = names.slice(0, limit).join(', ');
  return total > names.length || total > limit ? `${shown} and ${total - Math.min(limit, names.length)} more` : shown;
}
