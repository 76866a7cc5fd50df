import type { MixtureLrResult, MixtureSetting } from '../../../core/schemas/mixtures';
import type { PopulationFrequencies } from '../types';
import { estimateDropout, type DropoutEstimate, type MixtureHypothesisName } from './dropout-estimation';
import { CONSERVATIVE_HD_RULE, hypothesisDropouts, type HypothesisDropouts } from './hypothesis-dropouts';
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

/** The calculator's request beyond the setting: whether to compute both drop-out estimates (shown beside the LR). */
export interface WeighOptions {
  estimateDropout: boolean;
}

/**
 * A mixture run with every parameter explicit (GENETICS.md "Mixtures"): the drop-out used per contributor under each
 * hypothesis and how Hd's were set, the LR per marker and overall, and the drop-out estimates computed — both when
 * asked for, else only the one an estimated drop-out uses (the Monte Carlo is most of a large stain's time). Fixed
 * drop-out takes one value per contributor (person of interest, known contributors, unknowns) or one for all; Hd's
 * follow LRmix unless given. An impossible Hp is LR 0, never an error.
 */
export function weighMixture(setting: MixtureSetting, profiles: MixtureProfiles, population: PopulationFrequencies, populationId: string | null, options: WeighOptions = { estimateDropout: false }): MixtureLrResult {
  const n = setting.contributors;
  const known = profiles.knownContributors.length;
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
  if (known + 1 > n) throw new MixtureError(`Hp holds the person of interest and ${known} known contributor(s): the number of contributors must be at least ${known + 1}.`);
  const estimated = new Map<MixtureHypothesisName, DropoutEstimate>();
  // The Monte Carlo only where shown or used: the conservative drop-out, or the reader's request.
  const monteCarlo = options.estimateDropout || setting.dropout.mode === 'fixed' || setting.dropout.estimate === 'conservative';
  const estimate = (hypothesis: MixtureHypothesisName) => estimated.get(hypothesis) ?? estimated.set(hypothesis, estimateDropout(base, hypothesis, monteCarlo)).get(hypothesis)!;
  if (options.estimateDropout) for (const h of ['Hp', 'Hd'] as const) estimate(h);
  let dropouts: HypothesisDropouts;
  if (setting.dropout.mode === 'fixed') {
    const { values, hdValues } = setting.dropout;
    for (const [list, name] of [[values, 'Hp'], [hdValues, 'Hd']] as const) {
      if (list && list.length !== 1 && list.length !== n) throw new MixtureError(`Give one drop-out probability under ${name} for all contributors or one per contributor (${n}), in the order ${name === 'Hp' ? 'person of interest' : "the unknown in the person of interest's place"}, known contributors, unknowns.`);
    }
    dropouts = hypothesisDropouts(n, known, values, hdValues);
  } else if (setting.dropout.estimate === 'maximum-likelihood') {
    const [hp, hd] = [estimate('Hp').maximumLikelihood, estimate('Hd').maximumLikelihood];
    if (hd === null) throw new MixtureError('No drop-out explains the evidence under Hd; check the number of contributors and the drop-in probability, or fix the drop-out.');
    // Hp with no drop-out that explains the evidence: every value gives LR 0, Hd's says so as well as any.
    dropouts = { hp: new Array<number>(n).fill(hp ?? hd), hd: new Array<number>(n).fill(hd), hdRule: 'Each hypothesis at its own maximum-likelihood drop-out, one value for every contributor' };
  } else {
    const conservative = estimate('Hd').conservative;
    if (conservative === null) throw new MixtureError('No simulated drop-out reproduced the evidence\'s allele count under Hd; check the number of contributors, or fix the drop-out.');
    dropouts = { hp: new Array<number>(n).fill(conservative), hd: new Array<number>(n).fill(conservative), hdRule: CONSERVATIVE_HD_RULE };
  }
  const result = mixtureLr({ ...base, dropout: dropouts.hp, dropoutHd: dropouts.hd });
  const markers = result.markers.map((m) => ({
    ...m,
    personOfInterest: [...profiles.personOfInterest.get(m.marker)!],
    knownContributors: profiles.knownContributors.map((k) => (k.get(m.marker) ? [...k.get(m.marker)!] : null)),
    log10: m.lr > 0 ? Math.log10(m.lr) : null,
  }));
  return {
    parameters: {
      ...setting,
      dropoutHp: dropouts.hp,
      dropoutHd: dropouts.hd,
      dropoutHdRule: dropouts.hdRule,
      hp: describeHypothesis(true, known, n - 1 - known),
      hd: describeHypothesis(false, known, n - known),
      population: { id: populationId, name: population.name, minimumAlleleFrequency: population.minimumAlleleFrequency },
    },
    estimates: (['Hp', 'Hd'] as const).flatMap((h) => (estimated.has(h) ? [estimated.get(h)!] : [])),
    markers,
    skippedMarkers: result.skipped,
    lr: result.lr,
    log10: Number.isFinite(result.log10Lr) ? result.log10Lr : null,
  };
}
