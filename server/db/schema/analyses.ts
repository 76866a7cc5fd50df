import type { MixtureSetting } from '../../../core/schemas/mixtures';
import { boolean, doublePrecision, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { AnalysisPedigree } from '../../../core/schemas/analyses';
import type { MutationSetting } from '../../../core/schemas/pedigrees';
import { recordColumns } from './columns';

/** A named group of analyses (e.g. Kinship) shown together in the calculator (spec 2.5). */
export const analysisGroups = pgTable('analysis_groups', { ...recordColumns, name: text('name').notNull() }, (t) => [
  uniqueIndex('analysis_groups_name_unique').on(sql`lower(${t.name})`),
]);

/** An analysis: 'Computational', 'Exclusion' or 'Pedigree', its ordered roles and threshold (GENETICS.md). */
export const analyses = pgTable(
  'analyses',
  {
    ...recordColumns,
    analysisGroupId: uuid('analysis_group_id')
      .notNull()
      .references(() => analysisGroups.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    label: text('label').notNull().default(''),
    kind: text('kind').notNull(),
    /** Which profiles: 'Autosomal' or 'YStr'. */
    profileKind: text('profile_kind').notNull().default('Autosomal'),
    roles: jsonb('roles').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    threshold: doublePrecision('threshold'),
    active: boolean('active').notNull().default(true),
    /** The drawn pedigree (H1, the tested person, H2): Pedigree analyses, and pairwise/trio ones that weigh mutation. */
    pedigree: jsonb('pedigree').$type<AnalysisPedigree>(),
    /** Female/male mutation models (GENETICS.md "Mutation models"); null: none. */
    mutation: jsonb('mutation').$type<MutationSetting>(),
    /** Mixture analyses' parameters (GENETICS.md "Mixtures"); null for the other kinds. */
    mixture: jsonb('mixture').$type<MixtureSetting>(),
  },
  (t) => [index('analyses_group_idx').on(t.analysisGroupId)],
);

/** A named constant of a computational analysis (κ0, θ, μ, …): its name in formulae, its notation and value. */
export const analysisConstants = pgTable(
  'analysis_constants',
  {
    ...recordColumns,
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** How the constant reads in mathematical notation (LaTeX), e.g. \kappa_0. */
    notation: text('notation').notNull().default(''),
    value: doublePrecision('value').notNull(),
  },
  (t) => [uniqueIndex('analysis_constants_name_unique').on(t.analysisId, t.name)],
);

/**
 * One row of an analysis's formula table (GENETICS.md "Analyses are data"): the allele expression
 * (canonical pattern of the roles' genotypes) and either an arithmetic expression (computational)
 * or whether the pattern is an exclusion (exclusion analyses).
 */
export const analysisFormulae = pgTable(
  'analysis_formulae',
  {
    ...recordColumns,
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'cascade' }),
    pattern: text('pattern').notNull(),
    expression: text('expression'),
    isExclusion: boolean('is_exclusion'),
  },
  (t) => [uniqueIndex('analysis_formulae_pattern_unique').on(t.analysisId, t.pattern)],
);
