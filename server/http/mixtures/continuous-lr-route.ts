import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../core/schemas/common';
import { ContinuousLrBody, ContinuousLrResult } from '../../../core/schemas/continuous';
import type { ContinuousRequest } from '../../genetics/continuous/continuous-request';
import { ContinuousModelError } from '../../genetics/continuous/continuous-types';
import { runContinuousLr } from '../../jobs/continuous-lr';
import { untilClientLeaves } from '../client-leaves';
import { BadRequest } from '../errors';
import { requestPopulation } from '../populations/request-population';
import type { RouteDeps } from '../route-deps';
import { mixtureProfile } from './mixture-lr-route';

/** The replicates as written, each marker once. */
function replicatesOf(body: ContinuousLrBody): ContinuousRequest['replicates'] {
  return body.replicates.map((replicate, r) => {
    const names = new Set(replicate.markers.map((m) => m.marker));
    if (names.size !== replicate.markers.length) throw new BadRequest(`Replicate ${r + 1}: each marker appears once.`);
    return replicate.markers.map((m) => ({ marker: m.marker, peaks: m.peaks.map((p) => ({ allele: p.allele, height: p.height, ...(p.size === undefined ? {} : { size: p.size }) })) }));
  });
}

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
      const population = await requestPopulation(db, user, body, 'a continuous-model LR');
      const personOfInterest = await mixtureProfile(db, user, body.personOfInterest, 'Person of interest');
      const knownContributors = await Promise.all(body.knownContributors.map((k, i) => mixtureProfile(db, user, k, `Known contributor ${i + 1}`)));
      const knownNonContributors = await Promise.all(body.knownNonContributors.map((k, i) => mixtureProfile(db, user, k, `Known non-contributor ${i + 1}`)));
      const parameters: ContinuousRequest['parameters'] = body.parameters.mode === 'fixed' ? { mode: 'fixed', hp: body.parameters.hp, hd: body.parameters.hd } : { mode: 'fit', starts: body.parameters.starts, seed: body.parameters.seed };
      try {
        return await runContinuousLr(
          {
            contributors: body.contributors,
            replicates: replicatesOf(body),
            personOfInterest,
            knownContributors,
            knownNonContributors,
            personOfInterestTypedUnderHd: body.personOfInterestTypedUnderHd,
            population: population.frequencies,
            populationId: population.id,
            normalizeFrequencies: body.normalizeFrequencies,
            analyticalThreshold: body.analyticalThreshold,
            markerThresholds: new Map(body.markerThresholds.map((t) => [t.marker, t.threshold])),
            dropIn: body.dropIn,
            dropInLambda: body.dropInLambda,
            theta: body.theta,
            model: body.model,
            fragmentSizes: new Map(body.fragmentSizes.map((f) => [f.marker, { alleles: new Map(f.alleles.map((a) => [a.allele, a.size])), longest: f.longest }])),
            parameters,
            deconvolution: body.deconvolution,
            contributorSearch: body.contributorSearch ? { from: body.contributorSearch.from, to: body.contributorSearch.to, models: body.contributorSearch.models ?? [body.model] } : null,
          },
          untilClientLeaves(reply),
        );
      } catch (error) {
        if (error instanceof ContinuousModelError) throw new BadRequest(error.message);
        throw error;
      }
    },
  );
};
