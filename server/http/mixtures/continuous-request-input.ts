import type { ContinuousLrBody } from '../../../core/schemas/continuous';
import type { Db } from '../../db/database';
import type { ContinuousRequest } from '../../genetics/continuous/continuous-request';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest } from '../errors';
import { requestPopulation } from '../populations/request-population';
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
 * A continuous-LR body resolved to plain data a worker can take: the population and stored persons read with the
 * user's rights (their organizations; Profiles Read for a stored person), every setting written out.
 */
export async function continuousRequestOf(db: Db, user: AuthenticatedUser, body: ContinuousLrBody): Promise<ContinuousRequest> {
  const population = await requestPopulation(db, user, body, 'a continuous-model LR');
  const personOfInterest = await mixtureProfile(db, user, body.personOfInterest, 'Person of interest');
  const knownContributors = await Promise.all(body.knownContributors.map((k, i) => mixtureProfile(db, user, k, `Known contributor ${i + 1}`)));
  const knownNonContributors = await Promise.all(body.knownNonContributors.map((k, i) => mixtureProfile(db, user, k, `Known non-contributor ${i + 1}`)));
  const parameters: ContinuousRequest['parameters'] = body.parameters.mode === 'fixed' ? { mode: 'fixed', hp: body.parameters.hp, hd: body.parameters.hd } : { mode: 'fit', starts: body.parameters.starts, seed: body.parameters.seed };
  return {
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
  };
}
