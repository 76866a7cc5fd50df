import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { bytea, recordColumns } from './columns';
import { organizations } from './organizations';
import { caseTypes } from './reference-lists';
import { users } from './users';

/** A case file of one organization (spec 3 Case); `caseNumber` is the laboratory's case id shown in breadcrumbs. */
export const cases = pgTable(
  'cases',
  {
    ...recordColumns,
    caseNumber: text('case_number').notNull(),
    caseTypeId: uuid('case_type_id')
      .notNull()
      .references(() => caseTypes.id, { onDelete: 'restrict' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** Case settings (ChangeSettings): 'Open' or 'Closed'; a closed case takes no new profiles. */
    status: text('status').notNull().default('Open'),
    notes: text('notes').notNull().default(''),
  },
  // A laboratory's case ids are unique within the organization, whatever their case.
  (t) => [uniqueIndex('cases_organization_number_unique').on(t.organizationId, sql`lower(${t.caseNumber})`)],
);

/** Users assigned to a case: they receive its notifications (hit published). */
export const caseAssignedUsers = pgTable(
  'case_assigned_users',
  {
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'case_assigned_users_pk', columns: [t.caseId, t.userId] }), index('case_assigned_users_user_idx').on(t.userId)],
);

/** A person or party involved in a case (spec 3 InvolvedParty; issue 18: role, name and identifiers). */
export const involvedParties = pgTable(
  'involved_parties',
  {
    ...recordColumns,
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /** The party's part in the case (victim, suspect, missing person, relative, …); '' for parties entered before roles. */
    role: text('role').notNull().default(''),
    /** The person's name as the agency gives it ('' when unknown, e.g. an unidentified body). */
    name: text('name').notNull().default(''),
    /** The agency's identifiers of the person (kind and value: national id, passport, arrest number, …). */
    identifiers: jsonb('identifiers').$type<{ kind: string; value: string }[]>().notNull().default([]),
  },
  (t) => [index('involved_parties_case_idx').on(t.caseId)],
);

/** A physical item of a case (spec 3 PhysicalItem): the laboratory's item id and a description. */
export const physicalItems = pgTable(
  'physical_items',
  {
    ...recordColumns,
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    description: text('description').notNull().default(''),
    /** Chain of custody (issue 18): when, where and by whom the item was collected; null/'' when not known. */
    collectedAt: timestamp('collected_at', { withTimezone: true }),
    collectionPlace: text('collection_place').notNull().default(''),
    collectedBy: text('collected_by').notNull().default(''),
  },
  (t) => [uniqueIndex('physical_items_case_item_unique').on(t.caseId, sql`lower(${t.itemId})`)],
);

/** A file an agency sent with the case (request letters, chain-of-custody forms). */
export const agencyFiles = pgTable(
  'agency_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    fileSize: integer('file_size').notNull(),
    content: bytea('content').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('agency_files_case_idx').on(t.caseId)],
);
