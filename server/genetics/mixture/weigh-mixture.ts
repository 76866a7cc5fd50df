import type { MixtureLrResult, MixtureSetting } from '../../../core/schemas/mixtures';
import type { PopulationFrequencies } from '../types';
import { estimateDropout, type DropoutEstimate } from './dropout-estimation';
import { mixtureLr, MixtureError, type MixtureCase, type TypedProfile } from './mixture-lr';

/** The people of a mixture run, resolved to genotypes. */
export interface MixtureProfiles {
  replicates: readonly TypedProfile[];
  personOfInterest: TypedProfile;
  knownContributors: readonly TypedProfile[];
}

/** "the person of interest, 1 known contributor and 2 unknowns": a hypothesis in words. */
export function describeHypothesis(poi: boolean, known: number, unknowns: number): string {
  const parts = [...(poi ? ['the person of interest'] : []), ...(known > 0 ? [`${known} known contributor${known === 1 ? '' : 's'}`] : []), ...(unknowns > 0 ? [`${unknowns} unknown${unknowns === 1 ? '' : 's'}`] : [])];
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * A mixture run with every parameter explicit (GENETICS.md "Mixtures"): both hypotheses' drop-out estimates, the
 * drop-out used per contributor under each hypothesis, and the LR per marker and overall. Fixed drop-out takes one
 * value per contributor (person of interest, known contributors, unknowns) or one value for all.
 */
export function weighMixture(setting: MixtureSetting, profiles: MixtureProfiles, population: PopulationFrequencies, populationId: string | null): MixtureLrResult {
  const n = setting.contributors;
  const base: MixtureCase = {
    ...profiles,
    contributors: n,
    dropout: new Array<number>(n).fill(0),
    dropIn: setting.dropIn,
    theta: setting.theta,
    personOfInterestTypedUnderHd: setting.personOfInterestTypedUnderHd,
    population,
    frequencyRule: { normalize: setting.normalizeFrequencies },
  };
  if (profiles.knownContributors.length + 1 > n) throw new MixtureError(`Hp holds the person of interest and ${profiles.knownContributors.length} known contributor(s): the number of contributors must be at least ${profiles.knownContributors.length + 1}.`);
  const estimates: DropoutEstimate[] = [estimateDropout(base, 'Hp'), estimateDropout(base, 'Hd')];
  let dropoutHp: number[];
  let dropoutHd: number[];
  if (setting.dropout.mode === 'fixed') {
    const values = setting.dropout.values;
    if (values.length !== 1 && values.length !== n) throw new MixtureError(`Give one drop-out probability for all contributors or one per contributor (${n}), in the order person of interest, known contributors, unknowns.`);
    dropoutHp = dropoutHd = values.length === 1 ? new Array<number>(n).fill(values[0]!) : [...values];
  } else if (setting.dropout.estimate === 'maximum-likelihood') {
    dropoutHp = new Array<number>(n).fill(estimates[0]!.maximumLikelihood);
    dropoutHd = new Array<number>(n).fill(estimates[1]!.maximumLikelihood);
  } else {
    const conservative = estimates[1]!.conservative;
    if (conservative === null) throw new MixtureError('No simulated drop-out reproduced the evidence\'s allele count under Hd; check the number of contributors, or fix the drop-out.');
    dropoutHp = dropoutHd = new Array<number>(n).fill(conservative);
  }
  const hp = mixtureLr({ ...base, dropout: dropoutHp });
  // Hd's likelihoods with its own drop-out (they differ only with maximum-likelihood estimates).
  const hd = dropoutHd === dropoutHp ? hp : mixtureLr({ ...base, dropout: dropoutHd });
  const markers = hp.markers.map((m, i) => {
    const likelihoodHd = hd.markers[i]!.likelihoodHd;
    const lr = m.likelihoodHp / likelihoodHd;
    return {
      ...m,
      personOfInterest: [...profiles.personOfInterest.get(m.marker)!],
      knownContributors: profiles.knownContributors.map((k) => (k.get(m.marker) ? [...k.get(m.marker)!] : null)),
      likelihoodHd,
      lr,
      log10: lr > 0 ? Math.log10(lr) : null,
    };
  });
  const log10 = markers.reduce((s, m) => s + (m.lr > 0 ? Math.log10(m.lr) : -Infinity), 0);
  const known = profiles.knownContributors.length;
  return {
    parameters: {
      ...setting,
      dropoutHp,
      dropoutHd,
      hp: describeHypothesis(true, known, n - 1 - known),
      hd: describeHypothesis(false, known, n - known),
      population: { id: populationId, name: population.name, minimumAlleleFrequency: population.minimumAlleleFrequency },
    },
    estimates,
    markers,
    skippedMarkers: hp.skipped,
    lr: Number.isFinite(log10) ? 10 ** log10 : 0,
    log10: Number.isFinite(log10) ? log10 : null,
  };
}
