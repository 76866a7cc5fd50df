import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../core/schemas/common';
import { ContinuousLrBody, ContinuousLrResult } from '../../../core/schemas/continuous';
import { ContinuousModelError } from '../../genetics/continuous/continuous-types';
import { runContinuousLr } from '../../jobs/continuous-lr';
import { untilClientLeaves } from '../client-leaves';
import { BadRequest } from '../errors';
import type { RouteDeps } from '../route-deps';
import { continuousRequestOf } from './continuous-request-input';

/**
 * POST continuous-lr (issue 31): the LR of a stain under the gamma peak-height model of EuroForMix 4.2.4, at given
 * parameters or fitted by maximum likelihood under each hypothesis; weighed on a worker thread; stores nothing.
 */
export const continuousLrRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.post(
    '/continuous-lr',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: {
        tags: ['analyses'],
        summary: 'The likelihood ratio of a DNA stain from its peak heights (continuous gamma model: mixture proportions, degradation, stutters, drop-in, θ), at given or fitted parameters, per marker and in total, with deconvolution',
        body: ContinuousLrBody,
        response: { 200: ContinuousLrResult, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { body, user } = request;
      try {
        return await runContinuousLr(await continuousRequestOf(db, user, body), untilClientLeaves(reply));
      } catch (error) {
        if (error instanceof ContinuousModelError) throw new BadRequest(error.message);
        throw error;
      }
    },
  );
};
