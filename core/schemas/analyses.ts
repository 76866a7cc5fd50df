import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';
import { MARKER_KINDS } from './markers';
import { REQUIRED, requiredText } from './named-record';

/** Spec 2.5: Computational (formulae and constants) and Exclusion (formulae that say Exclusion or Non Exclusion). */
export const ANALYSIS_KINDS = ['Computational', 'Exclusion'] as const;
export type AnalysisKind = (typeof ANALYSIS_KINDS)[number];

/** The letters of allele frequencies in formulae (GENETICS.md: p … u for alleles P … U). */
export const FREQUENCY_LETTERS = ['p', 'q', 'r', 's', 't', 'u'] as const;

/** An allele expression: each role's genotype in canonical letters, joined by `-` (e.g. `PQ-PR`). */
export const ALLELE_EXPRESSION = /^[PQRSTU]{1,4}(-[PQRSTU]{1,4}){0,5}$/;

/** What the analysis form sends (spec 2.5 AnalysisEdit). */
export const AnalysisInput = z.object({
  name: requiredText(),
  label: z.string().max(200, 'At most 200 characters'),
  kind: z.enum(ANALYSIS_KINDS, { error: REQUIRED }),
  profileKind: z.enum(MARKER_KINDS, { error: REQUIRED }),
  /** The roles in order, e.g. Child, Alleged father (GENETICS.md "Analyses are data"). */
  roles: z.array(requiredText(60)).min(1, 'Name at least one role').max(3, 'At most 3 roles (an allele expression has six letters)'),
  /**
   * Computational: the combined index a result must reach to be a hit. Exclusion: the most
   * exclusions a result may have to be a hit. Null: never a hit (calculator only).
   */
  threshold: z.number().finite().min(0, 'Cannot be negative').nullable(),
  active: z.boolean(),
});
export type AnalysisInput = z.infer<typeof AnalysisInput>;

export const CreateAnalysisBody = AnalysisInput.extend({ analysisGroupId: Id });
export const UpdateAnalysisBody = AnalysisInput.extend(Versioned.shape);

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
