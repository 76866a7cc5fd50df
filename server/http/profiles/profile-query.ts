import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Profile, ProfileKind, ProfileStatus } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { cases, chemistries, laboratories, physicalItems, profiles, sampleSources, users } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import type { ListColumn } from '../list';
import { inReachableOrganizations } from '../tenancy';

const reviewer = alias(users, 'reviewer');

/** The columns of a profile as the API shows it: its own, plus the names it refers to. */
const fields = {
  profile: profiles,
  caseNumber: cases.caseNumber,
  chemistryName: chemistries.name,
  sampleSourceName: sampleSources.name,
  physicalItemName: physicalItems.itemId,
  laboratoryName: laboratories.name,
  reviewerFirst: reviewer.firstName,
  reviewerLast: reviewer.lastName,
  reviewerEmail: reviewer.email,
};

/** Profiles joined with everything they name; `where` may use any joined column. */
export function selectProfiles(db: Db) {
  return db
    .select(fields)
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .innerJoin(chemistries, eq(chemistries.id, profiles.chemistryId))
    .leftJoin(sampleSources, eq(sampleSources.id, profiles.sampleSourceId))
    .leftJoin(physicalItems, eq(physicalItems.id, profiles.physicalItemId))
    .leftJoin(laboratories, eq(laboratories.id, profiles.laboratoryId))
    .leftJoin(reviewer, eq(reviewer.id, profiles.reviewedBy));
}

/** The same joins, counted (list totals filter on the same columns). */
export function countProfiles(db: Db) {
  return db
    .select({ n: sql<number>`count(*)::int` })
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .innerJoin(chemistries, eq(chemistries.id, profiles.chemistryId))
    .leftJoin(sampleSources, eq(sampleSources.id, profiles.sampleSourceId))
    .leftJoin(physicalItems, eq(physicalItems.id, profiles.physicalItemId))
    .leftJoin(laboratories, eq(laboratories.id, profiles.laboratoryId));
}

export type ProfileJoinedRow = Awaited<ReturnType<ReturnType<typeof selectProfiles>['execute']>>[number];
export type ProfileRow = typeof profiles.$inferSelect;

/** Table columns of spec 2.3 (Profile, Case, Type, Chemistry, Sample Type, Source, Item, Source Laboratory) plus status and dates. */
export const PROFILE_LIST_COLUMNS: Record<string, ListColumn> = {
  profileId: { expr: sql`lower(${profiles.profileId})`, sortable: true, searchable: true },
  caseNumber: { expr: sql`lower(${cases.caseNumber})`, sortable: true, searchable: true },
  kind: { expr: profiles.kind, sortable: true, searchable: true },
  chemistryName: { expr: sql`lower(${chemistries.name})`, sortable: true, searchable: true },
  sampleType: { expr: profiles.sampleType, sortable: true, searchable: true },
  sampleSourceName: { expr: sql`lower(${sampleSources.name})`, sortable: true, searchable: true },
  physicalItemName: { expr: sql`lower(${physicalItems.itemId})`, sortable: true, searchable: true },
  laboratoryName: { expr: sql`lower(${laboratories.name})`, sortable: true, searchable: true },
  status: { expr: profiles.status, sortable: true, searchable: true },
  createdAt: { expr: profiles.createdAt, sortable: true },
  updatedAt: { expr: profiles.updatedAt, sortable: true },
};

/** A joined row as the API returns it. */
export function toProfile(row: ProfileJoinedRow): Profile {
  const p = row.profile;
  const reviewedBy = row.reviewerEmail === null ? null : `${row.reviewerFirst ?? ''} ${row.reviewerLast ?? ''}`.trim() || row.reviewerEmail;
  return {
    id: p.id,
    version: p.version,
    profileId: p.profileId,
    kind: p.kind as ProfileKind,
    status: p.status as ProfileStatus,
    caseId: p.caseId,
    caseNumber: row.caseNumber,
    organizationId: p.organizationId,
    chemistryId: p.chemistryId,
    chemistryName: row.chemistryName,
    sampleType: p.sampleType,
    sampleSourceId: p.sampleSourceId,
    sampleSourceName: row.sampleSourceName,
    physicalItemId: p.physicalItemId,
    physicalItemName: row.physicalItemName,
    laboratoryId: p.laboratoryId,
    laboratoryName: row.laboratoryName,
    comments: p.comments,
    reviewComments: p.reviewComments,
    source: p.source,
    reviewedAt: p.reviewedAt?.toISOString() ?? null,
    reviewedBy,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** Profiles the user may reach (spec 6: organization scope sees its organizations' profiles only). */
export const reachableProfiles = (user: AuthenticatedUser): SQL | undefined => inReachableOrganizations(profiles.organizationId, user);

/** One profile the user may reach, joined; another organization's answers 404. */
export async function findVisibleProfile(db: Db, user: AuthenticatedUser, id: string): Promise<ProfileJoinedRow> {
  const [row] = await selectProfiles(db).where(and(eq(profiles.id, id), reachableProfiles(user)));
  if (!row) throw new NotFound(`No profile with id ${id}`);
  return row;
}
