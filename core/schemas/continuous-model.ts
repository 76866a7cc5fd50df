import { z } from 'zod';

// The continuous model's shapes that the mixture search's schemas name too (mixtures.ts imports these; continuous.ts
// imports mixtures.ts): kept apart so neither module waits on the other.

export const ContinuousModelSwitches = z
  .object({
    degradation: z.boolean().default(false),
    backwardStutter: z.boolean().default(false),
    /** Needs the backward stutter model (EuroForMix). */
    forwardStutter: z.boolean().default(false),
  })
  .meta({ id: 'ContinuousModelSwitches' });
export type ContinuousModelSwitches = z.infer<typeof ContinuousModelSwitches>;

export const GammaParametersUsed = z.object({ mx: z.array(z.number()), mu: z.number(), sigma: z.number(), beta: z.number(), xiB: z.number(), xiF: z.number() }).meta({ id: 'GammaParametersUsed' });
export type GammaParametersUsed = z.infer<typeof GammaParametersUsed>;

export const ContinuousFitReport = z
  .object({
    seed: z.number().int(),
    starts: z.number().int(),
    /** Starts whose maximum is within 0.01 (natural log) of the best. */
    agreeing: z.number().int(),
    converged: z.boolean(),
    iterations: z.number().int(),
    evaluations: z.number().int(),
    note: z.string().nullable(),
  })
  .meta({ id: 'ContinuousFitReport' });
/** How a fit searched: what a reader needs to repeat it and to trust it. */
export type ContinuousFitReport = z.infer<typeof ContinuousFitReport>;

/**
 * The continuous model's settings of a database search (issue 31 "Quantitative database search"); the rest (contributors,
 * drop-in, θ, frequency rule) is the mixture analysis's. Hd is fitted once with these; each hit is fitted again under Hp.
 */
export const ContinuousSearchSetting = z
  .object({
    analyticalThreshold: z.number().positive().finite().default(50),
    dropInLambda: z.number().positive().finite().default(0.01),
    model: ContinuousModelSwitches.default({ degradation: false, backwardStutter: false, forwardStutter: false }),
    starts: z.number().int().min(1).max(20).default(4),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
  })
  .meta({ id: 'ContinuousSearchSetting' });
export type ContinuousSearchSetting = z.infer<typeof ContinuousSearchSetting>;

/** A continuous search's figures for one candidate in one population: the scan's number at Hd's fit and the exact one from its own fit. */
export const ContinuousCandidateFigures = z
  .object({
    /** log10 LR from the per-marker tables at Hd's fitted parameters, the candidate in the place of Hd's unknown `position` (1-based). */
    scanLog10Lr: z.number().nullable(),
    position: z.number().int(),
    /** log10 of the ratio of maximised likelihoods: Hp fitted with the candidate (null: no parameters explain the evidence under Hp). */
    log10Lr: z.number().nullable(),
    hd: GammaParametersUsed.nullable(),
    hp: GammaParametersUsed.nullable(),
    hpFit: ContinuousFitReport.nullable(),
    /** The maximised log-likelihoods (natural log) log10Lr divides: Hp's fit with the candidate, Hd's (null: none, or a hit stored before they were kept). */
    logLikelihoodHp: z.number().nullable().default(null),
    logLikelihoodHd: z.number().nullable().default(null),
    model: ContinuousModelSwitches,
  })
  .meta({ id: 'ContinuousCandidateFigures' });
export type ContinuousCandidateFigures = z.infer<typeof ContinuousCandidateFigures>;
