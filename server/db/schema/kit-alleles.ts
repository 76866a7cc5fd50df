import { boolean, pgTable, primaryKey, real, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { chemistries, markers } from './markers';

// Issue 31: a kit's allele bins (strvalidator kit.txt), read by the continuous model (degradation over fragment
// size, an allele whose size the file omits) and the profile view. Reference data: written only by the seed and
// by an administrator with scope All (ARCHITECTURE.md "Permissions and tenancy").

/** The kit and marker a row belongs to; deleting either takes the row with it. */
const kitMarkerColumns = () => ({
  chemistryId: uuid('chemistry_id')
    .notNull()
    .references(() => chemistries.id, { onDelete: 'cascade' }),
  markerId: uuid('marker_id')
    .notNull()
    .references(() => markers.id, { onDelete: 'cascade' }),
});

/** A marker of a kit with its dye and sizing rule (an allele the table lacks: repeat length × repeat + offset). */
export const kitMarkers = pgTable(
  'kit_markers',
  {
    ...kitMarkerColumns(),
    /** The dye colour as kit.txt names it, lower case (blue, green, yellow, red, purple). */
    dye: text('dye').notNull(),
    repeatLength: smallint('repeat_length').notNull(),
    /** kit.txt `Offset`: size of the allele 0 repeats long, in bp. */
    sizeOffset: real('size_offset').notNull(),
  },
  (t) => [primaryKey({ name: 'kit_markers_pk', columns: [t.chemistryId, t.markerId] })],
);

/** One allele bin of a kit: its fragment size in bp; virtual bins are not in the physical ladder. */
export const kitAlleles = pgTable(
  'kit_alleles',
  {
    ...kitMarkerColumns(),
    allele: text('allele').notNull(),
    size: real('size').notNull(),
    virtual: boolean('virtual').notNull().default(false),
  },
  // The kit read and the size look-up of a profile read take a kit's bins by this key.
  (t) => [primaryKey({ name: 'kit_alleles_pk', columns: [t.chemistryId, t.markerId, t.allele] })],
);

/** An analytical threshold (RFU) of a kit: for the whole kit (dye '') or for one dye, which then takes precedence. */
export const kitThresholds = pgTable(
  'kit_thresholds',
  {
    chemistryId: uuid('chemistry_id')
      .notNull()
      .references(() => chemistries.id, { onDelete: 'cascade' }),
    dye: text('dye').notNull().default(''),
    rfu: real('rfu').notNull(),
  },
  (t) => [primaryKey({ name: 'kit_thresholds_pk', columns: [t.chemistryId, t.dye] })],
);
