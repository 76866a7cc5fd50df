import type { ContinuousHypothesisResult, ContinuousLrResult } from '../../../core/schemas/continuous';
import { describeHypothesis } from '../mixture/weigh-mixture';
import { logLikelihood, prepareEvidence, prepareHypothesis, type HypothesisModel, type LogLikelihood, type PreparedEvidence } from './continuous-likelihood';
import { ContinuousModelError, type ContinuousEvidence, type GammaParameters, type TypedPerson } from './continuous-types';
import { deconvolve } from './deconvolution';
import { fitHypothesis } from './fit-hypothesis';
import { validateFit } from './fit-validation';

export const PRECISION =
  'IEEE 754 double precision throughout: exact sums over every joint genotype of the unknowns (no restriction), natural-log likelihoods. EuroForMix 4.2.4 keeps genotype weights in single precision; its values differ from these by up to about 1e-6 relative.';

/** Starts for both hypotheses from a smaller model's optimum, and the ln L each must reach (that model's). */
export interface WarmStart {
  hp: GammaParameters;
  hd: GammaParameters;
  reach: { hp: number; hd: number };
}

/** The persons and settings of a continuous LR, resolved to data. */
export interface ContinuousCase {
  evidence: ContinuousEvidence;
  contributors: number;
  personOfInterest: TypedPerson;
  knownContributors: readonly TypedPerson[];
  knownNonContributors: readonly TypedPerson[];
  personOfInterestTypedUnderHd: boolean;
  /**
   * A fit's `from`: one start per hypothesis (a search's large model, from the optimum of one contributor fewer), the
   * seeded `starts` as well only if it does not converge or ends below `reach` (the smaller model's ln L).
   */
  parameters: { mode: 'fixed'; hp: GammaParameters; hd: GammaParameters } | { mode: 'fit'; starts: number; seed: number; from?: WarmStart };
  deconvolution: boolean;
  /** The threshold of markers not given their own. */
  analyticalThreshold: number;
  population: { id: string | null; name: string; minimumAlleleFrequency: number };
}

/** Checks fixed parameters against the hypothesis and the model switches; a refusal names what is wrong. */
function checkParameters(p: GammaParameters, name: string, c: ContinuousCase): void {
  if (p.mx.length !== c.contributors) throw new ContinuousModelError(`${name}: give one mixture proportion per contributor (${c.contributors}).`);
  const sum = p.mx.reduce((s, m) => s + m, 0);
  if (Math.abs(sum - 1) > 1e-9) throw new ContinuousModelError(`${name}: the mixture proportions sum to ${sum}, not 1.`);
  if (!c.evidence.model.degradation && p.beta !== 1) throw new ContinuousModelError(`${name}: β is ${p.beta} but the degradation model is off (β must be 1).`);
  if (!c.evidence.model.backwardStutter && p.xiB !== 0) throw new ContinuousModelError(`${name}: ξB is ${p.xiB} but the backward stutter model is off.`);
  if (!c.evidence.model.forwardStutter && p.xiF !== 0) throw new ContinuousModelError(`${name}: ξF is ${p.xiF} but the forward stutter model is off.`);
  if (p.xiB + p.xiF >= 1) throw new ContinuousModelError(`${name}: ξB + ξF must stay below 1.`);
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);

interface Weighed {
  result: ContinuousHypothesisResult;
  likelihood: LogLikelihood | null;
}

/** One hypothesis at fixed parameters or fitted, with its deconvolution when asked. */
function weighHypothesis(name: 'Hp' | 'Hd', model: HypothesisModel, labels: string[], description: string, c: ContinuousCase): Weighed {
  let parameters: GammaParameters | null;
  let likelihood: LogLikelihood | null;
  let fit: ContinuousHypothesisResult['fit'] = null;
  if (c.parameters.mode === 'fixed') {
    parameters = c.parameters[name === 'Hp' ? 'hp' : 'hd'];
    likelihood = logLikelihood(model, parameters);
  } else {
    const side = name === 'Hp' ? 'hp' : 'hd';
    const from = c.parameters.from;
    const fitted = fitHypothesis(model, c.evidence.model, c.parameters.starts, c.parameters.seed, from?.[side], from && { reach: from.reach[side] });
    ({ parameters, logLikelihood: likelihood, fit } = fitted);
  }
  const impossible = !likelihood || likelihood.total === -Infinity;
  const note = impossible ? (fit?.note ?? `The evidence has likelihood 0 under ${name} at these parameters (${likelihood?.perMarker.flatMap((l, i) => (l === -Infinity ? [model.evidence.markers[i]!.marker] : [])).join(', ')}).`) : fit?.note ?? null;
  const deconvolution =
    c.deconvolution && parameters && likelihood && !impossible
      ? deconvolve(model, parameters, likelihood).map((d) => ({ contributor: labels[d.contributor]!, marker: d.marker, genotypes: d.genotypes }))
      : [];
  const validation = parameters && !impossible ? validateFit(model, parameters) : null;
  return {
    result: { hypothesis: name, description, contributors: labels, parameters: parameters ? { ...parameters, mx: [...parameters.mx] } : null, logLikelihood: likelihood ? finite(likelihood.total) : null, fit, note, deconvolution, validation },
    likelihood,
  };
}

/**
 * The continuous-model LR (GENETICS.md "Continuous model"; EuroForMix 4.2.4): Hp = the person of interest, the known
 * contributors and unknowns; Hd = the known contributors and unknowns (the same number of contributors), the person
 * of interest a typed non-contributor unless switched off. Each hypothesis at the given parameters or at its
 * maximum-likelihood fit; the LR per marker and in total. A hypothesis that cannot explain the evidence is a result.
 */
export function continuousLr(c: ContinuousCase): ContinuousLrResult {
  const known = c.knownContributors.length;
  if (known + 1 > c.contributors) throw new ContinuousModelError(`Hp holds the person of interest and ${known} known contributor(s): the number of contributors must be at least ${known + 1}.`);
  if (c.evidence.model.forwardStutter && !c.evidence.model.backwardStutter) throw new ContinuousModelError('The forward stutter model needs the backward stutter model (EuroForMix).');
  if (c.parameters.mode === 'fixed') {
    checkParameters(c.parameters.hp, 'Hp', c);
    checkParameters(c.parameters.hd, 'Hd', c);
  }
  const evidence: PreparedEvidence = prepareEvidence(c.evidence);
  const unknownsHp = c.contributors - 1 - known;
  const unknownsHd = c.contributors - known;
  const unknownLabels = (n: number) => Array.from({ length: n }, (_, i) => `Unknown ${i + 1}`);
  const knownLabels = c.knownContributors.map((_, i) => `Known contributor ${i + 1}`);
  const hpLabels = ['Person of interest', ...knownLabels, ...unknownLabels(unknownsHp)];
  const hdLabels = [...knownLabels, ...unknownLabels(unknownsHd)];
  const nonContributorLabel = (offset: number) => (i: number) => (i < offset ? 'Person of interest' : `Known non-contributor ${i - offset + 1}`);
  const poiUnderHd = c.personOfInterestTypedUnderHd ? [c.personOfInterest] : [];
  const hpModel = prepareHypothesis(evidence, { contributors: [c.personOfInterest, ...c.knownContributors, ...new Array<null>(unknownsHp).fill(null)], nonContributors: c.knownNonContributors }, { contributor: (k) => hpLabels[k]!, nonContributor: nonContributorLabel(0) });
  const hdModel = prepareHypothesis(evidence, { contributors: [...c.knownContributors, ...new Array<null>(unknownsHd).fill(null)], nonContributors: [...poiUnderHd, ...c.knownNonContributors] }, { contributor: (k) => hdLabels[k]!, nonContributor: nonContributorLabel(poiUnderHd.length) });
  const hp = weighHypothesis('Hp', hpModel, hpLabels, describeHypothesis(true, known, unknownsHp), c);
  const hd = weighHypothesis('Hd', hdModel, hdLabels, describeHypothesis(false, known, unknownsHd), c);
  const markers = evidence.markers.map((m, i) => {
    const lHp = hp.likelihood?.perMarker[i] ?? -Infinity;
    const lHd = hd.likelihood?.perMarker[i] ?? -Infinity;
    const log10Lr = lHd === -Infinity ? null : lHp === -Infinity ? null : (lHp - lHd) / Math.LN10;
    return {
      marker: m.marker,
      alleles: m.positions.slice(0, m.alleleCount),
      frequencies: [...m.frequencies],
      fragmentSizes: m.sizes,
      analyticalThreshold: m.analyticalThreshold,
      logLikelihoodHp: finite(lHp),
      logLikelihoodHd: finite(lHd),
      log10Lr,
      lr: lHd === -Infinity ? null : finite(Math.exp(lHp - lHd)),
    };
  });
  const totalHp = hp.likelihood?.total ?? -Infinity;
  const totalHd = hd.likelihood?.total ?? -Infinity;
  const note = totalHd === -Infinity ? 'No LR: the evidence has likelihood 0 under Hd (see its note).' : totalHp === -Infinity && !hp.likelihood ? 'LR 0: no parameter values explain the evidence under Hp.' : null;
  return {
    precision: PRECISION,
    settings: {
      contributors: c.contributors,
      mode: c.parameters.mode,
      model: { ...c.evidence.model },
      theta: c.evidence.theta,
      dropIn: c.evidence.dropIn,
      dropInLambda: c.evidence.dropInLambda,
      analyticalThreshold: c.analyticalThreshold,
      normalizeFrequencies: c.evidence.normalizeFrequencies,
      personOfInterestTypedUnderHd: c.personOfInterestTypedUnderHd,
      population: c.population,
    },
    hypotheses: [hp.result, hd.result],
    markers,
    skippedMarkers: evidence.skipped,
    log10Lr: totalHd === -Infinity || totalHp === -Infinity ? null : (totalHp - totalHd) / Math.LN10,
    lr: totalHd === -Infinity ? null : finite(Math.exp(totalHp - totalHd)),
    note,
    contributorSearch: null,
  };
}
