import { index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { PROFILE_KINDS, PROFILE_STATUSES, SAMPLE_TYPES } from '../../../core/schemas/profiles';
import { sql } from 'drizzle-orm';
import { bytea, recordColumns } from './columns';
import { cases, involvedParties, physicalItems } from './cases';
import { chemistries } from './markers';
import { organizations } from './organizations';
import { laboratories, sampleSources } from './reference-lists';
import { users } from './users';

// The fixed sets a profile row names take 4 bytes each as enums, where their text took 10–29 (issue 15: bytes per profile).
export const profileKind = pgEnum('profile_kind', PROFILE_KINDS);
export const profileStatus = pgEnum('profile_status', PROFILE_STATUSES);
export const sampleType = pgEnum('sample_type', SAMPLE_TYPES);

/** A DNA profile (spec 3 Profile); `profileId` is the sample name, unique within its case. */
export const profiles = pgTable(
  'profiles',
  {
    ...recordColumns,
    profileId: text('profile_id').notNull(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'restrict' }),
    // The case's organization, kept here so every profile query is filtered by tenancy without a join.
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** 'Autosomal' or 'YStr': the chemistry's kind. */
    kind: profileKind('kind').notNull(),
    chemistryId: uuid('chemistry_id')
      .notNull()
      .references(() => chemistries.id, { onDelete: 'restrict' }),
    sampleType: sampleType('sample_type').notNull(),
    sampleSourceId: uuid('sample_source_id').references(() => sampleSources.id, { onDelete: 'restrict' }),
    physicalItemId: uuid('physical_item_id').references(() => physicalItems.id, { onDelete: 'set null' }),
    /** The involved party the sample was taken from (issue 18: a suspect's reference, a relative's sample), if any. */
    involvedPartyId: uuid('involved_party_id').references(() => involvedParties.id, { onDelete: 'set null' }),
    laboratoryId: uuid('laboratory_id').references(() => laboratories.id, { onDelete: 'restrict' }),
    comments: text('comments').notNull().default(''),
    /** 'pending' | 'approved' | 'rejected' (ARCHITECTURE.md "States"). */
    status: profileStatus('status').notNull().default('pending'),
    source: text('source').notNull().default(''),
    /** The reviewer's approval comments, rejection reason or reset comments. */
    reviewComments: text('review_comments').notNull().default(''),
    /** Who entered or imported the profile: under four-eyes review (organizations.fourEyesReview) not its approver. */
    enteredBy: uuid('entered_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /**
     * The approval (its reviewedAt) whose database search has finished. An approved profile whose
     * searchedAt differs from its reviewedAt still awaits its search, so a restart queues it again.
     */
    searchedAt: timestamp('searched_at', { withTimezone: true }),
    /**
     * The marker values, packed (server/db/genotype-codec.ts): the markers' codes (markers.code) and their
     * canonical alleles in stored order, about 80 bytes for 20 markers. The codec is the only reader and writer.
     */
    genotype: bytea('genotype').notNull().default(sql`'\\x00'::bytea`),
  },
  (t) => [
    // A case's profiles; a sample name once per case is kept by a lock per case (server/http/profiles/case-profile-names.ts).
    index('profiles_case_idx').on(t.caseId),
    index('profiles_organization_status_idx').on(t.organizationId, t.status),
    index('profiles_chemistry_idx').on(t.chemistryId),
  ],
);
