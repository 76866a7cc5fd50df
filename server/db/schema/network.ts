import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';
import { organizations } from './organizations';

/**
 * Service clients (issue 32): OAuth 2 client-credentials clients another Locus instance (or a script) uses to call
 * this one. The embedded provider issues their tokens; only the secret's SHA-256 is kept. A client named by an
 * external provider has no secret here (`secretHash` null): that provider checks it.
 */
export const serviceClients = pgTable(
  'service_clients',
  {
    ...recordColumns,
    name: text('name').notNull(),
    /** The OAuth client_id, given at creation (embedded) or named by the administrator (external provider). */
    clientId: text('client_id').notNull(),
    secretHash: text('secret_hash'),
    /** The laboratory the client acts for; null: the whole instance (a lower or upper instance). */
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'restrict' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('service_clients_client_id_unique').on(t.clientId), uniqueIndex('service_clients_name_unique').on(sql`lower(${t.name})`)],
);

/**
 * This instance's place in the network (one row, id 'instance'): its name and level, and its upper instance with
 * the client credentials it signs in there with. The secret is AES-256-GCM encrypted (server/network/secret-box.ts).
 */
export const instanceSettings = pgTable('instance_settings', {
  id: text('id').primaryKey(),
  name: text('name').notNull().default(''),
  level: text('level').notNull().default('Local'),
  upperUrl: text('upper_url'),
  upperClientId: text('upper_client_id'),
  upperClientSecret: text('upper_client_secret'),
  version: integer('version').notNull().default(1),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The upper instance's registry of the instances below it, each signing in as one service client. */
export const lowerInstances = pgTable(
  'lower_instances',
  {
    ...recordColumns,
    name: text('name').notNull(),
    serviceClientId: uuid('service_client_id')
      .notNull()
      .references(() => serviceClients.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('lower_instances_name_unique').on(sql`lower(${t.name})`), uniqueIndex('lower_instances_client_unique').on(t.serviceClientId)],
);

/** The laboratories a lower instance sends for: organizations held here for it, read-only at this level. */
export const lowerInstanceOrganizations = pgTable(
  'lower_instance_organizations',
  {
    lowerInstanceId: uuid('lower_instance_id')
      .notNull()
      .references(() => lowerInstances.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('lower_instance_organizations_org_unique').on(t.organizationId), index('lower_instance_organizations_instance_idx').on(t.lowerInstanceId)],
);
