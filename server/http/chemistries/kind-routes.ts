import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { Chemistry, ChemistryInput } from '../../../core/schemas/chemistries';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ListQuery, listOf, Versioned } from '../../../core/schemas/list';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { chemistries } from '../../db/schema';
import { Conflict, NotFound } from '../errors';
import { updateVersioned } from '../../db/versioned';
import { listChemistries } from './chemistry-list';
import { chemistryView } from './chemistry-view';
import { chemistryInUse } from './in-use';
import type { ChemistryResource } from './kinds';
import { assertMarkerConfiguration, replaceMarkerConfiguration } from './marker-configuration';

const ById = z.object({ id: Id });
const UpdateBody = ChemistryInput.extend(Versioned.shape);

/**
 * List, read, add, change and delete the chemistries of one kind (spec 2.7 Y-STR and autosomal
 * chemistries). Reading needs the kind's Read right; writing, an administrator with scope All.
 */
export const chemistryKindRoutes: FastifyPluginAsyncZod<{ db: Db; resource: ChemistryResource }> = async (app, { db, resource }) => {
  const { kind, path, entity, what } = resource;
  const tags = [path];
  const ofKind = eq(chemistries.kind, kind);
  const duplicate = (name: string) => () => new Conflict(`A ${what} named "${name}" already exists`);
  const capitalized = what[0]!.toUpperCase() + what.slice(1);

  /** The chemistry of this kind, or 404: an id of the other kind is not found here. */
  const find = async (tx: Db, id: string) => {
    const [row] = await tx.select().from(chemistries).where(and(eq(chemistries.id, id), ofKind));
    if (!row) throw new NotFound(`No ${what} with id ${id}`);
    return row;
  };

  app.get(
    `/${path}`,
    {
      config: { access: { entity, verb: 'Read' } },
      schema: { tags, summary: `List ${what}s with their markers`, querystring: ListQuery, response: { 200: listOf(Chemistry), 400: ErrorBody } },
    },
    async (request) => listChemistries(db, request.query, ofKind),
  );

  app.get(
    `/${path}/:id`,
    {
      config: { access: { entity, verb: 'Read' } },
      schema: { tags, summary: `One ${what} with its markers in order`, params: ById, response: { 200: Chemistry, 404: ErrorBody } },
    },
    async (request) => chemistryView(db, await find(db, request.params.id)),
  );

  app.post(
    `/${path}`,
    {
      config: { access: { entity, verb: 'Add' } },
      schema: { tags, summary: `Add a ${what}`, body: ChemistryInput, response: { 201: Chemistry, 400: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const { name, markerIds } = request.body;
      const row = await onUniqueViolation(
        () =>
          db.transaction(async (transaction) => {
            const tx = transaction as unknown as Db;
            await assertMarkerConfiguration(tx, kind, markerIds);
            const [inserted] = await tx.insert(chemistries).values({ name, kind }).returning();
            await replaceMarkerConfiguration(tx, inserted!.id, markerIds);
            return inserted!;
          }),
        duplicate(name),
      );
      return reply.code(201).send(await chemistryView(db, row));
    },
  );

  app.put(
    `/${path}/:id`,
    {
      config: { access: { entity, verb: 'Edit' } },
      schema: {
        tags,
        summary: `Change a ${what}: its name and its whole marker configuration, in order`,
        params: ById,
        body: UpdateBody,
        response: { 200: Chemistry, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { name, markerIds, version } = request.body;
      const row = await onUniqueViolation(
        () =>
          db.transaction(async (transaction) => {
            const tx = transaction as unknown as Db;
            await find(tx, id);
            await assertMarkerConfiguration(tx, kind, markerIds);
            const updated = await updateVersioned(tx, chemistries, id, version, { name }, what);
            await replaceMarkerConfiguration(tx, id, markerIds);
            return updated;
          }),
        duplicate(name),
      );
      return chemistryView(db, row);
    },
  );

  app.delete(
    `/${path}/:id`,
    {
      config: { access: { entity, verb: 'Delete' } },
      schema: { tags, summary: `Delete a ${what} that nothing uses`, params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const row = await find(db, request.params.id);
      const use = await chemistryInUse(db, row.id);
      if (use) throw new Conflict(`${capitalized} "${row.name}" cannot be deleted: ${use}`);
      await db.delete(chemistries).where(eq(chemistries.id, row.id));
      return reply.code(204).send(null);
    },
  );
};
