import { pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { bytea } from './columns';
import { profiles } from './profiles';

/**
 * One replicate (a run of the extract) of a forensic profile with its peak heights and sizes (issue 31). Kept out of
 * `profiles` so neither the profile lists nor the search index (which read profiles.genotype) ever load it: the
 * index does not grow. About 9 bytes per allele (genotype byte + two float32) plus the row's ~40 bytes.
 */
export const profileReplicates = pgTable(
  'profile_replicates',
  {
    profileId: uuid('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** 0, 1, … in the order the file or the form gave the runs. */
    position: smallint('position').notNull(),
    /** The run's name (GeneMapper's Sample File, or the sample name when the file names no run). */
    name: text('name').notNull().default(''),
    /** The replicate's alleles per marker, packed by server/db/genotype-codec.ts (their own, not the profile's union). */
    genotype: bytea('genotype').notNull(),
    /** Height and size per allele in the genotype's order, packed by server/db/peaks-codec.ts. */
    peaks: bytea('peaks').notNull(),
  },
  // The profile read loads a profile's replicates by this key.
  (t) => [primaryKey({ name: 'profile_replicates_pk', columns: [t.profileId, t.position] })],
);
