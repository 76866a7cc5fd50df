import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';
import { accessGroups } from './access-groups';
import { organizations } from './organizations';

export const users = pgTable(
  'users',
  {
    ...recordColumns,
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    /** 'All' or 'Organization' (core/permissions.ts SCOPES); null = no scope set, sign-in is refused. */
    scope: text('scope'),
    accessGroupId: uuid('access_group_id').references(() => accessGroups.id, { onDelete: 'set null' }),
    /** scrypt hash "scrypt$N$r$p$salt$hash" (server/identity/password.ts); null for external sign-in only. */
    passwordHash: text('password_hash'),
    /** When set, the user is locked out: sign-in is refused and tokens issued before are rejected. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    receiveNotifications: boolean('receive_notifications').notNull().default(false),
    failedSignIns: integer('failed_sign_ins').notNull().default(0),
    licensesAcceptedAt: timestamp('licenses_accepted_at', { withTimezone: true }),
    /** Subject claim at an external provider, bound on first sign-in by e-mail. */
    externalSubject: text('external_subject'),
  },
  (t) => [
    // Sign-in looks users up by e-mail, case-insensitively.
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    // Token verification under an external provider looks users up by subject.
    uniqueIndex('users_external_subject_unique').on(t.externalSubject),
  ],
);

export const userOrganizations = pgTable(
  'user_organizations',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'user_organizations_pk', columns: [t.userId, t.organizationId] }),
    // Listing an organization's users.
    index('user_organizations_organization_idx').on(t.organizationId),
  ],
);
