import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Storage of the embedded OpenID provider (oidc-provider adapter interface): sessions, grants,
 * authorization codes, refresh tokens, interactions… one row per (model, id).
 */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'oidc_payloads_pk', columns: [t.model, t.id] }),
    // revokeByGrantId: revoking a grant deletes every token issued under it.
    index('oidc_payloads_grant_idx').on(t.grantId),
    // findByUid: interactions and sessions are looked up by uid.
    index('oidc_payloads_uid_idx').on(t.uid),
  ],
);

/** Signing keys (private JWKs) and cookie keys, generated at first start so tokens survive a restart. */
export const identityKeys = pgTable('identity_keys', {
  id: text('id').primaryKey(),
  /** 'signing' (a private JWK) or 'cookie' (a random secret). */
  use: text('use').notNull(),
  material: jsonb('material').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
