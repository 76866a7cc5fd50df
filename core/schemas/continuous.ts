import { z } from 'zod';
import { Id } from './common';
import { MixtureProfileInput } from './mixtures';
import { FrequencyTableInput } from './pedigrees';
import { ContinuousFitReport, ContinuousModelSwitches, GammaParametersUsed } from './continuous-model';

export * from './continuous-model';

/** Most contributors the continuous model weighs: exact sums over 4 unknowns already reach millions of genotypes per marker. */
export const MAX_CONTINUOUS_CONTRIBUTORS = 4;

/** A peak as the instrument reports it: allele, height (RFU) and, when the file gives it, size (bp). */
export const PeakInput = z.object({
  allele: z.string().trim().min(1),
  height: z.number().positive('A height is a positive number of RFU').finite(),
  size: z.number().positive().finite().optional(),
});

/** One replicate (run) of the stain: peaks per marker written out (a marker listed with no peaks was typed and showed none). */
export const ReplicateInput = z.object({
  name: z.string().trim().min(1).max(80).optional(),
  markers: z.array(z.object({ marker: z.string().trim().min(1), peaks: z.array(PeakInput).max(40, 'At most 40 peaks at a marker') })).min(1),
});

/** The model's parameters, per contributor in hypothesis order (Hp: person of interest, known contributors, unknowns; Hd: known contributors, unknowns). */
export const GammaParametersInput = z
  .object({
    mx: z.array(z.number().min(0).max(1)).min(1).max(MAX_CONTINUOUS_CONTRIBUTORS),
    mu: z.number().positive().finite(),
    sigma: z.number().positive().finite(),
    beta: z.number().positive().finite().default(1),
    xiB: z.number().min(0).lt(1).default(0),
    xiF: z.number().min(0).lt(1).default(0),
  })
  .meta({ id: 'GammaParameters' });


export const ContinuousParametersSetting = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('fixed'), hp: GammaParametersInput, hd: GammaParametersInput }),
  /** Maximum likelihood under each hypothesis from `starts` deterministic starts (the first from the data, the others drawn from `seed`). */
  z.object({ mode: z.literal('fit'), starts: z.number().int().min(1).max(20).default(4), seed: z.number().int().min(0).max(2 ** 31 - 1).default(1) }),
]);

export const ContinuousLrBody = z
  .object({
    contributors: z.number().int().min(1, 'At least 1').max(MAX_CONTINUOUS_CONTRIBUTORS, `At most ${MAX_CONTINUOUS_CONTRIBUTORS}`),
    replicates: z.array(ReplicateInput).min(1, 'Give the evidence').max(10),
    personOfInterest: MixtureProfileInput,
    knownContributors: z.array(MixtureProfileInput).max(MAX_CONTINUOUS_CONTRIBUTORS - 1).default([]),
    /** Typed persons who are not contributors under either hypothesis: their alleles enter θ's counts. */
    knownNonContributors: z.array(MixtureProfileInput).max(10).default([]),
    personOfInterestTypedUnderHd: z.boolean().default(true),
    populationId: Id.optional(),
    frequencies: FrequencyTableInput.optional(),
    normalizeFrequencies: z.boolean().default(true),
    analyticalThreshold: z.number().positive().finite().default(50),
    /** Thresholds of particular markers (a dye's threshold written per marker). */
    markerThresholds: z.array(z.object({ marker: z.string().trim().min(1), threshold: z.number().positive().finite() })).default([]),
    dropIn: z.number().min(0).lt(1).default(0.05),
    dropInLambda: z.number().positive().finite().default(0.01),
    theta: z.number().min(0).lt(1).default(0),
    model: ContinuousModelSwitches.default({ degradation: false, backwardStutter: false, forwardStutter: false }),
    /** Fragment sizes (bp) per marker for degradation, and the marker's longest fragment (the size given to the unseen alleles). */
    fragmentSizes: z
      .array(z.object({ marker: z.string().trim().min(1), alleles: z.array(z.object({ allele: z.string().trim().min(1), size: z.number().positive().finite() })).default([]), longest: z.number().positive().finite().optional() }))
      .default([]),
    parameters: ContinuousParametersSetting,
    /** Each unknown's most probable genotypes per marker at the parameters used. */
    deconvolution: z.boolean().default(true),
    /**
     * Also fit every contributor count from..to under each model (default: `model`) and report them side by side
     * with AIC and BIC (EuroForMix contLikSearch); needs `parameters.mode` "fit". Refused beyond a bound on work.
     */
    contributorSearch: z
      .object({
        from: z.number().int().min(1).max(MAX_CONTINUOUS_CONTRIBUTORS),
        to: z.number().int().min(1).max(MAX_CONTINUOUS_CONTRIBUTORS),
        models: z.array(ContinuousModelSwitches).min(1).max(8).optional(),
      })
      .refine((s) => s.from <= s.to, 'from must not exceed to')
      .optional(),
  })
  .meta({ id: 'ContinuousLrBody' });
export type ContinuousLrBody = z.infer<typeof ContinuousLrBody>;



export const ContinuousDeconvolution = z.object({
  contributor: z.string(),
  marker: z.string(),
  /** The most probable genotypes, at most 5, with their posterior probabilities. */
  genotypes: z.array(z.object({ alleles: z.array(z.string()), probability: z.number() })),
});

/** Model validation at the parameters used (EuroForMix validMLEmodel): PP-plot points and expected against observed heights. */
export const ContinuousValidation = z
  .object({
    /** Each observed height's cumulative probability P(Y ≤ y | Y ≥ AT) given the marker's other observations; uniform on [0, 1] under a good fit. */
    peaks: z.array(z.object({ marker: z.string(), replicate: z.number().int(), allele: z.string(), height: z.number(), cumulative: z.number() })),
    /** Per marker and position: observed height per replicate (null: none over the threshold) and the expected height. */
    expected: z.array(z.object({ marker: z.string(), allele: z.string(), observed: z.array(z.number().nullable()), expected: z.number() })),
  })
  .meta({ id: 'ContinuousValidation' });

export const ContinuousHypothesisResult = z
  .object({
    hypothesis: z.enum(['Hp', 'Hd']),
    description: z.string(),
    /** The contributors in the order of `parameters.mx`. */
    contributors: z.array(z.string()),
    /** Null when a fit found no parameters that explain the evidence. */
    parameters: GammaParametersUsed.nullable(),
    /** Natural logarithm; null when the likelihood is 0. */
    logLikelihood: z.number().nullable(),
    fit: ContinuousFitReport.nullable(),
    note: z.string().nullable(),
    deconvolution: z.array(ContinuousDeconvolution),
    /** Null when the likelihood is 0; markers too large to compile are left out. */
    validation: ContinuousValidation.nullable(),
  })
  .meta({ id: 'ContinuousHypothesisResult' });
export type ContinuousHypothesisResult = z.infer<typeof ContinuousHypothesisResult>;

export const ContinuousMarkerResult = z
  .object({
    marker: z.string(),
    /** The genotype alleles: the seen ones, then Q (every other allele) when frequency remains. */
    alleles: z.array(z.string()),
    frequencies: z.array(z.number()),
    /** Fragment sizes (bp) used for degradation, in the order of `alleles` (Q: the marker's longest); null without degradation. */
    fragmentSizes: z.array(z.number()).nullable(),
    analyticalThreshold: z.number(),
    /** Natural logarithms; null when 0. */
    logLikelihoodHp: z.number().nullable(),
    logLikelihoodHd: z.number().nullable(),
    log10Lr: z.number().nullable(),
    /** Null when it overflows a double or is undefined (Hd's likelihood 0): log10Lr gives it. */
    lr: z.number().nullable(),
  })
  .meta({ id: 'ContinuousMarkerResult' });

/** One model of a number-of-contributors search (AIC and BIC under Hd; the lowest AIC is `best`). */
export const ContinuousSearchedModel = z
  .object({
    contributors: z.number().int(),
    model: ContinuousModelSwitches,
    /** Free parameters: K − 1 mixture proportions, μ, σ and one per part of the model that is on. */
    parameters: z.number().int(),
    /** Natural logarithms at each hypothesis's fit; null when no parameters explain the evidence. */
    logLikelihoodHp: z.number().nullable(),
    logLikelihoodHd: z.number().nullable(),
    aic: z.number().nullable(),
    bic: z.number().nullable(),
    log10Lr: z.number().nullable(),
    best: z.boolean(),
    /** Why its figures may not be a maximum: a hypothesis whose fit did not converge (the iteration limit; no step improving, as where ln L grows without bound as σ → 0 over one marker) or that nothing explains. */
    note: z.string().nullable(),
    fittedHd: GammaParametersUsed.nullable(),
  })
  .meta({ id: 'ContinuousSearchedModel' });

export const ContinuousLrResult = z
  .object({
    precision: z.string(),
    settings: z.object({
      contributors: z.number().int(),
      mode: z.enum(['fixed', 'fit']),
      model: ContinuousModelSwitches,
      theta: z.number(),
      dropIn: z.number(),
      dropInLambda: z.number(),
      analyticalThreshold: z.number(),
      normalizeFrequencies: z.boolean(),
      personOfInterestTypedUnderHd: z.boolean(),
      population: z.object({ id: Id.nullable(), name: z.string(), minimumAlleleFrequency: z.number() }),
    }),
    hypotheses: z.array(ContinuousHypothesisResult),
    markers: z.array(ContinuousMarkerResult),
    skippedMarkers: z.array(z.object({ marker: z.string(), reason: z.string() })),
    log10Lr: z.number().nullable(),
    lr: z.number().nullable(),
    /** Why there is no LR, when there is none. */
    note: z.string().nullable(),
    /** The number-of-contributors search when asked for, in the order searched. */
    contributorSearch: z.array(ContinuousSearchedModel).nullable(),
  })
  .meta({ id: 'ContinuousLrResult' });
export type ContinuousLrResult = z.infer<typeof ContinuousLrResult>;

/** Start a number-of-contributors search as a job: the calculator's body, with the contributor counts and models to fit. */
export const ContributorSearchStart = ContinuousLrBody.extend({
  /** Not used: each model of the search has its own count. */
  contributors: z.number().int().min(1).max(MAX_CONTINUOUS_CONTRIBUTORS).default(1),
  contributorSearch: z
    .object({
      from: z.number().int().min(1).max(MAX_CONTINUOUS_CONTRIBUTORS).default(1),
      to: z.number().int().min(1).max(MAX_CONTINUOUS_CONTRIBUTORS).default(MAX_CONTINUOUS_CONTRIBUTORS),
      models: z.array(ContinuousModelSwitches).min(1).max(8).optional(),
    })
    .refine((s) => s.from <= s.to, 'from must not exceed to'),
}).meta({ id: 'ContributorSearchStart' });
export type ContributorSearchStart = z.infer<typeof ContributorSearchStart>;

/** One model of a search job: waiting, being fitted, fitted (its figures) or refused (why: too many joint genotypes, too few contributors). */
export const ContributorSearchJobModel = ContinuousSearchedModel.extend({
  state: z.enum(['waiting', 'fitting', 'fitted', 'refused', 'cancelled']),
  /** Why a refused model was not fitted. */
  reason: z.string().nullable(),
  /** Joint genotypes of the unknowns summed per evaluation, over both hypotheses and every marker. */
  jointGenotypes: z.number().int(),
  fittedHp: GammaParametersUsed.nullable(),
  elapsedMs: z.number().int().nullable(),
}).meta({ id: 'ContributorSearchJobModel' });
export type ContributorSearchJobModel = z.infer<typeof ContributorSearchJobModel>;

/** A number-of-contributors search running on a worker thread: progress per model fitted, cancellable; the best (lowest AIC) marked when every model is done. */
export const ContributorSearchJob = z
  .object({
    id: Id,
    state: z.enum(['running', 'done', 'cancelled', 'failed']),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    elapsedMs: z.number().int().nullable(),
    /** Models to fit (the refused ones not counted) and fitted so far. */
    modelsTotal: z.number().int(),
    modelsDone: z.number().int(),
    models: z.array(ContributorSearchJobModel),
    message: z.string().nullable(),
  })
  .meta({ id: 'ContributorSearchJob' });
export type ContributorSearchJob = z.infer<typeof ContributorSearchJob>;
