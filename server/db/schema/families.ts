import { doublePrecision, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { analyses } from './analyses';
import { cases } from './cases';
import { recordColumns } from './columns';
import { organizations } from './organizations';

/**
 * A missing-person family of a case (issue 16): a pedigree analysis whose relatives' roles hold the case's typed
 * relatives. Active families are searched against the organization's approved Unidentified Human (Remains)
 * profiles when activated, and each newly approved remains profile against every active family.
 */
export const families = pgTable(
  'families',
  {
    ...recordColumns,
    // A family is part of its case's file.
    caseId: uuid('case_id')
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    /** The case's organization: whose remains are searched and who sees the hits. */
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    analysisId: uuid('analysis_id')
      .notNull()
      .references(() => analyses.id, { onDelete: 'restrict' }),
    /** Each role of the analysis but the missing person, with the profile typed for it. */
    relatives: jsonb('relatives').$type<{ role: string; profileId: string }[]>().notNull().default(sql`'[]'::jsonb`),
    populationIds: jsonb('population_ids').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** The LR a remains profile must reach in every population to become a pending hit. */
    threshold: doublePrecision('threshold').notNull(),
    /** 'draft' | 'active' | 'inactive' (core/schemas/families.ts FAMILY_STATUSES). */
    status: text('status').notNull().default('draft'),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    searchedAt: timestamp('searched_at', { withTimezone: true }),
  },
  (t) => [index('families_case_idx').on(t.caseId), index('families_organization_status_idx').on(t.organizationId, t.status)],
);
