import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { Family, FamilyInput, FamilySearchAnswer, UpdateFamilyBody } from '../../../core/schemas/families';
import { Versioned } from '../../../core/schemas/list';
import { appendAudit } from '../../audit/audit-trail';
import type { Db } from '../../db/database';
import { families, hits } from '../../db/schema';
import { updateVersioned } from '../../db/versioned';
import { recordFamilyHits } from '../../hits/record-family-hits';
import { noticeCandidateMatches } from '../../network/candidate-match-notices';
import type { searchFamilyRemains } from '../../missing-persons/family-search';
import { FamilyProblem, loadFamily, type FamilyRow } from '../../missing-persons/load-family';
import { auditActor } from '../audit-actor';
import { findVisibleCase } from '../cases/case-access';
import { BadRequest, Conflict } from '../errors';
import { requireSearch } from '../familial-search/familial-inputs';
import type { RouteDeps } from '../route-deps';
import { checkFamily } from './family-checks';
import { findVisibleFamily, toFamilies } from './family-view';

const tags = ['families'];
const ById = z.object({ id: Id });
const ByCase = z.object({ caseId: Id });
const one = async (db: Db, row: FamilyRow) => (await toFamilies(db, [row]))[0]!;

/**
 * Missing-person families of a case (issue 16): listed with Cases Read; added, changed, activated, deactivated and
 * deleted with Cases Edit, in the case's organization. Activating one searches the organization's approved remains
 * (at an upper level, a held laboratory's family searches every laboratory's held there: issue 32).
 */
export const familyRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock, search, events }) => {
  app.get(
    '/cases/:caseId/families',
    { config: { access: { entity: 'Cases', verb: 'Read' } }, schema: { tags, summary: "A case's missing-person families", params: ByCase, response: { 200: z.array(Family), 404: ErrorBody } } },
    async (request) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      return toFamilies(db, await db.select().from(families).where(eq(families.caseId, found.id)).orderBy(asc(families.createdAt)));
    },
  );

  app.post(
    '/cases/:caseId/families',
    { config: { access: { entity: 'Cases', verb: 'Edit' } }, schema: { tags, summary: 'Add a missing-person family (a draft until activated)', params: ByCase, body: FamilyInput, response: { 201: Family, 400: ErrorBody, 404: ErrorBody } } },
    async (request, reply) => {
      const found = await findVisibleCase(db, request.user, request.params.caseId);
      await checkFamily(db, request.user, found, request.body);
      const row = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [created] = await t.insert(families).values({ ...request.body, caseId: found.id, organizationId: found.organizationId }).returning();
        await appendAudit(t, auditActor(request.user), clock, { entity: 'Family', entityId: created!.id, action: 'Added', caseId: found.id, organizationId: found.organizationId, after: created });
        return created!;
      });
      return reply.code(201).send(await one(db, row));
    },
  );

  app.put(
    '/families/:id',
    { config: { access: { entity: 'Cases', verb: 'Edit' } }, schema: { tags, summary: 'Change a family that is not active', params: ById, body: UpdateFamilyBody, response: { 200: Family, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody } } },
    async (request) => {
      const current = await findVisibleFamily(db, request.user, request.params.id);
      if (current.status === 'active') throw new Conflict('Deactivate the family before changing it; activating it again searches with the change.');
      const found = await findVisibleCase(db, request.user, current.caseId);
      const { version, ...input } = request.body;
      await checkFamily(db, request.user, found, input);
      const row = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const updated = await updateVersioned(t, families, current.id, version, input, 'family');
        await appendAudit(t, auditActor(request.user), clock, { entity: 'Family', entityId: current.id, action: 'Edited', caseId: found.id, organizationId: found.organizationId, before: current, after: updated });
        return updated;
      });
      return one(db, row);
    },
  );

  app.post(
    '/families/:id/activate',
    {
      config: { access: { entity: 'Cases', verb: 'Edit' } },
      schema: {
        tags,
        summary: "Activate a family: search every approved Unidentified Human (Remains) profile of its organization (at an upper level, of every laboratory held there); results over the threshold become pending hits",
        params: ById,
        body: Versioned,
        response: { 200: FamilySearchAnswer, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const current = await findVisibleFamily(db, request.user, request.params.id);
      const runtime = requireSearch(search);
      let loaded;
      try {
        loaded = await loadFamily(db, runtime.service.indexes, current);
      } catch (error) {
        if (error instanceof FamilyProblem) throw new BadRequest(error.message);
        throw error;
      }
      // On a search worker (ARCHITECTURE.md "Using every core"): this thread answers others meanwhile.
      const { matches, searched } = await runtime.pool.run<ReturnType<typeof searchFamilyRemains>>(runtime.service.indexes, 'Autosomal', { task: 'family', family: loaded });
      const now = clock.now();
      const { row, added } = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const updated = await updateVersioned(t, families, current.id, request.body.version, { status: 'active', activatedAt: current.status === 'active' ? current.activatedAt : now, searchedAt: now }, 'family');
        const addedHits = await recordFamilyHits(t, { ...loaded, family: updated }, matches, auditActor(request.user).name);
        // At an upper level a held laboratory's relatives or remains in a hit: sent down with it (issue 32).
        await noticeCandidateMatches(t, addedHits);
        await appendAudit(t, auditActor(request.user), clock, { entity: 'Family', entityId: current.id, action: 'Activated', caseId: current.caseId, organizationId: current.organizationId, before: { status: current.status }, after: { status: 'active', searchedProfiles: searched, hitsAdded: addedHits.length } });
        return { row: updated, added: addedHits.length };
      });
      if (added > 0) events?.publish(current.organizationId, 'hits');
      return { family: await one(db, row), searchedProfiles: searched, hitsAdded: added };
    },
  );

  app.post(
    '/families/:id/deactivate',
    { config: { access: { entity: 'Cases', verb: 'Edit' } }, schema: { tags, summary: 'Stop searching for a family (its hits stay)', params: ById, body: Versioned, response: { 200: Family, 404: ErrorBody, 409: ErrorBody } } },
    async (request) => {
      const current = await findVisibleFamily(db, request.user, request.params.id);
      const row = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const updated = await updateVersioned(t, families, current.id, request.body.version, { status: 'inactive' }, 'family');
        await appendAudit(t, auditActor(request.user), clock, { entity: 'Family', entityId: current.id, action: 'Deactivated', caseId: current.caseId, organizationId: current.organizationId, before: { status: current.status }, after: { status: 'inactive' } });
        return updated;
      });
      return one(db, row);
    },
  );

  app.delete(
    '/families/:id',
    { config: { access: { entity: 'Cases', verb: 'Edit' } }, schema: { tags, summary: 'Delete a family that is not active and found no hits', params: ById, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } } },
    async (request, reply) => {
      const current = await findVisibleFamily(db, request.user, request.params.id);
      if (current.status === 'active') throw new Conflict('Deactivate the family before deleting it.');
      const found = await db.$count(hits, eq(hits.familyId, current.id));
      if (found > 0) throw new Conflict(`The family found ${found} hit${found === 1 ? '' : 's'}: it stays, deactivated, so they remain traceable.`);
      await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        await t.delete(families).where(eq(families.id, current.id));
        await appendAudit(t, auditActor(request.user), clock, { entity: 'Family', entityId: current.id, action: 'Deleted', caseId: current.caseId, organizationId: current.organizationId, before: current });
      });
      return reply.code(204).send(null);
    },
  );
};
