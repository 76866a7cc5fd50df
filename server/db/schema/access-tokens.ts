import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';
import { users } from './users';

/**
 * Personal access tokens (issue 18): a user's token for scripts and a LIMS, acting with that user's permissions as
 * they are at each call. Only the token's SHA-256 is kept; its first characters are shown to tell tokens apart.
 */
export const accessTokens = pgTable(
  'access_tokens',
  {
    ...recordColumns,
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters (locus_pat_ and four more), never enough to use it. */
    prefix: text('prefix').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('access_tokens_hash_unique').on(t.tokenHash), index('access_tokens_user_idx').on(t.userId, t.createdAt)],
);
