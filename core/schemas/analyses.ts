import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';
import { MARKER_KINDS } from './markers';
import { REQUIRED, requiredText } from './named-record';
import { MixtureLrResult, MixtureSetting } from './mixtures';
import { MutationSetting, PedigreePersonInput } from './pedigrees';

/**
 * Spec 2.5: Computational (formulae and constants) and Exclusion (formulae that say Exclusion or Non Exclusion);
 * issue 16 adds Pedigree (a drawn pedigree whose typed persons are the roles, GENETICS.md "Pedigrees"); issue 17 adds
 * Mixture (the semi-continuous LR of an evidence profile and a person of interest, GENETICS.md "Mixtures"); issue 31
 * adds Continuous mixture (the gamma peak-height model of a stain with heights, GENETICS.md "Continuous model").
 */
export const ANALYSIS_KINDS = ['Computational', 'Exclusion', 'Pedigree', 'Mixture', 'Continuous mixture'] as const;

/** A mixture analysis's two roles: the evidence (its first replicate) and the person of interest. */
export const MIXTURE_ROLES = ['Evidence', 'Person of interest'] as const;
export type AnalysisKind = (typeof ANALYSIS_KINDS)[number];

/** The kind weighed by the continuous (peak-height) model through `POST continuous-lr`, not `analyze`. */
export const CONTINUOUS_MIXTURE = 'Continuous mixture' satisfies AnalysisKind;

/** The kinds that weigh an evidence profile and a person of interest (their roles are MIXTURE_ROLES). */
export const isMixtureKind = (kind: AnalysisKind): boolean => kind === 'Mixture' || kind === CONTINUOUS_MIXTURE;

/** The letters of allele frequencies in formulae (GENETICS.md: p … u for alleles P … U). */
export const FREQUENCY_LETTERS = ['p', 'q', 'r', 's', 't', 'u'] as const;

/** An allele expression: each role's genotype in canonical letters, joined by `-` (e.g. `PQ-PR`). */
export const ALLELE_EXPRESSION = /^[PQRSTU]{1,4}(-[PQRSTU]{1,4}){0,5}$/;

/** Most roles (typed persons) a pedigree analysis places profiles into; formula tables stop at 3 (six letters). */
export const MAX_PEDIGREE_ROLES = 10;

/**
 * An analysis's pedigree (GENETICS.md "Pedigrees"): H1 as drawn, the person whose relationship is tested (the
 * missing person or person of interest, one of the roles) and H2. Every role is a person of the pedigree.
 */
export const AnalysisPedigree = z
  .object({
    persons: z.array(PedigreePersonInput).min(1, 'Draw at least one person').max(40, 'At most 40 persons'),
    target: z.string({ error: REQUIRED }).trim().min(1, REQUIRED),
    /** H2 drawn out; null: the target is unrelated to the others, an unknown person taking their place as a parent. */
    alternative: z.array(PedigreePersonInput).min(1).max(40).nullable().default(null),
  })
  .meta({ id: 'AnalysisPedigree' });
export type AnalysisPedigree = z.infer<typeof AnalysisPedigree>;

/** What the analysis form sends (spec 2.5 AnalysisEdit). */
export const AnalysisInput = z.object({
  name: requiredText(),
  label: z.string().max(200, 'At most 200 characters'),
  kind: z.enum(ANALYSIS_KINDS, { error: REQUIRED }),
  profileKind: z.enum(MARKER_KINDS, { error: REQUIRED }),
  /** The roles in order, e.g. Child, Alleged father (GENETICS.md "Analyses are data"). */
  roles: z.array(requiredText(60)).min(1, 'Name at least one role').max(MAX_PEDIGREE_ROLES, `At most ${MAX_PEDIGREE_ROLES} roles`),
  /**
   * Computational: the combined index a result must reach to be a hit. Exclusion: the most
   * exclusions a result may have to be a hit. Null: never a hit (calculator only).
   */
  threshold: z.number().finite().min(0, 'Cannot be negative').nullable(),
  active: z.boolean(),
  /** Pedigree analyses, and pairwise/trio analyses that weigh mutation: absent on an edit leaves it as it is. */
  pedigree: AnalysisPedigree.nullish(),
  /** Null: no mutation (pairwise/trio analyses keep μ/A from their formula table). Absent on an edit: unchanged. */
  mutation: MutationSetting.nullish(),
  /** Mixture analyses: contributors, drop-out, drop-in, θ (GENETICS.md "Mixtures"). Absent on an edit: unchanged. */
  mixture: MixtureSetting.nullish(),
});
export type AnalysisInput = z.infer<typeof AnalysisInput>;

/** Formula tables stop at three roles (an allele expression has six letters); a pedigree's roles are its typed persons. */
function checkRoleCount(input: { kind: AnalysisKind; roles: string[] }, ctx: z.RefinementCtx): void {
  if (isMixtureKind(input.kind)) {
    if (input.roles.length !== MIXTURE_ROLES.length) ctx.addIssue({ code: 'custom', path: ['roles'], message: `Two roles: ${MIXTURE_ROLES.join(' and ')}` });
  } else if (input.kind !== 'Pedigree' && input.roles.length > 3) ctx.addIssue({ code: 'custom', path: ['roles'], message: 'At most 3 roles (an allele expression has six letters)' });
}

export const CreateAnalysisBody = AnalysisInput.extend({ analysisGroupId: Id }).superRefine(checkRoleCount);
export const UpdateAnalysisBody = AnalysisInput.extend(Versioned.shape).superRefine(checkRoleCount);

/** An analysis with what its formula table lacks: patterns its roles can produce that have no formula. */
export const Analysis = AnalysisInput.extend({
  // Stored values, not form rules: an analysis made before its roles were named still reads.
  name: z.string(),
  label: z.string(),
  roles: z.array(z.string()),
  threshold: z.number().nullable(),
  id: Id,
  analysisGroupId: Id,
  analysisGroupName: z.string(),
  version: z.number().int(),
  formulaCount: z.number().int(),
  constantCount: z.number().int(),
  missingPatterns: z.array(z.string()),
  pedigree: AnalysisPedigree.nullable(),
  mutation: MutationSetting.nullable(),
  mixture: MixtureSetting.nullable(),
}).meta({ id: 'Analysis' });
export type Analysis = z.infer<typeof Analysis>;

/** A constant's name as formulae use it: a letter, then letters, digits or _; never a frequency letter. */
export const ConstantInput = z.object({
  name: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .max(40, 'At most 40 characters')
    .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'A letter, then letters, digits or _')
    .refine((n) => !(FREQUENCY_LETTERS as readonly string[]).includes(n), 'p, q, r, s, t and u are allele frequencies'),
  notation: z.string().max(200, 'At most 200 characters'),
  value: z.number({ error: REQUIRED }).finite('Must be a number'),
});
export type ConstantInput = z.infer<typeof ConstantInput>;
export const UpdateConstantBody = ConstantInput.extend(Versioned.shape);

export const Constant = ConstantInput.extend({ id: Id, analysisId: Id, version: z.number().int() }).meta({ id: 'Constant' });
export type Constant = z.infer<typeof Constant>;

/** A formula row: its allele expression and either an expression (computational) or the exclusion flag. */
export const FormulaInput = z.object({
  pattern: z
    .string({ error: REQUIRED })
    .trim()
    .min(1, REQUIRED)
    .regex(ALLELE_EXPRESSION, 'Genotypes in letters P–U joined by -, e.g. PQ-PR'),
  expression: z.string().trim().max(2000, 'At most 2000 characters').nullable(),
  isExclusion: z.boolean().nullable(),
});
export type FormulaInput = z.infer<typeof FormulaInput>;
export const UpdateFormulaBody = FormulaInput.extend(Versioned.shape);

export const Formula = FormulaInput.extend({
  id: Id,
  analysisId: Id,
  version: z.number().int(),
  /** The expression in mathematical notation (LaTeX), for KaTeX. */
  latex: z.string().nullable(),
  /** The value when the expression uses constants only (e.g. κ0 for unrelated genotypes). */
  value: z.number().nullable(),
}).meta({ id: 'Formula' });
export type Formula = z.infer<typeof Formula>;

/** What the calculator sends (spec 7.1 analyze): a profile for each role, in role order, and the populations. */
export const AnalyzeBody = z.object({
  profileIds: z.array(Id).min(1).max(MAX_PEDIGREE_ROLES),
  populationIds: z.array(Id).max(10, 'At most 10 populations at once'),
  /**
   * The mutation models for this run instead of the analysis's own (null: none); the analysis needs a pedigree.
   * The answer repeats the models used either way.
   */
  mutation: MutationSetting.nullable().optional(),
  /**
   * Mixture analyses: further replicates of the evidence (profileIds[0] is the first), the known contributors (under
   * both hypotheses) and the parameters for this run instead of the analysis's own.
   */
  mixture: z
    .object({
      replicateProfileIds: z.array(Id).max(9, 'At most 10 replicates').default([]),
      knownContributorIds: z.array(Id).max(4, 'At most 4 known contributors').default([]),
      setting: MixtureSetting.optional(),
      /** Compute and show both hypotheses' drop-out estimates (seconds on a large stain); the calculator asks when its reader does. */
      estimateDropout: z.boolean().default(false),
    })
    .optional(),
});
export type AnalyzeBody = z.infer<typeof AnalyzeBody>;

/** One marker of a result: the roles' genotypes, the pattern and formula used and its value, or why it was not evaluated. */
export const MarkerResult = z
  .object({
    marker: z.string(),
    genotypes: z.array(z.array(z.string()).nullable()),
    pattern: z.string().nullable(),
    expression: z.string().nullable(),
    latex: z.string().nullable(),
    value: z.number().nullable(),
    log10: z.number().nullable(),
    isExclusion: z.boolean().nullable(),
    notEvaluated: z.string().nullable(),
    /** Pedigree likelihoods (a pedigree analysis, or a pairwise/trio one with a mutation model); `value` is their LR. */
    pedigree: z
      .object({
        alleles: z.array(z.string()),
        frequencies: z.array(z.number()),
        mutation: z.string(),
        likelihoodH1: z.number(),
        likelihoodH2: z.number(),
        verdict: z.enum(['consistent', 'needs a mutation', 'excluded']),
      })
      .nullish(),
  })
  .meta({ id: 'MarkerResult' });
export type MarkerResult = z.infer<typeof MarkerResult>;

/**
 * GENETICS.md "Parentage with inconsistencies", for an analysis with the constant `maxInconsistencies`:
 * the evaluated markers inconsistent with the relationship (their formula uses μ) and whether they are
 * more than allowed, which makes the result Excluded (combined index 0, probability "Excluded").
 */
export const ParentageConclusion = z
  .object({
    excluded: z.boolean(),
    inconsistentMarkers: z.array(z.string()),
    maxInconsistencies: z.number(),
  })
  .meta({ id: 'ParentageConclusion' });
export type ParentageConclusion = z.infer<typeof ParentageConclusion>;

/** A computational result over one population; the probability follows spec 4's display rule. */
export const PopulationResult = z
  .object({
    populationId: Id,
    populationName: z.string(),
    populationSource: z.string(),
    /** Generated frequencies (the demo population): every figure below is labelled as synthetic, not for casework. */
    synthetic: z.boolean(),
    markers: z.array(MarkerResult),
    combinedIndex: z.number().nullable(),
    log10: z.number().nullable(),
    probability: z.string(),
    /** Y-STR haplotype frequency: matches x among N haplotypes and the 95% upper bound used. */
    haplotypeCount: z.object({ matches: z.number().int(), total: z.number().int(), upperBound: z.number(), frequency: z.number() }).nullable(),
    /** Null (or absent) when the analysis has no `maxInconsistencies` constant, or weighs mutation by its pedigree. */
    conclusion: ParentageConclusion.nullish(),
    /** Pedigree runs: the markers consistent only through a mutation, and those no mutation model explains (LR 0). */
    markersNeedingMutation: z.array(z.string()).nullish(),
    excludedMarkers: z.array(z.string()).nullish(),
    /** Mixture runs: the hypotheses, every parameter used, both drop-out estimates and per marker Pr(E|Hp), Pr(E|Hd) and the LR. */
    mixture: MixtureLrResult.nullish(),
  })
  .meta({ id: 'PopulationResult' });
export type PopulationResult = z.infer<typeof PopulationResult>;

/** The answer of `POST analyses/{id}/analyze`. */
export const AnalysisResult = z
  .object({
    analysisId: Id,
    analysisName: z.string(),
    analysisLabel: z.string(),
    kind: z.enum(ANALYSIS_KINDS),
    roles: z.array(z.object({ role: z.string(), profileId: Id, sampleName: z.string(), caseId: Id, caseNumber: z.string() })),
    constants: z.array(z.object({ name: z.string(), notation: z.string(), value: z.number() })),
    missingPatterns: z.array(z.string()),
    populations: z.array(PopulationResult),
    exclusion: z
      .object({ markers: z.array(MarkerResult), markerCount: z.number().int(), nonExclusionMarkerCount: z.number().int(), probability: z.string() })
      .nullable(),
    /** The hypotheses a pedigree run compared: H1, H2 and the tested person; null for formula tables. */
    pedigree: z.object({ h1: z.array(PedigreePersonInput), h2: z.array(PedigreePersonInput), target: z.string() }).nullable(),
    /** The mutation models used, with their text (null: none, or a formula table's μ/A). */
    mutation: MutationSetting.extend({ text: z.string() }).nullable(),
    computedAt: z.iso.datetime(),
  })
  .meta({ id: 'AnalysisResult' });
export type AnalysisResult = z.infer<typeof AnalysisResult>;
