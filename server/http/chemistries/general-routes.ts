import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { can } from '../../../core/permissions';
import { Chemistry, ChemistryListQuery, type ChemistryKind } from '../../../core/schemas/chemistries';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import type { Db } from '../../db/database';
import { chemistries } from '../../db/schema';
import type { Access } from '../access';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { Forbidden } from '../errors';
import { findOr404 } from '../../db/versioned';
import { listChemistries } from './chemistry-list';
import { chemistryView } from './chemistry-view';
import { CHEMISTRY_RESOURCES, resourceOf } from './kinds';

const tags = ['chemistries'];

/** The kinds of chemistry the user may read (an organization-scope administrator: autosomal only, spec 6). */
const readableKinds = (user: AuthenticatedUser): ChemistryKind[] =>
  CHEMISTRY_RESOURCES.filter((r) => can(user, r.entity, 'Read')).map((r) => r.kind);

/** Spec 7.1 "chemistries (general, …)": readable with either kind's Read right; each answer holds only the readable kinds. */
export const READ_ANY_CHEMISTRY: Access = {
  rule: 'AutosomalChemistries Read or YStrChemistries Read; each kind needs its own',
  allows: (user) => readableKinds(user).length > 0,
};

/**
 * Chemistries of both kinds, for screens that pick a chemistry whatever its kind (profiles,
 * keyboard search). Writing goes through the per-kind resources.
 */
export const generalChemistryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/chemistries',
    {
      config: { access: READ_ANY_CHEMISTRY },
      schema: { tags, summary: 'List chemistries of every kind the user may read', querystring: ChemistryListQuery, response: { 200: listOf(Chemistry), 400: ErrorBody, 403: ErrorBody } },
    },
    async (request) => {
      const kinds = readableKinds(request.user);
      const { kind } = request.query;
      if (kind && !kinds.includes(kind)) throw new Forbidden();
      return listChemistries(db, request.query, kind ? eq(chemistries.kind, kind) : inArray(chemistries.kind, kinds));
    },
  );

  app.get(
    '/chemistries/:id',
    {
      config: { access: READ_ANY_CHEMISTRY },
      schema: { tags, summary: 'One chemistry of either kind', params: z.object({ id: Id }), response: { 200: Chemistry, 403: ErrorBody, 404: ErrorBody } },
    },
    async (request) => {
      const row = await findOr404(db, chemistries, request.params.id, 'chemistry');
      if (!can(request.user, resourceOf(row.kind as ChemistryKind).entity, 'Read')) throw new Forbidden();
      return chemistryView(db, row);
    },
  );
};
