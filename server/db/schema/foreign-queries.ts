import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';
import { chemistries } from './markers';
import { serviceClients } from './network';
import { organizations } from './organizations';
import { profiles } from './profiles';
import { users } from './users';

/**
 * A foreign query (issue 32, Prüm II): a profile another country's instance sent, searched here and answered hit / no
 * hit. The query's alleles are not kept (only how many markers it had): the answer is all this side owes the sender.
 */
export const foreignQueries = pgTable(
  'foreign_queries',
  {
    ...recordColumns,
    /** The service client (the foreign instance) that sent it: only it may read the answer. */
    serviceClientId: uuid('service_client_id')
      .notNull()
      .references(() => serviceClients.id, { onDelete: 'restrict' }),
    /** The sender's own reference, unique per sender so a retried query is recognised. */
    reference: text('reference').notNull(),
    requestingCountry: text('requesting_country').notNull(),
    requestingInstance: text('requesting_instance').notNull(),
    chemistryId: uuid('chemistry_id')
      .notNull()
      .references(() => chemistries.id, { onDelete: 'restrict' }),
    markerCount: integer('marker_count').notNull(),
    /** The strongest stringency a candidate met ('high' | 'moderate'); null: no hit. */
    stringency: text('stringency'),
    candidateCount: integer('candidate_count').notNull(),
  },
  (t) => [uniqueIndex('foreign_queries_reference_unique').on(t.serviceClientId, t.reference)],
);

/**
 * A release request: one candidate of a hit, waiting for a person of the organization holding the profile to release
 * its data to the sender or refuse with a reason. A deleted (expunged) profile takes its request with it.
 */
export const foreignQueryReleases = pgTable(
  'foreign_query_releases',
  {
    ...recordColumns,
    foreignQueryId: uuid('foreign_query_id')
      .notNull()
      .references(() => foreignQueries.id, { onDelete: 'cascade' }),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** 'pending' | 'released' | 'refused'. */
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [index('foreign_query_releases_query_idx').on(t.foreignQueryId), index('foreign_query_releases_organization_status_idx').on(t.organizationId, t.status), index('foreign_query_releases_profile_idx').on(t.profileId)],
);
