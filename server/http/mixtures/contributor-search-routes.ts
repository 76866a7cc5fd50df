import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { ContributorSearchJob, ContributorSearchStart } from '../../../core/schemas/continuous';
import { ContinuousModelError } from '../../genetics/continuous/continuous-types';
import { ContributorSearchJobs } from '../../jobs/contributor-search-jobs';
import { BadRequest } from '../errors';
import type { RouteDeps } from '../route-deps';
import { continuousRequestOf } from './continuous-request-input';

const tags = ['analyses'];
const config = { access: { entity: 'Analyses', verb: 'Read' } } as const;
const Params = z.object({ id: Id });

/**
 * The number-of-contributors search as a job (issue 31): every contributor count from..to and each model fitted
 * under Hp and Hd on a worker thread, with log-likelihoods, AIC and BIC side by side and the best marked; progress per
 * model, cancellable. Analyses Read, as POST continuous-lr; stored persons and populations are read with the
 * starter's rights, and only the starter reads or cancels the job (anyone else: 404).
 */
export const contributorSearchRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  const jobs = new ContributorSearchJobs({ clock, onError: (err, message) => app.log.error({ err }, message) });
  app.addHook('onClose', () => jobs.close());

  app.post(
    '/continuous-lr/contributor-search',
    {
      config,
      schema: {
        tags,
        summary: 'Start fitting every number of contributors from..to (and each model) under Hp and Hd, with AIC and BIC (background job; read it for progress, cancel it)',
        body: ContributorSearchStart,
        response: { 202: ContributorSearchJob, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { body, user } = request;
      const search = body.contributorSearch;
      const continuous = await continuousRequestOf(db, user, { ...body, contributorSearch: undefined });
      try {
        return reply.code(202).send(jobs.start(user.id, continuous, [search.from, search.to], search.models ?? [body.model]));
      } catch (error) {
        if (error instanceof ContinuousModelError) throw new BadRequest(error.message);
        throw error;
      }
    },
  );

  app.get(
    '/continuous-lr/contributor-search/:id',
    { config, schema: { tags, summary: 'A number-of-contributors search: its state, each model (waiting, fitting, fitted with its figures, or refused with the reason) and the best one once done', params: Params, response: { 200: ContributorSearchJob, 403: ErrorBody, 404: ErrorBody } } },
    async (request) => jobs.get(request.user.id, request.params.id),
  );

  app.post(
    '/continuous-lr/contributor-search/:id/cancel',
    { config, schema: { tags, summary: 'Stop a running number-of-contributors search; the models fitted so far stay listed', params: Params, response: { 200: ContributorSearchJob, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody } } },
    async (request) => jobs.cancel(request.user.id, request.params.id),
  );
};
