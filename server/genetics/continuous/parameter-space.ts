import type { GammaParameters, ModelSwitches } from './continuous-types';

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/**
 * The unconstrained coordinates a fit moves in (EuroForMix `.getPhi`/`.convBack`): Mx by stick-breaking logits
 * (K − 1 of them), log μ, log σ, then log β, logit ξB, logit ξF for the parts of the model that are on.
 */
export function toCoordinates(p: GammaParameters, model: ModelSwitches): number[] {
  const x: number[] = [];
  let rest = 1;
  for (let k = 0; k < p.mx.length - 1; k++) {
    x.push(logit(Math.min(1 - 1e-12, Math.max(1e-12, p.mx[k]! / rest))));
    rest -= p.mx[k]!;
  }
  x.push(Math.log(p.mu), Math.log(p.sigma));
  if (model.degradation) x.push(Math.log(p.beta));
  if (model.backwardStutter) x.push(logit(p.xiB));
  if (model.forwardStutter) x.push(logit(p.xiF));
  return x;
}

/** The parameters at coordinates `x` (inverse of toCoordinates); parts of the model that are off take β = 1, ξ = 0. */
export function fromCoordinates(x: readonly number[], contributors: number, model: ModelSwitches): GammaParameters {
  const mx: number[] = [];
  let rest = 1;
  for (let k = 0; k < contributors - 1; k++) {
    const share = logistic(x[k]!) * rest;
    mx.push(share);
    rest -= share;
  }
  mx.push(rest);
  let i = contributors - 1;
  const mu = Math.exp(x[i++]!);
  const sigma = Math.exp(x[i++]!);
  const beta = model.degradation ? Math.exp(x[i++]!) : 1;
  const xiB = model.backwardStutter ? logistic(x[i++]!) : 0;
  const xiF = model.forwardStutter ? logistic(x[i++]!) : 0;
  return { mx, mu, sigma, beta, xiB, xiF };
}
