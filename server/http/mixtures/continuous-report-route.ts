import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody } from '../../../core/schemas/common';
import { ContinuousLrBody } from '../../../core/schemas/continuous';
import type { MixtureProfileInput } from '../../../core/schemas/mixtures';
import type { Db } from '../../db/database';
import { ContinuousModelError } from '../../genetics/continuous/continuous-types';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { runContinuousReport } from '../../jobs/continuous-report';
import { auditActor } from '../audit-actor';
import { untilClientLeaves } from '../client-leaves';
import { fileResponse, sendAttachment } from '../content-disposition';
import { BadRequest } from '../errors';
import { findVisibleProfile } from '../profiles/profile-query';
import type { RouteDeps } from '../route-deps';
import { continuousRequestOf } from './continuous-request-input';

const ReportQuery = z.object({ format: z.enum(['pdf', 'csv']).default('pdf') });

/** Where a person of the request comes from: a stored profile (its sample name and case) or typed into the request. */
async function personSource(db: Db, user: AuthenticatedUser, input: MixtureProfileInput): Promise<string> {
  if ('profileId' in input) {
    const row = await findVisibleProfile(db, user, input.profileId);
    return `Profile ${row.profile.profileId}, case ${row.caseNumber}`;
  }
  return input.name ? `${input.name}, written out in the request` : 'Written out in the request';
}

/**
 * POST continuous-lr/report (issue 31: "PDF and CSV giving every parameter, the fit, the deconvolution and the
 * validation plot"): the same calculation as POST continuous-lr, weighed again (a fit is deterministic, so the same
 * figures) and written as a PDF (format=pdf, the default) or CSV on a worker thread; stores nothing.
 */
export const continuousReportRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.post(
    '/continuous-lr/report',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: {
        tags: ['analyses'],
        summary: 'A continuous-model LR as a PDF report (format=pdf, the default: parameters, fit, per-marker log-likelihoods, deconvolution, PP-plot and electropherograms) or CSV (format=csv, every digit)',
        querystring: ReportQuery,
        body: ContinuousLrBody,
        response: { 200: fileResponse('application/pdf'), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { body, user } = request;
      const continuous = await continuousRequestOf(db, user, body);
      const roles = [
        ['Person of interest', body.personOfInterest],
        ...body.knownContributors.map((k, i) => [`Known contributor ${i + 1}`, k] as const),
        ...body.knownNonContributors.map((k, i) => [`Known non-contributor ${i + 1}`, k] as const),
      ] as const;
      const persons = await Promise.all(roles.map(async ([role, input]) => ({ role, source: await personSource(db, user, input) })));
      const computedAt = clock.now().toISOString();
      const facts = { preparedBy: auditActor(user).name, computedAt, organizationName: user.organizations.map((o) => o.name).join(', '), persons, replicates: body.replicates.map((r, i) => r.name ?? `R${i + 1}`) };
      const format = request.query.format;
      try {
        const file = await runContinuousReport({ request: continuous, format, facts }, untilClientLeaves(reply));
        const name = `continuous-lr-${computedAt.slice(0, 16).replace(/[^\d]/g, '')}.${format}`;
        return sendAttachment(reply, name, format === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf', file);
      } catch (error) {
        if (error instanceof ContinuousModelError) throw new BadRequest(error.message);
        throw error;
      }
    },
  );
};
