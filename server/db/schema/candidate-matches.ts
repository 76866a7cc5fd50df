import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { CandidateMatchNotice } from '../../../core/schemas/candidate-matches';
import { recordColumns } from './columns';
import { hits } from './hits';
import { lowerInstances } from './network';
import { organizations } from './organizations';
import { profiles } from './profiles';
import { users } from './users';

/**
 * At the upper level (issue 32): a hit involving a held profile, told to the lower instance whose laboratory holds it,
 * one row per held profile of the hit, written in the hit's transaction. The lower instance fetches the undelivered
 * ones (pull: this level holds no credentials there) and its laboratory's decision comes back in a batch.
 */
export const candidateMatchNotices = pgTable(
  'candidate_match_notices',
  {
    id: uuid('id').primaryKey().default(sql`uuid_v7()`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The hit it tells of; null once the hit went (its profile expunged or reset-deleted). */
    hitId: uuid('hit_id').references(() => hits.id, { onDelete: 'set null' }),
    lowerInstanceId: uuid('lower_instance_id')
      .notNull()
      .references(() => lowerInstances.id, { onDelete: 'restrict' }),
    /** The held laboratory (organization here) whose profile is in the hit. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** The held profile here; null once expunged. */
    heldProfileId: uuid('held_profile_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** What is sent down, written once (core/schemas/candidate-matches.ts CandidateMatchNotice). */
    notice: jsonb('notice').$type<CandidateMatchNotice>().notNull(),
    /** When the lower instance said it stored it; null: it is sent again on its next fetch. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** 'pending' | 'confirmed' | 'rejected': the laboratory's decision, as its batch told it. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    // The lower instance's fetch: its undelivered notices in order.
    index('candidate_match_notices_undelivered_idx').on(t.lowerInstanceId, t.id).where(sql`${t.deliveredAt} is null`),
    index('candidate_match_notices_hit_idx').on(t.hitId),
  ],
);

/**
 * At the laboratory (issue 32): a candidate match the upper level sent down, by the notice's id there (a notice
 * fetched twice is stored once), reviewed like a hit: confirmed, or rejected with a reason.
 */
export const candidateMatches = pgTable(
  'candidate_matches',
  {
    ...recordColumns,
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    // A profile deleted here takes its candidate matches with it (its expungement travels up too).
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** The upper instance's address at the time it was fetched. */
    upperInstance: text('upper_instance').notNull(),
    notice: jsonb('notice').$type<CandidateMatchNotice>().notNull(),
    /** 'pending' | 'confirmed' | 'rejected' (core/schemas/candidate-matches.ts). */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** The name as it was at the time, so the list outlives a deleted account. */
    decidedByName: text('decided_by_name'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('candidate_matches_organization_status_idx').on(t.organizationId, t.status, t.createdAt), index('candidate_matches_profile_idx').on(t.profileId)],
);
