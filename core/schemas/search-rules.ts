import { z } from 'zod';
import { ANALYSIS_KINDS } from './analyses';
import { Id } from './common';
import { STRINGENCIES } from './keyboard-search';
import { REQUIRED, requiredText } from './named-record';
import { SAMPLE_TYPES } from './profiles';

/** When a rule runs (ARCHITECTURE.md "Search policy"): on a profile's approval, or only when a user asks (familial search). */
export const SEARCH_TRIGGERS = ['approval', 'request'] as const;
export type SearchTrigger = (typeof SEARCH_TRIGGERS)[number];
export const SEARCH_TRIGGER_LABELS: Record<SearchTrigger, string> = { approval: 'On approval', request: 'On request' };

/** A rule's threshold: a likelihood ratio, or the most chance hits a search may expect (GENETICS.md "Expected chance hits"). */
export const THRESHOLD_KINDS = ['likelihood-ratio', 'expected-chance-hits'] as const;
export type ThresholdKind = (typeof THRESHOLD_KINDS)[number];
export const THRESHOLD_KIND_LABELS: Record<ThresholdKind, string> = { 'likelihood-ratio': 'Likelihood ratio', 'expected-chance-hits': 'Expected chance hits per search' };

const sampleTypes = z.array(z.enum(SAMPLE_TYPES, { error: 'Unknown sample type' })).min(1, 'Choose at least one sample type');

/**
 * What the rule form sends (ARCHITECTURE.md "Search policy"): profiles of the searching sample types are
 * searched against approved profiles of the searched types with one analysis; `stringency` makes it a
 * CODIS identity rule (the analysis then supplies the statistics); otherwise candidates are ranked by
 * the analysis against the threshold (null: the analysis's own). No populations: every population of
 * the organization except the synthetic one.
 */
export const SearchRuleInput = z.object({
  name: requiredText(),
  active: z.boolean().default(true),
  trigger: z.enum(SEARCH_TRIGGERS, { error: REQUIRED }),
  searchingSampleTypes: sampleTypes,
  searchedSampleTypes: sampleTypes,
  analysisId: z.uuid({ error: REQUIRED }),
  stringency: z.enum(STRINGENCIES).nullable(),
  minMarkers: z.number({ error: REQUIRED }).int('A whole number').min(1, 'At least 1').max(100, 'At most 100'),
  maxMismatches: z.number({ error: REQUIRED }).int('A whole number').min(0, 'At least 0').max(10, 'At most 10'),
  thresholdKind: z.enum(THRESHOLD_KINDS),
  threshold: z.number().positive('Must be greater than 0').nullable(),
  populationIds: z.array(Id).default([]),
});
export type SearchRuleInput = z.infer<typeof SearchRuleInput>;

/** A search rule as the table and the edit form read it. */
export const SearchRule = SearchRuleInput.extend({
  id: Id,
  version: z.number().int(),
  analysisName: z.string(),
  // Every kind a stored rule may name: mixture rules are seeded, pedigree ones may remain from older databases.
  analysisKind: z.enum(ANALYSIS_KINDS),
  profileKind: z.enum(['Autosomal', 'YStr']),
  populationNames: z.array(z.string()),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
}).meta({ id: 'SearchRule' });
export type SearchRule = z.infer<typeof SearchRule>;

/** A rule's write carries the version the editor read (409 when stale). */
export const SearchRuleUpdate = SearchRuleInput.extend({ version: z.number().int().min(1) });
export type SearchRuleUpdate = z.infer<typeof SearchRuleUpdate>;

/**
 * How a hit names a profile (ARCHITECTURE.md "Hits"): from its sample type, never from the analysis's
 * roles ("Child" for a stain). Remains stand for the missing person in a kinship hit.
 */
export function sampleTypeRole(sampleType: string, matchKind: 'identity' | 'kinship' | 'exclusion' | 'mixture'): string {
  switch (sampleType) {
    case 'Forensic, Unknown':
    case 'Forensic Mixture':
      return 'Evidence';
    case 'Missing Person':
      return 'Missing person';
    case 'Unidentified Human (Remains)':
      return matchKind === 'identity' ? 'Unidentified remains' : 'Missing person';
    case 'Biological Mother':
    case 'Biological Father':
    case 'Biological Child':
    case 'Biological Sibling':
    case 'Alleged Father':
    case 'Alleged Mother':
    case 'Spouse':
      return 'Relative';
    default:
      return matchKind === 'identity' ? 'Reference' : matchKind === 'mixture' ? 'Person of interest' : 'Relative';
  }
}

/** An analysis the rule form offers: its kind, the profiles it compares, how many roles it has (a search compares two) and its own threshold. */
export const SearchRuleAnalysisOption = z.object({
  id: Id,
  name: z.string(),
  groupName: z.string(),
  /** Pedigree analyses are not offered: a family searches from its missing-person case. */
  kind: z.enum(['Computational', 'Exclusion', 'Mixture']),
  profileKind: z.enum(['Autosomal', 'YStr']),
  roleCount: z.number().int(),
  threshold: z.number().nullable(),
  active: z.boolean(),
});
export type SearchRuleAnalysisOption = z.infer<typeof SearchRuleAnalysisOption>;

/** A population the rule form offers; a synthetic one may not be named by a rule that runs on approval. */
export const SearchRulePopulationOption = z.object({ id: Id, name: z.string(), kind: z.enum(['Autosomal', 'YStr']), synthetic: z.boolean() });
export type SearchRulePopulationOption = z.infer<typeof SearchRulePopulationOption>;

/** The lists the rule form chooses from (GET /api/search-rules/form-options). */
export const SearchRuleFormOptions = z
  .object({ analyses: z.array(SearchRuleAnalysisOption), populations: z.array(SearchRulePopulationOption) })
  .meta({ id: 'SearchRuleFormOptions' });
export type SearchRuleFormOptions = z.infer<typeof SearchRuleFormOptions>;

/** The identity stringencies as the rule form and table name them (GENETICS.md "Database search"). */
export const STRINGENCY_LABELS: Record<(typeof STRINGENCIES)[number], string> = { high: 'High', moderate: 'Moderate', low: 'Low' };

/** A rule as a profile view names it. */
export const RuleReference = z.object({ id: Id, name: z.string(), trigger: z.enum(SEARCH_TRIGGERS) }).meta({ id: 'RuleReference' });

/**
 * Which search rules concern a profile (ARCHITECTURE.md "Search policy"): those that search it when it is
 * approved (its sample type searches), and those under which other profiles' searches find it (its sample
 * type is searched). Both empty: the profile is searched by no rule, and its view says so.
 */
export const ProfileSearchRules = z
  .object({
    sampleType: z.string(),
    searching: z.array(RuleReference),
    searchedBy: z.array(RuleReference),
  })
  .meta({ id: 'ProfileSearchRules' });
export type ProfileSearchRules = z.infer<typeof ProfileSearchRules>;
