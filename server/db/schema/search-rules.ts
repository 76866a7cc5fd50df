import { boolean, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';
import { analyses } from './analyses';
import { populations } from './populations';

/**
 * A search rule (ARCHITECTURE.md "Search policy"): approved profiles of the searching sample types are
 * searched against approved profiles of the searched sample types of the same organization, with one
 * analysis — CODIS identity stringency when `stringency` is set (the analysis then gives the hit's
 * statistics), otherwise the analysis's LR (or exclusion count) against the threshold — on approval
 * or only on request (familial search).
 */
export const searchRules = pgTable(
  'search_rules',
  {
    ...recordColumns,
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    /** 'approval' (runs when a profile of a searching type is approved) | 'request' (familial search). */
    trigger: text('trigger').notNull().default('approval'),
    /** CMF specimen categories (core/schemas/profiles.ts SAMPLE_TYPES). */
    searchingSampleTypes: text('searching_sample_types').array().notNull(),
    searchedSampleTypes: text('searched_sample_types').array().notNull(),
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'restrict' }),
    /** 'high' | 'moderate' | 'low': a CODIS identity rule; null: ranked by the analysis. */
    stringency: text('stringency'),
    minMarkers: integer('min_markers').notNull().default(8),
    maxMismatches: integer('max_mismatches').notNull().default(0),
    /** 'likelihood-ratio' | 'expected-chance-hits' (core/schemas/search-rules.ts). */
    thresholdKind: text('threshold_kind').notNull().default('likelihood-ratio'),
    /** Null: the analysis's own threshold. */
    threshold: doublePrecision('threshold'),
  },
  (t) => [uniqueIndex('search_rules_name_unique').on(sql`lower(${t.name})`), index('search_rules_analysis_idx').on(t.analysisId)],
);

/** The populations a rule computes with; none named: every population of the organization (never the synthetic one). */
export const searchRulePopulations = pgTable(
  'search_rule_populations',
  {
    searchRuleId: uuid('search_rule_id')
      .notNull()
      .references(() => searchRules.id, { onDelete: 'cascade' }),
    populationId: uuid('population_id')
      .notNull()
      .references(() => populations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'search_rule_populations_pk', columns: [t.searchRuleId, t.populationId] }), index('search_rule_populations_population_idx').on(t.populationId)],
);
