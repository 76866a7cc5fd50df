import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, can } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import { SelfComparisonJob, SelfComparisonPair, SelfComparisonPairsQuery, SelfComparisonStart } from '../../../core/schemas/self-comparison';
import { chemistries } from '../../db/schema';
import { csvText } from '../../exports/csv';
import type { ProfileKind } from '../../matching/types';
import { SelfComparisonJobs, selfComparisonCsvRows } from '../../search/self-comparison-jobs';
import type { Access } from '../access';
import { auditActor } from '../audit-actor';
import { fileResponse, sendAttachment } from '../content-disposition';
import { BadRequest, HttpError, NotFound } from '../errors';
import type { RouteDeps } from '../route-deps';

const tags = ['profiles'];
const Params = z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) });

/**
 * Who may run and read a self-comparison: Profiles Read and Edit in the organization (`all`: scope All).
 * The report names every duplicate profile of the organization, and acting on it means editing or
 * resetting profiles, so reading profiles alone is not enough; administrators pass `can` for both.
 * There is no "quality assurance" permission in spec 6; this is the closest pair of existing ones.
 */
export const selfComparisonAccess: Access = {
  rule: 'Profiles Read and Profiles Edit in the organization (administrators have both); orgId all needs scope All',
  allows: (user, request) => {
    const { orgId } = request.params as { orgId?: string };
    if (orgId === undefined) return false;
    return can(user, 'Profiles', 'Read', { orgId }) && can(user, 'Profiles', 'Edit', { orgId });
  },
};

const NO_JOB = 'No self-comparison of these profiles was run since the server started. Start one.';

/**
 * Database self-comparison (issue 15): every pair of one chemistry's approved profiles in an
 * organization (or all, scope All) compared for duplicates and near-duplicates, as a background job
 * with progress; the report pages and downloads as CSV. One job at a time per organization scope; the
 * last report is kept in memory (server/search/self-comparison-jobs.ts says why).
 */
export const selfComparisonRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock, search }) => {
  const jobs = new SelfComparisonJobs({
    db,
    clock,
    matcher: () => {
      if (!search) throw new HttpError(503, 'The database search is not running on this server, so profiles cannot be compared. Try again later.');
      return search.matcher();
    },
    onError: (err, message) => app.log.error({ err }, message),
  });
  app.addHook('onClose', () => jobs.close());
  const config = { access: selfComparisonAccess };

  app.post(
    '/organizations/:orgId/self-comparison',
    {
      config,
      schema: {
        tags,
        summary: 'Start comparing every pair of a chemistry’s approved profiles for duplicates and near-duplicates (background job; poll it for progress)',
        params: Params,
        body: SelfComparisonStart,
        response: { 202: SelfComparisonJob, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 503: ErrorBody },
      },
    },
    async (request, reply) => {
      const { chemistryId, maxDifferences, minEqualMarkers } = request.body;
      const [chemistry] = await db.select({ id: chemistries.id, name: chemistries.name, kind: chemistries.kind }).from(chemistries).where(eq(chemistries.id, chemistryId));
      if (!chemistry) throw new BadRequest(`No chemistry with id ${chemistryId}`, [{ path: '/chemistryId', message: 'Choose a chemistry' }]);
      const job = await jobs.start({
        scope: request.params.orgId,
        chemistry: { id: chemistry.id, name: chemistry.name, kind: (chemistry.kind === 'YStr' ? 'YStr' : 'Autosomal') as ProfileKind },
        maxDifferences,
        minEqualMarkers,
        actor: auditActor(request.user),
      });
      return reply.code(202).send(job);
    },
  );

  app.get(
    '/organizations/:orgId/self-comparison',
    // null before any run: the screen's first question, not an error (a 404 would raise the SPA's failure notice).
    { config, schema: { tags, summary: 'The last self-comparison of the organization (state, progress, counts), or null when none ran since the server started', params: Params, response: { 200: SelfComparisonJob.nullable(), 403: ErrorBody } } },
    async (request) => jobs.current(request.params.orgId) ?? null,
  );

  app.post(
    '/organizations/:orgId/self-comparison/cancel',
    { config, schema: { tags, summary: 'Stop the running self-comparison', params: Params, response: { 200: SelfComparisonJob, 403: ErrorBody, 409: ErrorBody } } },
    async (request) => jobs.cancel(request.params.orgId),
  );

  app.get(
    '/organizations/:orgId/self-comparison/pairs',
    {
      config,
      schema: {
        tags,
        summary: 'A page of the last self-comparison’s pairs (duplicates first, then by differences and equal markers), with each profile’s case and the differing markers',
        params: Params,
        querystring: SelfComparisonPairsQuery,
        response: { 200: listOf(SelfComparisonPair), 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const page = jobs.pairs(request.params.orgId, request.query);
      if (!page) throw new NotFound(NO_JOB);
      return page;
    },
  );

  app.get(
    '/organizations/:orgId/self-comparison/pairs.csv',
    {
      config,
      schema: { tags, summary: 'The last self-comparison’s pairs as CSV', params: Params, response: { 200: fileResponse('text/csv'), 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } },
    },
    async (request, reply) => {
      const report = jobs.report(request.params.orgId);
      if (!report) throw new NotFound(NO_JOB);
      if (report.job.state !== 'done') throw new HttpError(409, 'The self-comparison has not finished: there is no report to download yet.');
      const name = `self-comparison-${report.job.chemistryName}-${report.job.finishedAt!.slice(0, 10)}.csv`.replace(/[^\w.#-]+/g, '_');
      return sendAttachment(reply, name, 'text/csv; charset=utf-8', csvText(selfComparisonCsvRows(report.pairs)));
    },
  );
};
