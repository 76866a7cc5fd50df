import { boolean, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';

/** A role (spec: access group): a name, the administrator flag and a permission matrix. */
export const accessGroups = pgTable(
  'access_groups',
  { ...recordColumns, name: text('name').notNull(), isAdmin: boolean('is_admin').notNull().default(false) },
  (t) => [uniqueIndex('access_groups_name_unique').on(sql`lower(${t.name})`)],
);

/** One row per granted (entity, verb) of a role; values from core/permissions.ts ENTITIES × VERBS. */
export const accessGroupPermissions = pgTable(
  'access_group_permissions',
  {
    accessGroupId: uuid('access_group_id')
      .notNull()
      .references(() => accessGroups.id, { onDelete: 'cascade' }),
    entity: text('entity').notNull(),
    verb: text('verb').notNull(),
  },
  (t) => [primaryKey({ name: 'access_group_permissions_pk', columns: [t.accessGroupId, t.entity, t.verb] })],
);
