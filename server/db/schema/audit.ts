import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail (ARCHITECTURE.md "Audit"): one row per write, never updated or deleted. Each row
 * carries the hash of the previous one, so a changed or removed row breaks the chain.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    // No foreign key: the trail outlives deleted users and records.
    userId: uuid('user_id'),
    userName: text('user_name').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
    /** The case a row belongs to, so the case's audit tab lists its parties, items and profiles too. */
    caseId: uuid('case_id'),
    organizationId: uuid('organization_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId), index('audit_log_case_idx').on(t.caseId)],
);
