import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can } from '../../../core/permissions';
import { ErrorBody } from '../../../core/schemas/common';
import { MixtureLrBody, MixtureLrResult, type MixtureProfileInput } from '../../../core/schemas/mixtures';
import type { Db } from '../../db/database';
import { MixtureError } from '../../genetics/mixture/mixture-lr';
import { weighMixture } from '../../genetics/mixture/weigh-mixture';
import type { TypedProfile } from '../../genetics/mixture/mixture-lr';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Forbidden } from '../errors';
import { requestPopulation } from '../populations/request-population';
import { readMarkerValues } from '../profiles/marker-values';
import { findVisibleProfile } from '../profiles/profile-query';
import type { RouteDeps } from '../route-deps';

/** A profile of the call as genotypes: a stored autosomal profile the user may read, or the alleles written out. */
export async function mixtureProfile(db: Db, user: AuthenticatedUser, input: MixtureProfileInput, role: string): Promise<TypedProfile> {
  if ('profileId' in input) {
    if (!can(user, 'Profiles', 'Read')) throw new Forbidden();
    const { profile } = await findVisibleProfile(db, user, input.profileId);
    if (profile.kind !== 'Autosomal') throw new BadRequest(`${role}: profile ${profile.profileId} is a Y-STR profile; a mixture needs autosomal profiles.`);
    return new Map((await readMarkerValues(db, profile.id)).map((v) => [v.marker, v.alleles]));
  }
  const markers = new Map(input.markers.map((m) => [m.marker, m.alleles]));
  if (markers.size !== input.markers.length) throw new BadRequest(`${role}: each marker appears once.`);
  return markers;
}

/** POST mixture-lr (issue 17): the semi-continuous LR of a mixture; stores nothing. Every parameter is in the request and the answer. */
export const mixtureLrRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.post(
    '/mixture-lr',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: {
        tags: ['analyses'],
        summary: 'The likelihood ratio of a DNA mixture with drop-out, drop-in and θ (semi-continuous model), per marker and in total, with the drop-out estimates',
        body: MixtureLrBody,
        response: { 200: MixtureLrResult, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const { body, user } = request;
      const population = await requestPopulation(db, user, body, 'a mixture');
      const replicates = await Promise.all(body.replicates.map((r, i) => mixtureProfile(db, user, r, `Replicate ${i + 1}`)));
      const personOfInterest = await mixtureProfile(db, user, body.personOfInterest, 'Person of interest');
      const knownContributors = await Promise.all(body.knownContributors.map((k, i) => mixtureProfile(db, user, k, `Known contributor ${i + 1}`)));
      try {
        return weighMixture(body, { replicates, personOfInterest, knownContributors }, population.frequencies, population.id, { estimateDropout: body.estimateDropout });
      } catch (error) {
        if (error instanceof MixtureError) throw new BadRequest(error.message);
        throw error;
      }
    },
  );
};
