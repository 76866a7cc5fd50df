import { mixtureMarkerLikelihood } from './mixture-likelihood';
import { checkMixtureCase, evidenceMarkers, hypothesesAtMarker, type MixtureCase } from './mixture-lr';
import { prepareMixtureMarker } from './mixture-marker';
import { monteCarloDropout, type MixtureHypothesisName } from './monte-carlo-dropout';

export { monteCarloDropout, type MixtureHypothesisName };

export interface DropoutEstimate {
  hypothesis: MixtureHypothesisName;
  /** The maximum-likelihood drop-out probability, one value shared by every contributor (EuroForMix's default); null when none explains the evidence. */
  maximumLikelihood: number | null;
  /** log10 of the likelihood at it, over the markers weighed (null with it). */
  log10Likelihood: number | null;
  /** Said when no drop-out explains the evidence under the hypothesis, else null. */
  note: string | null;
  /** The Monte-Carlo estimate: the 95th percentile of the accepted drop-out values (SmartRank's conservative choice). */
  conservative: number | null;
  /** How the Monte-Carlo estimate was reached: the alleles counted, the values accepted out of those tried, the seed. */
  observedAlleles: number;
  accepted: number;
  tried: number;
  seed: number;
}

/**
 * The markers drop-out is estimated over: every evidence marker with frequencies. Where the person of interest is not
 * typed, Hp counts them as an unknown; Hd never needs them, so a search (no person of interest yet) and the calculator
 * estimate Hd's drop-out alike.
 */
function estimationMarkers(c: MixtureCase): string[] {
  return evidenceMarkers(c.replicates).filter((m) => c.population.markers.has(m));
}

/** Σ over the weighed markers of log Pr(E | H) with every contributor's drop-out d (natural log). */
function logLikelihood(c: MixtureCase, hypothesis: MixtureHypothesisName, d: number, markers: readonly string[]): number {
  const dropout = new Array<number>(c.contributors).fill(d);
  let sum = 0;
  for (const marker of markers) {
    const poi = c.personOfInterest.get(marker);
    const shown = c.replicates.flatMap((r) => (r.has(marker) ? [r.get(marker)!] : []));
    const typed = [...(poi?.length ? [poi] : []), ...c.knownContributors.flatMap((k) => (k.get(marker)?.length ? [k.get(marker)!] : []))];
    const prepared = prepareMixtureMarker(c.population, marker, shown, typed, c.frequencyRule);
    const { hp, hd } = hypothesesAtMarker(prepared, marker, { ...c, dropout, dropoutHd: dropout }, poi);
    sum += Math.log(mixtureMarkerLikelihood(prepared, hypothesis === 'Hp' ? hp : hd, { dropIn: c.dropIn, theta: c.theta }));
  }
  return sum;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;
/** Drop-out values searched: the likelihood is a polynomial in d, so a coarse grid then a golden-section search finds its maximum. */
const GRID = Array.from({ length: 19 }, (_, i) => 0.025 + i * 0.05);
const LOWEST = 1e-6;
const HIGHEST = 1 - 1e-6;

/**
 * The maximum-likelihood common drop-out under a hypothesis (EuroForMix calcQualMLE's model; here by grid and golden
 * section, to 1e-7). Null when no drop-out explains the evidence: each term of the likelihood is a product of powers of
 * d and 1 − d, so a likelihood of 0 at one value in (0, 1) is 0 at every value.
 */
export function maximumLikelihoodDropout(c: MixtureCase, hypothesis: MixtureHypothesisName): { d: number; log10Likelihood: number } | { d: null; log10Likelihood: null } {
  const markers = estimationMarkers(c);
  const f = (d: number) => logLikelihood(c, hypothesis, d, markers);
  let best = 0;
  let bestValue = -Infinity;
  GRID.forEach((d, i) => {
    const v = f(d);
    if (v > bestValue) ((bestValue = v), (best = i));
  });
  if (bestValue === -Infinity) return { d: null, log10Likelihood: null };
  let lo = best === 0 ? LOWEST : GRID[best - 1]!;
  let hi = best === GRID.length - 1 ? HIGHEST : GRID[best + 1]!;
  let x1 = hi - GOLDEN * (hi - lo);
  let x2 = lo + GOLDEN * (hi - lo);
  let f1 = f(x1);
  let f2 = f(x2);
  while (hi - lo > 1e-7) {
    if (f1 < f2) {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + GOLDEN * (hi - lo);
      f2 = f(x2);
    } else {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - GOLDEN * (hi - lo);
      f1 = f(x1);
    }
  }
  const d = (lo + hi) / 2;
  return { d, log10Likelihood: f(d) / Math.LN10 };
}

/**
 * Both estimates under a hypothesis (GENETICS.md "Mixtures": drop-out estimation), or the maximum-likelihood one alone
 * (`monteCarlo` false: the simulation is most of the time, and a maximum-likelihood run does not use it; then
 * `tried` is 0). The case's own drop-out values are not used.
 */
export function estimateDropout(c: MixtureCase, hypothesis: MixtureHypothesisName, monteCarlo = true): DropoutEstimate {
  checkMixtureCase(c);
  const { d, log10Likelihood } = maximumLikelihoodDropout(c, hypothesis);
  if (d === null) {
    const note = `No drop-out explains the evidence under ${hypothesis}: its likelihood is 0 whatever the drop-out (an allele seen that no contributor can give, with no drop-in).`;
    return { hypothesis, maximumLikelihood: null, log10Likelihood: null, note, conservative: null, observedAlleles: 0, accepted: 0, tried: 0, seed: 0 };
  }
  const simulated = monteCarlo ? monteCarloDropout(c, hypothesis) : { conservative: null, observedAlleles: 0, accepted: 0, tried: 0, seed: 0 };
  return { hypothesis, maximumLikelihood: d, log10Likelihood, note: null, ...simulated };
}
