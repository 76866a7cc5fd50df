import { boolean, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { recordColumns } from './columns';

export const organizations = pgTable(
  'organizations',
  {
    ...recordColumns,
    name: text('name').notNull(),
    /**
     * Four-eyes review (issue 18; ISO 17025, FBI QAS): who entered or imported a profile may not approve it, nor
     * publish a hit resting on a profile they entered. On unless the organization's administrator turns it off.
     */
    fourEyesReview: boolean('four_eyes_review').notNull().default(true),
    /** The verbal scale the laboratory reports an LR with (issue 18), a key of core's verbal scales. */
    verbalScale: text('verbal_scale').notNull().default('enfsi-2015'),
  },
  // Names are unique regardless of case: the organization switcher shows names only.
  (t) => [uniqueIndex('organizations_name_unique').on(sql`lower(${t.name})`)],
);
