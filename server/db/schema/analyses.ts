import { boolean, doublePrecision, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';

/** A named group of analyses (e.g. Kinship) shown together in the calculator (spec 2.5). */
export const analysisGroups = pgTable('analysis_groups', { ...recordColumns, name: text('name').notNull() }, (t) => [
  uniqueIndex('analysis_groups_name_unique').on(sql`lower(${t.name})`),
]);

/** An analysis: 'Computational' or 'Exclusion', its ordered roles and threshold (GENETICS.md). */
export const analyses = pgTable(
  'analyses',
  {
    ...recordColumns,
    analysisGroupId: uuid('analysis_group_id')
      .notNull()
      .references(() => analysisGroups.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    label: text('label').notNull().default(''),
    kind: text('kind').notNull(),
    /** Which profiles: 'Autosomal' or 'YStr'. */
    profileKind: text('profile_kind').notNull().default('Autosomal'),
    roles: jsonb('roles').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    threshold: doublePrecision('threshold'),
    active: boolean('active').notNull().default(true),
  },
  (t) => [index('analyses_group_idx').on(t.analysisGroupId)],
);
