import { doublePrecision, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { recordColumns } from './columns';

/**
 * One index of the upper level and what it accepts for upload (issue 32; core/network/upload-eligibility.ts): the
 * sample types filed in it, the core loci a profile needs, the most alleles per locus, and for forensic profiles the
 * rarity threshold. One rule set per instance, edited by an administrator with scope All.
 */
export const uploadEligibilityIndexes = pgTable(
  'upload_eligibility_indexes',
  {
    ...recordColumns,
    name: text('name').notNull(),
    /** Display order. */
    position: integer('position').notNull().default(0),
    /** CMF specimen categories (core/schemas/profiles.ts SAMPLE_TYPES), each in one index at most. */
    sampleTypes: text('sample_types').array().notNull(),
    minCoreLoci: integer('min_core_loci').notNull(),
    maxAllelesPerLocus: integer('max_alleles_per_locus').notNull(),
    /** "1 in N": the profile's match probability must be under 1/N; null: no threshold. */
    rarityOneIn: doublePrecision('rarity_one_in'),
  },
  (t) => [uniqueIndex('upload_eligibility_indexes_name_unique').on(t.name)],
);
