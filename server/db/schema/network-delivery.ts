import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { lowerInstances } from './network';
import { organizations } from './organizations';
import { profiles } from './profiles';

/**
 * The sender's outbox of changes for the upper instance (issue 32), written in the transaction of the change: an
 * approval of an eligible profile ('upload', its CMF written then), a reset ('reset') or a deletion ('delete') of one
 * sent up before. No foreign key to the profile: a deletion's entry outlives it. The key travels with the entry, so the
 * upper instance applies it once however often it is sent.
 */
export const uploadOutbox = pgTable(
  'upload_outbox',
  {
    id: uuid('id').primaryKey().default(sql`uuid_v7()`),
    idempotencyKey: text('idempotency_key').notNull(),
    action: text('action').notNull(),
    profileId: uuid('profile_id').notNull(),
    /** The profile's organization here: whose audit trail records the delivery. */
    organizationId: uuid('organization_id').notNull(),
    /** The laboratory (organization name here) the upper instance holds the profile under. */
    laboratory: text('laboratory').notNull(),
    /** The profile's sample name, for the delivery screen and the upper level's origin. */
    specimenId: text('specimen_id').notNull(),
    /** What travels: for an upload the CMF document and the kit; empty for a reset or deletion. */
    payload: jsonb('payload').notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    /** Due from then (null: at once); a sender's claim moves it ahead as a lease, a failure by the backoff. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** Set when the upper instance refused the entry itself (unknown laboratory, kit): left for an administrator's retry. */
    refusedAt: timestamp('refused_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('upload_outbox_key_unique').on(t.idempotencyKey),
    // The sender's query: undelivered, unrefused entries by due time.
    index('upload_outbox_due_idx').on(t.nextAttemptAt, t.createdAt).where(sql`${t.deliveredAt} is null and ${t.refusedAt} is null`),
    index('upload_outbox_profile_idx').on(t.profileId),
    // The sender's claim takes the first 500 in id order: walked in that order it stops at 500, whatever the statistics
    // (before an outbox's first ANALYZE, PostgreSQL read every due entry by the index above and sorted them, per batch).
    index('upload_outbox_pending_id_idx').on(t.id).where(sql`${t.deliveredAt} is null and ${t.refusedAt} is null`),
    // The backlog's oldest waiting entry (/api/health): the first of one of these two, not a scan of every waiting one.
    // Split by last_error so no query of the sender (which never names it) can take them for a scan of its own: on
    // stale statistics one index of the sender's predicate alone became its anti-join's inner scan, quadratic.
    index('upload_outbox_waiting_created_idx').on(t.createdAt).where(sql`${t.deliveredAt} is null and ${t.refusedAt} is null and ${t.lastError} is null`),
    index('upload_outbox_retrying_created_idx').on(t.createdAt).where(sql`${t.deliveredAt} is null and ${t.refusedAt} is null and ${t.lastError} is not null`),
  ],
);

/** The upper instance's record of each batch it applied: a batch id seen again is answered as already applied. */
export const networkBatches = pgTable('network_batches', {
  id: uuid('id').primaryKey(),
  lowerInstanceId: uuid('lower_instance_id')
    .notNull()
    .references(() => lowerInstances.id, { onDelete: 'restrict' }),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  /** Per entry key: what was done ('applied', 'already applied'), the answer a replay gets again. */
  outcome: jsonb('outcome').notNull(),
});

/** Every outbox entry the upper instance applied, by its key: an entry in a later batch is then not applied again. */
export const networkAppliedEntries = pgTable('network_applied_entries', {
  idempotencyKey: text('idempotency_key').primaryKey(),
  batchId: uuid('batch_id')
    .notNull()
    .references(() => networkBatches.id, { onDelete: 'restrict' }),
});

/** A profile held at this level for a lower instance's laboratory: its origin there (instance, laboratory, specimen). */
export const heldProfiles = pgTable(
  'held_profiles',
  {
    profileId: uuid('profile_id')
      .primaryKey()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    lowerInstanceId: uuid('lower_instance_id')
      .notNull()
      .references(() => lowerInstances.id, { onDelete: 'restrict' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** The profile's id at the lower instance: what its later reset or deletion names. */
    originProfileId: uuid('origin_profile_id').notNull(),
    specimenId: text('specimen_id').notNull(),
  },
  (t) => [uniqueIndex('held_profiles_origin_unique').on(t.lowerInstanceId, t.originProfileId)],
);
