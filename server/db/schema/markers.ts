import { boolean, integer, pgTable, primaryKey, text, uniqueIndex, uuid, index } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';

/** A genetic marker (locus). `kind` is 'Autosomal' or 'YStr' (core/schemas/markers.ts MARKER_KINDS). */
export const markers = pgTable(
  'markers',
  {
    ...recordColumns,
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    /** Other spellings labs and tools use (GENETICS.md: vWA/VWA, Penta D/PENTA_D, …); matched case-insensitively. */
    aliases: text('aliases').array().notNull().default(sql`'{}'::text[]`),
    /** Multi-copy Y markers (DYS385a/b, DYF387S1, …) hold an unordered set of values. */
    multiCopy: boolean('multi_copy').notNull().default(false),
    /**
     * The marker's short number inside a profile's packed genotype (profiles.genotype, db/genotype-codec.ts):
     * two bytes instead of a 16-byte id, and a rename rewrites no profile. Given by the database, never reused.
     */
    code: integer('code').notNull().generatedByDefaultAsIdentity({ minValue: 1, maxValue: 65535 }),
  },
  (t) => [uniqueIndex('markers_name_unique').on(sql`lower(${t.name})`), uniqueIndex('markers_code_unique').on(t.code)],
);

/** A chemistry (kit): an ordered list of markers, autosomal or Y-STR. */
export const chemistries = pgTable(
  'chemistries',
  { ...recordColumns, name: text('name').notNull(), kind: text('kind').notNull() },
  (t) => [uniqueIndex('chemistries_kind_name_unique').on(t.kind, sql`lower(${t.name})`)],
);

/** A chemistry's marker configuration; `position` orders the entries (spec 3 markerConfiguration). */
export const chemistryMarkers = pgTable(
  'chemistry_markers',
  {
    chemistryId: uuid('chemistry_id')
      .notNull()
      .references(() => chemistries.id, { onDelete: 'cascade' }),
    // Restrict: a marker still in a kit cannot be deleted (the API names the kits first).
    markerId: uuid('marker_id')
      .notNull()
      .references(() => markers.id, { onDelete: 'restrict' }),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'chemistry_markers_pk', columns: [t.chemistryId, t.markerId] }),
    index('chemistry_markers_marker_idx').on(t.markerId),
  ],
);
