import { z } from 'zod';
import { Id } from './common';
import { ContinuousCandidateFigures, ContinuousFitReport, ContinuousSearchSetting, GammaParametersUsed } from './continuous-model';
import { FrequencyTableInput } from './pedigrees';

/** Most contributors a mixture analysis weighs (GENETICS.md "Mixtures": exact enumeration; 4 answers within a second). */
export const MAX_MIXTURE_CONTRIBUTORS = 5;

/** How drop-out is set: fixed per contributor, or estimated from the evidence (GENETICS.md "Mixtures": drop-out estimation). */
export const DropoutSetting = z
  .discriminatedUnion('mode', [
    /**
     * Hp's drop-outs: one value per contributor, in the order person of interest, known contributors, unknowns; or one
     * value for all. Hd's (`hdValues`), when given: the unknown in the person of interest's place, known contributors,
     * other unknowns; or one for all. Without them every unknown under Hd takes the unknowns' value (LRmix Studio, forensim).
     */
    z.object({
      mode: z.literal('fixed'),
      values: z.array(z.number().min(0).lt(1, 'Below 1')).min(1).max(MAX_MIXTURE_CONTRIBUTORS),
      hdValues: z.array(z.number().min(0).lt(1, 'Below 1')).min(1).max(MAX_MIXTURE_CONTRIBUTORS).optional(),
    }),
    /**
     * maximum-likelihood: each hypothesis at its own maximum-likelihood drop-out (EuroForMix's qualitative LR);
     * conservative: both at the 95th percentile of the Monte-Carlo estimate under Hd (SmartRank practice).
     */
    z.object({ mode: z.literal('estimated'), estimate: z.enum(['maximum-likelihood', 'conservative']) }),
  ])
  .meta({ id: 'DropoutSetting' });
export type DropoutSetting = z.infer<typeof DropoutSetting>;

/** A mixture analysis's parameters (stored on the analysis; the calculator may change each for a run). */
export const MixtureSetting = z
  .object({
    contributors: z.number().int().min(1, 'At least 1').max(MAX_MIXTURE_CONTRIBUTORS, `At most ${MAX_MIXTURE_CONTRIBUTORS}`),
    dropout: DropoutSetting,
    dropIn: z.number().min(0, 'Cannot be negative').lt(1, 'Below 1'),
    theta: z.number().min(0, 'Cannot be negative').lt(1, 'Below 1'),
    /** Whether the person of interest's alleles enter θ's counts under Hd (as a typed non-contributor). */
    personOfInterestTypedUnderHd: z.boolean().default(true),
    /** Rescale each marker's frequencies to sum to 1 after the minimum allele frequency rule. */
    normalizeFrequencies: z.boolean().default(false),
  })
  .meta({ id: 'MixtureSetting' });
export type MixtureSetting = z.infer<typeof MixtureSetting>;

/** Alleles written out per marker (an empty list: the marker was typed and nothing was seen). */
export const MixtureMarkersInput = z.array(z.object({ marker: z.string().trim().min(1), alleles: z.array(z.string().trim().min(1)).max(40, 'At most 40 alleles at a marker') })).min(1);

/** A profile of the mixture call: a stored profile, or its alleles written out. */
export const MixtureProfileInput = z.union([z.object({ profileId: Id }), z.object({ name: z.string().trim().min(1).max(80).optional(), markers: MixtureMarkersInput })]);
export type MixtureProfileInput = z.infer<typeof MixtureProfileInput>;

export const MixtureLrBody = MixtureSetting.extend({
  /** Compute and show both hypotheses' drop-out estimates (seconds on a large stain); an estimated drop-out computes the one it uses anyway. */
  estimateDropout: z.boolean().default(false),
  /** The evidence: one or more replicates of the same stain. */
  replicates: z.array(MixtureProfileInput).min(1).max(10),
  personOfInterest: MixtureProfileInput,
  /** Contributors under both hypotheses (a victim, a consensual partner). */
  knownContributors: z.array(MixtureProfileInput).max(MAX_MIXTURE_CONTRIBUTORS - 1).default([]),
  /** A stored population, or the frequencies themselves: exactly one. */
  populationId: Id.optional(),
  frequencies: FrequencyTableInput.optional(),
}).meta({ id: 'MixtureLrBody' });
export type MixtureLrBody = z.infer<typeof MixtureLrBody>;

export const DropoutEstimateResult = z
  .object({
    hypothesis: z.enum(['Hp', 'Hd']),
    /** Null when no drop-out explains the evidence under the hypothesis (its likelihood is 0 at every value): `note` says so. */
    maximumLikelihood: z.number().nullable(),
    log10Likelihood: z.number().nullable(),
    note: z.string().nullable(),
    /** 95th percentile of the Monte-Carlo estimate; null when no simulated value reproduced the evidence. */
    conservative: z.number().nullable(),
    observedAlleles: z.number().int(),
    accepted: z.number().int(),
    tried: z.number().int(),
    seed: z.number().int(),
  })
  .meta({ id: 'DropoutEstimate' });
export type DropoutEstimateResult = z.infer<typeof DropoutEstimateResult>;

export const MixtureMarkerLr = z
  .object({
    marker: z.string(),
    /** The allele classes: the seen alleles, then "other" (every other allele, the remaining frequency). */
    alleles: z.array(z.string()),
    frequencies: z.array(z.number()),
    replicates: z.array(z.array(z.string())),
    personOfInterest: z.array(z.string()),
    knownContributors: z.array(z.array(z.string()).nullable()),
    explained: z.array(z.string()),
    droppedOut: z.array(z.string()),
    /** Seen alleles no typed contributor carries: drop-ins, or with unknowns under Hp an unknown's. */
    unexplained: z.array(z.string()),
    unknownsHp: z.number().int(),
    unknownsHd: z.number().int(),
    likelihoodHp: z.number(),
    likelihoodHd: z.number(),
    lr: z.number(),
    log10: z.number().nullable(),
  })
  .meta({ id: 'MixtureMarkerLr' });
export type MixtureMarkerLr = z.infer<typeof MixtureMarkerLr>;

/** Every parameter a mixture LR used, as used: the drop-out per contributor under each hypothesis included. */
export const MixtureParametersUsed = MixtureSetting.extend({
  dropoutHp: z.array(z.number()),
  dropoutHd: z.array(z.number()),
  /** How Hd's drop-outs were set (LRmix's convention, as given, or estimated). */
  dropoutHdRule: z.string(),
  hp: z.string(),
  hd: z.string(),
  population: z.object({ id: Id.nullable(), name: z.string(), minimumAlleleFrequency: z.number() }),
}).meta({ id: 'MixtureParametersUsed' });
export type MixtureParametersUsed = z.infer<typeof MixtureParametersUsed>;

export const MixtureLrResult = z
  .object({
    parameters: MixtureParametersUsed,
    /** The drop-out estimates computed: both when asked for (estimateDropout), else the one an estimated drop-out used, else none. */
    estimates: z.array(DropoutEstimateResult),
    markers: z.array(MixtureMarkerLr),
    skippedMarkers: z.array(z.object({ marker: z.string(), reason: z.string() })),
    lr: z.number(),
    log10: z.number().nullable(),
  })
  .meta({ id: 'MixtureLrResult' });
export type MixtureLrResult = z.infer<typeof MixtureLrResult>;

/** What a ranked mixture search reads by default: the reference categories of the seed mixture rule. */
export const MIXTURE_SEARCHED_DEFAULT = ['Convicted Offender', 'Arrestee', 'Suspect, Known'] as const;

/**
 * The LR-ranked database search for a mixture (issue 17; SmartRank's list): the evidence (stored replicates or typed
 * alleles) with its known contributors, a mixture analysis's parameters (or the run's own), against the approved
 * references of the searched sample types in the organization.
 */
export const MixtureSearchBody = z
  .object({
    /** The organization searched (Profiles Read there); `all` (scope All only) searches every organization the user reaches. */
    organizationId: z.union([Id, z.literal('all')]),
    analysisId: Id,
    replicates: z.array(MixtureProfileInput).min(1, 'Give the evidence').max(10),
    knownContributors: z.array(MixtureProfileInput).max(MAX_MIXTURE_CONTRIBUTORS - 1).default([]),
    setting: MixtureSetting.optional(),
    populationIds: z.array(Id).min(1, 'Choose at least one population').max(10, 'At most 10 populations at once'),
    searchedSampleTypes: z.array(z.string()).min(1).max(20).default([...MIXTURE_SEARCHED_DEFAULT]),
    minMarkers: z.number().int().min(1).max(100).default(8),
    limit: z.number().int().min(1).max(500).default(50),
    /**
     * `continuous` (issue 31): the stain's peak heights weighed by the gamma model — Hd fitted once, each reference
     * scored from per-marker tables, each listed one fitted again under Hp; the replicates must be stored profiles with heights.
     */
    model: z.enum(['semi-continuous', 'continuous']).optional(),
    /** The continuous model's own settings (the analysis or `setting` gives contributors, drop-in, θ and the frequency rule). */
    continuous: ContinuousSearchSetting.extend({
      /** Left out: the stain's kit's threshold (a default here would hide the kit's). */
      analyticalThreshold: z.number().positive().finite().optional(),
    }).optional(),
  })
  .meta({ id: 'MixtureSearchBody' });
export type MixtureSearchBody = z.infer<typeof MixtureSearchBody>;

export const MixtureSearchCandidate = z
  .object({
    profileId: Id,
    sampleName: z.string(),
    sampleType: z.string(),
    caseId: Id,
    caseNumber: z.string(),
    results: z.array(
      z.object({
        populationId: Id,
        lr: z.number(),
        log10: z.number().nullable(),
        markerCount: z.number().int(),
        /** P(an unrelated reference scores at least this LR), upper end of its bracket, and N × it. */
        pValue: z.number().nullable(),
        expectedChanceHits: z.number(),
        /** The continuous model's figures (`lr` is then the exact one, from the candidate's own fit). */
        continuous: ContinuousCandidateFigures.nullable().default(null),
      }),
    ),
  })
  .meta({ id: 'MixtureSearchCandidate' });
export type MixtureSearchCandidate = z.infer<typeof MixtureSearchCandidate>;

export const MixtureSearchAnswer = z
  .object({
    setting: MixtureSetting,
    /** Per population: the drop-out used per contributor (candidate, known contributors, unknowns) and the hypotheses. */
    populations: z.array(
      z.object({
        populationId: Id,
        populationName: z.string(),
        synthetic: z.boolean(),
        dropout: z.array(z.number()),
        dropoutHd: z.array(z.number()),
        /** How Hd's drop-outs were set (LRmix's convention, set by the user, or estimated); null when the population weighed nothing. */
        dropoutHdRule: z.string().nullable(),
        /** Why the population weighed nothing (it holds none of the evidence's markers), or null: it is not in the candidates' results. */
        notEvaluated: z.string().nullable(),
        /** The continuous model's Hd fit in this population (null: the semi-continuous model, or not evaluated). */
        continuousHd: z.object({ parameters: GammaParametersUsed, logLikelihood: z.number(), fit: ContinuousFitReport }).nullable().default(null),
      }),
    ),
    model: z.enum(['semi-continuous', 'continuous']).default('semi-continuous'),
    continuous: ContinuousSearchSetting.nullable().default(null),
    hp: z.string(),
    hd: z.string(),
    searchedProfiles: z.number().int(),
    truncated: z.boolean(),
    /** Ranked by the smallest LR over the populations, the strongest first. */
    candidates: z.array(MixtureSearchCandidate),
  })
  .meta({ id: 'MixtureSearchAnswer' });
export type MixtureSearchAnswer = z.infer<typeof MixtureSearchAnswer>;
