import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';
import { analyses } from './analyses';
import { families } from './families';
import { organizations } from './organizations';
import { populations } from './populations';
import { profiles } from './profiles';
import { users } from './users';
import { searchRules } from './search-rules';
import type { HitFigures } from '../../../core/schemas/hit-figures';

/**
 * A hit (spec 3 Hit): one analysis result over its threshold, per population, between profiles in
 * the analysis's roles. Status follows ARCHITECTURE.md "States": pending → published | rejected;
 * published | rejected → pending (reset).
 */
export const hits = pgTable(
  'hits',
  {
    ...recordColumns,
    /** The organization of the profile whose approval produced the hit: who may see it (tenancy). */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'restrict' }),
    /** Null for exclusion analyses, which use no population. */
    populationId: uuid('population_id').references(() => populations.id, { onDelete: 'restrict' }),
    combinedIndex: doublePrecision('combined_index'),
    /** A continuous-model mixture hit's LR from the search's tables at Hd's fit (issue 31); combined_index is its exact LR from its own fit. */
    scanCombinedIndex: doublePrecision('scan_combined_index'),
    markerCount: integer('marker_count').notNull(),
    nonExclusionMarkerCount: integer('non_exclusion_marker_count'),
    /** 'pending' | 'published' | 'rejected' (core/schemas/hits.ts HIT_STATUSES). */
    status: text('status').notNull().default('pending'),
    /** The last decision's comments (publish, reset) or reason (reject); the history keeps every one. */
    comments: text('comments').notNull().default(''),
    /** The match: analysis and its sorted profile ids (server/hits/dedupe-key.ts); older hits: analysis | population | role=profile pairs. */
    dedupeKey: text('dedupe_key').notNull(),
    /** The rule whose search found it (null: hits recorded before search rules, or a deleted rule). */
    searchRuleId: uuid('search_rule_id').references(() => searchRules.id, { onDelete: 'set null' }),
    /** 'identity' | 'kinship' | 'exclusion' (core/schemas/hit-figures.ts MATCH_KINDS): an identity hit supersedes the others of its profiles. */
    matchKind: text('match_kind').notNull().default('kinship'),
    /** The hit's profile ids, sorted and joined: the same profiles whatever the analysis (superseding). */
    profileSet: text('profile_set').notNull().default(''),
    /** Every population's figures, the stringency counts and the expected chance hits (core/schemas/hit-figures.ts). */
    figures: jsonb('figures').$type<HitFigures>(),
    /** The reported population's: expected chance hits at the threshold, and P(LR ≥ this LR | unrelated). */
    expectedChanceHits: doublePrecision('expected_chance_hits'),
    pValue: doublePrecision('p_value'),
    /** The missing-person family whose search found it (issue 16); null for rule searches or a deleted family. */
    familyId: uuid('family_id').references(() => families.id, { onDelete: 'set null' }),
  },
  (t) => [
    // A second search of the same profiles never records the hit again (recordHitCandidates: on conflict do nothing).
    uniqueIndex('hits_dedupe_key_unique').on(t.dedupeKey),
    // The hit lists: one organization's hits by status, newest first.
    index('hits_organization_status_idx').on(t.organizationId, t.status, t.createdAt),
    index('hits_analysis_idx').on(t.analysisId),
    index('hits_population_idx').on(t.populationId),
    index('hits_profile_set_idx').on(t.organizationId, t.profileSet),
    // Lists sort by strength: the combined index, then the date.
    index('hits_organization_status_strength_idx').on(t.organizationId, t.status, t.combinedIndex, t.createdAt),
    index('hits_search_rule_idx').on(t.searchRuleId),
    index('hits_family_idx').on(t.familyId),
  ],
);

/** The profiles a hit compares, each in its analysis role (spec 3: profiles with analysisProfileId and profileId). */
export const hitProfiles = pgTable(
  'hit_profiles',
  {
    hitId: uuid('hit_id')
      .notNull()
      .references(() => hits.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    /** The role's place in the analysis's role order (0-based). */
    position: integer('position').notNull(),
    // Restrict: a profile named by hits leaves only with them (deleteHitsOf on reset-delete).
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'restrict' }),
  },
  (t) => [
    primaryKey({ name: 'hit_profiles_pk', columns: [t.hitId, t.position] }),
    // A profile's hits (profile hit list, withdraw on reset, delete on reset-delete).
    index('hit_profiles_profile_idx').on(t.profileId),
  ],
);

/** Every transition of a hit (ARCHITECTURE.md "States": who, when, comments or reason), never updated. */
export const hitHistory = pgTable(
  'hit_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hitId: uuid('hit_id')
      .notNull()
      .references(() => hits.id, { onDelete: 'cascade' }),
    /** Null on the row that records the hit being found. */
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The name as it was at the time, so the history outlives a deleted account. */
    userName: text('user_name').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Publish or reset comments, or the rejection reason. */
    comments: text('comments').notNull().default(''),
    /** Whether publishing sent the hit-published e-mail. */
    notified: boolean('notified').notNull().default(false),
  },
  // The hit view lists a hit's history in order.
  (t) => [index('hit_history_hit_idx').on(t.hitId, t.at)],
);
