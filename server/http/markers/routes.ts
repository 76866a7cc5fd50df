import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf, Versioned } from '../../../core/schemas/list';
import { Marker, MarkerInput, MarkerListQuery } from '../../../core/schemas/markers';
import type { Db } from '../../db/database';
import { FOREIGN_KEY_VIOLATION, onUniqueViolation, pgErrorCode } from '../../db/errors';
import { markers } from '../../db/schema';
import type { RouteDeps } from '../route-deps';
import { Conflict } from '../errors';
import { listClauses } from '../list';
import { nameList } from '../reference-lists/routes';
import { findOr404, updateVersioned } from '../../db/versioned';
import { markerInUse } from './in-use';
import { chemistriesUsing } from './marker-uses';
import { assertSpellingsFree } from './spelling-clash';

const tags = ['markers'];
const ById = z.object({ id: Id });
const UpdateBody = MarkerInput.extend(Versioned.shape);

// Any constant: serializes marker writes, so two saves cannot each find a spelling free and both take it.
const MARKER_SPELLINGS_LOCK = 0x4d61726b;

type MarkerRow = typeof markers.$inferSelect;

const toMarker = (row: MarkerRow): Marker => ({
  id: row.id,
  name: row.name,
  kind: row.kind as Marker['kind'],
  aliases: row.aliases,
  multiCopy: row.multiCopy,
  version: row.version,
  createdAt: row.createdAt.toISOString(),
});

/** Runs a marker write after the spelling check, in one transaction that holds the spelling lock. */
function writeMarker<T>(db: Db, marker: { id?: string; name: string; aliases: readonly string[] }, write: (tx: Db) => Promise<T>): Promise<T> {
  return onUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${MARKER_SPELLINGS_LOCK})`);
        await assertSpellingsFree(tx as unknown as Db, marker);
        return write(tx as unknown as Db);
      }),
    () => new Conflict(`Name ${marker.name} is already used by another marker`),
  );
}

/**
 * Markers (spec 2.7, 3): name, kind, the aliases imports match them by, and the multi-copy flag.
 * Reading needs Markers Read (an administrator needs scope All); writing, an administrator with
 * scope All (core/permissions.ts).
 */
export const markerRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.get(
    '/markers',
    {
      config: { access: { entity: 'Markers', verb: 'Read' } },
      schema: { tags, summary: 'List markers (optionally of one kind)', querystring: MarkerListQuery, response: { 200: listOf(Marker), 400: ErrorBody } },
    },
    async (request) => {
      const clauses = listClauses(
        request.query,
        {
          name: { expr: markers.name, sortable: true, searchable: true },
          kind: { expr: markers.kind, sortable: true },
          aliases: { expr: sql`array_to_string(${markers.aliases}, ', ')`, searchable: true },
          createdAt: { expr: markers.createdAt, sortable: true },
        },
        { scope: request.query.kind ? eq(markers.kind, request.query.kind) : undefined, defaultSort: 'name:asc', tiebreak: markers.id },
      );
      const rows = await db.select().from(markers).where(clauses.where).orderBy(...clauses.orderBy).limit(clauses.limit).offset(clauses.offset);
      const [total] = await db.select({ n: count() }).from(markers).where(clauses.where);
      return { items: rows.map(toMarker), count: total?.n ?? 0 };
    },
  );

  app.get(
    '/markers/:id',
    {
      config: { access: { entity: 'Markers', verb: 'Read' } },
      schema: { tags, summary: 'One marker', params: ById, response: { 200: Marker, 404: ErrorBody } },
    },
    async (request) => toMarker(await findOr404(db, markers, request.params.id, 'marker')),
  );

  app.post(
    '/markers',
    {
      config: { access: { entity: 'Markers', verb: 'Add' } },
      schema: { tags, summary: 'Add a marker', body: MarkerInput, response: { 201: Marker, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await writeMarker(db, request.body, async (tx) => (await tx.insert(markers).values(request.body).returning())[0]!);
      return reply.code(201).send(toMarker(row));
    },
  );

  app.put(
    '/markers/:id',
    {
      config: { access: { entity: 'Markers', verb: 'Edit' } },
      schema: { tags, summary: 'Change a marker', params: ById, body: UpdateBody, response: { 200: Marker, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request) => {
      const { id } = request.params;
      const { version, ...values } = request.body;
      const row = await writeMarker(db, { id, ...values }, async (tx) => {
        // Locked first, so a chemistry saved meanwhile either sees the new kind or is seen by the check below.
        const [before] = await tx.select().from(markers).where(eq(markers.id, id)).for('update');
        if (before?.kind === 'YStr' && values.kind !== 'YStr') {
          // A Y-STR chemistry holds only Y-STR markers (chemistries/marker-configuration.ts).
          const kits = await chemistriesUsing(tx, id, 'YStr');
          if (kits.length > 0) {
            const them = kits.length === 1 ? `the Y-STR chemistry ${kits[0]} uses it` : `the Y-STR chemistries ${nameList(kits, kits.length)} use it`;
            throw new Conflict(`Marker ${before.name} must stay Y-STR: ${them}`);
          }
        }
        return updateVersioned(tx, markers, id, version, values, 'marker');
      });
      return toMarker(row);
    },
  );

  app.delete(
    '/markers/:id',
    {
      config: { access: { entity: 'Markers', verb: 'Delete' } },
      schema: { tags, summary: 'Delete a marker that no chemistry or population uses', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await findOr404(db, markers, request.params.id, 'marker');
      const use = await markerInUse(db, row.id, row.name);
      if (use) throw new Conflict(use);
      try {
        await db.delete(markers).where(eq(markers.id, row.id));
      } catch (err) {
        // Something started using it after the check above; the foreign keys refuse the delete.
        if (pgErrorCode(err) === FOREIGN_KEY_VIOLATION) throw new Conflict(`Marker ${row.name} is in use`);
        throw err;
      }
      return reply.code(204).send(null);
    },
  );
};
