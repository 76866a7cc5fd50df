import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';
import { markers } from './markers';
import { organizations } from './organizations';

/** A reference population: allele frequencies (autosomal) or a haplotype table (Y-STR). */
export const populations = pgTable('populations', {
  ...recordColumns,
  name: text('name').notNull(),
  /** 'Autosomal' or 'YStr'. */
  kind: text('kind').notNull().default('Autosomal'),
  /** Used when an allele is absent and N is unknown (GENETICS.md: default 0.001). */
  minimumAlleleFrequency: doublePrecision('minimum_allele_frequency').notNull().default(0.001),
  /** Where the statistics came from: the uploaded file's name and format, or the citation text. */
  source: text('source').notNull().default(''),
  statisticsUploadedAt: timestamp('statistics_uploaded_at', { withTimezone: true }),
  /** Generated frequencies (the demo population): never used by an automatic search, and labelled wherever a number computed with it is shown. */
  synthetic: boolean('synthetic').notNull().default(false),
});

/** Organizations that may use a population (spec 3 Population.organizations). */
export const populationOrganizations = pgTable(
  'population_organizations',
  {
    populationId: uuid('population_id')
      .notNull()
      .references(() => populations.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ name: 'population_organizations_pk', columns: [t.populationId, t.organizationId] }),
    index('population_organizations_organization_idx').on(t.organizationId),
  ],
);

/** Per marker of a population: the sample size N when the source states it (minimum frequency 5/2N). */
export const populationMarkers = pgTable(
  'population_markers',
  {
    populationId: uuid('population_id')
      .notNull()
      .references(() => populations.id, { onDelete: 'cascade' }),
    markerId: uuid('marker_id')
      .notNull()
      .references(() => markers.id, { onDelete: 'restrict' }),
    sampleSize: integer('sample_size'),
  },
  (t) => [
    primaryKey({ name: 'population_markers_pk', columns: [t.populationId, t.markerId] }),
    index('population_markers_marker_idx').on(t.markerId),
  ],
);

/** One allele frequency; the allele designation is text (GENETICS.md: never a float). */
export const populationAlleles = pgTable(
  'population_alleles',
  {
    populationId: uuid('population_id')
      .notNull()
      .references(() => populations.id, { onDelete: 'cascade' }),
    markerId: uuid('marker_id')
      .notNull()
      .references(() => markers.id, { onDelete: 'restrict' }),
    allele: text('allele').notNull(),
    frequency: doublePrecision('frequency').notNull(),
  },
  (t) => [primaryKey({ name: 'population_alleles_pk', columns: [t.populationId, t.markerId, t.allele] })],
);

/** A Y-STR haplotype of a population with how often it was seen; values by marker id (multi-copy as sets). */
export const populationHaplotypes = pgTable(
  'population_haplotypes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    populationId: uuid('population_id')
      .notNull()
      .references(() => populations.id, { onDelete: 'cascade' }),
    values: jsonb('values').$type<Record<string, string[]>>().notNull(),
    count: integer('count').notNull().default(1),
  },
  (t) => [index('population_haplotypes_population_idx').on(t.populationId)],
);
