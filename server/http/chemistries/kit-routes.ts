import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { can } from '../../../core/permissions';
import type { ChemistryKind } from '../../../core/schemas/chemistries';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { KitAlleles, UpdateKitThresholdsBody } from '../../../core/schemas/kit-bins';
import type { Db } from '../../db/database';
import { chemistries } from '../../db/schema';
import { findOr404, updateVersioned } from '../../db/versioned';
import { readKitAlleles, writeKitThresholds } from '../../kits/kit-alleles';
import { Forbidden, NotFound } from '../errors';
import { READ_ANY_CHEMISTRY } from './general-routes';
import { CHEMISTRY_RESOURCES, resourceOf } from './kinds';

const ById = z.object({ id: Id });

/**
 * A kit's allele bins, dyes and analytical thresholds (issue 31): read by anyone who may read the kit's kind; the
 * thresholds set per kind resource, like the rest of the kit, by an administrator with scope All (reference data).
 */
export const kitRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/chemistries/:id/alleles',
    {
      config: { access: READ_ANY_CHEMISTRY },
      schema: { tags: ['chemistries'], summary: "A kit's allele bins (dye, fragment size in bp) per marker, and its analytical thresholds", params: ById, response: { 200: KitAlleles, 403: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const row = await findOr404(db, chemistries, request.params.id, 'chemistry');
      if (!can(request.user, resourceOf(row.kind as ChemistryKind).entity, 'Read')) throw new Forbidden();
      return readKitAlleles(db, row);
    },
  );

  for (const { kind, path, entity, what } of CHEMISTRY_RESOURCES) {
    app.put(
      `/${path}/:id/thresholds`,
      {
        config: { access: { entity, verb: 'Edit' } },
        schema: {
          tags: [path],
          summary: `Set a ${what}'s analytical thresholds (RFU): for the whole kit and per dye`,
          params: ById,
          body: UpdateKitThresholdsBody,
          response: { 200: KitAlleles, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { version, ...thresholds } = request.body;
        const updated = await db.transaction(async (transaction) => {
          const tx = transaction as unknown as Db;
          const [row] = await tx.select().from(chemistries).where(and(eq(chemistries.id, id), eq(chemistries.kind, kind)));
          if (!row) throw new NotFound(`No ${what} with id ${id}`);
          const next = await updateVersioned(tx, chemistries, id, version, {}, what);
          await writeKitThresholds(tx, id, thresholds);
          return next;
        });
        return readKitAlleles(db, updated);
      },
    );
  }
};
