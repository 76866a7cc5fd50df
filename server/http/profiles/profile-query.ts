import { and, eq, getTableColumns, ilike, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { PROFILE_KINDS, PROFILE_STATUSES, SAMPLE_TYPES, type Profile, type ProfileKind, type ProfileStatus } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { cases, chemistries, involvedParties, laboratories, organizations, physicalItems, profiles, sampleSources, users } from '../../db/schema';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { NotFound } from '../errors';
import { containsPattern, matchNamedRows, namedIdsMatch, valuesContaining, type ListColumn, type NamedIds } from '../list';
import { inReachableOrganizations } from '../tenancy';

const reviewer = alias(users, 'reviewer');
const enterer = alias(users, 'enterer');

/** One column of the row `fk` points at, read by a scalar subquery rather than a join. */
const lookUp = <T>(column: SQLWrapper, table: SQLWrapper, id: SQLWrapper, fk: SQLWrapper) => sql<T>`(select ${column} from ${table} where ${id} = ${fk})`;

/**
 * The columns of a profile as the API shows it: its own, plus the names it refers to. The case's, chemistry's,
 * sample source's, laboratory's and organization's one column each are scalar subqueries (one index probe a row),
 * which leaves five relations to the join search: planning the ten-way join took PGlite about 4 ms of the database
 * thread on every list page, against 1.4 ms (issue 29).
 */
const fields = {
  profile: profiles,
  caseNumber: lookUp<string>(cases.caseNumber, cases, cases.id, profiles.caseId),
  chemistryName: lookUp<string>(chemistries.name, chemistries, chemistries.id, profiles.chemistryId),
  sampleSourceName: lookUp<string | null>(sampleSources.name, sampleSources, sampleSources.id, profiles.sampleSourceId),
  physicalItemName: physicalItems.itemId,
  itemCollectedAt: physicalItems.collectedAt,
  itemCollectionPlace: physicalItems.collectionPlace,
  itemCollectedBy: physicalItems.collectedBy,
  partyTitle: involvedParties.title,
  partyRole: involvedParties.role,
  partyName: involvedParties.name,
  laboratoryName: lookUp<string | null>(laboratories.name, laboratories, laboratories.id, profiles.laboratoryId),
  reviewerFirst: reviewer.firstName,
  reviewerLast: reviewer.lastName,
  reviewerEmail: reviewer.email,
  entererFirst: enterer.firstName,
  entererLast: enterer.lastName,
  entererEmail: enterer.email,
  fourEyesReview: lookUp<boolean>(organizations.fourEyesReview, organizations, organizations.id, profiles.organizationId),
};

/** Profiles joined with the rows they name by more than one column, selecting `selection`. */
function joinNames(db: Db, selection: typeof fields) {
  return db
    .select(selection)
    .from(profiles)
    .leftJoin(physicalItems, eq(physicalItems.id, profiles.physicalItemId))
    .leftJoin(involvedParties, eq(involvedParties.id, profiles.involvedPartyId))
    .leftJoin(reviewer, eq(reviewer.id, profiles.reviewedBy))
    .leftJoin(enterer, eq(enterer.id, profiles.enteredBy));
}

/** Profiles with everything they name, their own row whole. */
export const selectProfiles = (db: Db) => joinNames(db, fields);

/** A profile's own columns but its packed marker values, which only searches, decisions and the marker view read. */
const { genotype: _packed, ...shownColumns } = getTableColumns(profiles);

/**
 * Profiles as the API shows them (toProfile): lists and the rows an add returns. Without their marker values, which
 * kept 50 genotypes a page on the database thread's wire and in its replies for nothing (issue 29).
 */
export function readShownProfiles(db: Db, where: SQL | undefined, orderBy: SQL[] = []): Promise<ShownProfileRow[]> {
  // The same joins as selectProfiles: only the profile's columns differ, which Drizzle's types cannot follow.
  return joinNames(db, { ...fields, profile: shownColumns as unknown as typeof profiles }).where(where).orderBy(...orderBy) as unknown as Promise<ShownProfileRow[]>;
}

/** A user's name as the profile shows it: first and last name, else the e-mail; null for no user. */
const personName = (first: string | null, last: string | null, email: string | null): string | null => (email === null ? null : `${first ?? ''} ${last ?? ''}`.trim() || email);

export type ProfileJoinedRow = Awaited<ReturnType<ReturnType<typeof selectProfiles>['execute']>>[number];
/** A joined row without the marker values, as lists read it (readShownProfiles). */
export type ShownProfileRow = Omit<ProfileJoinedRow, 'profile'> & { profile: Omit<ProfileRow, 'genotype'> };
export type ProfileRow = typeof profiles.$inferSelect;

/** A name of the row `fk` points at, lowercased, as one value per profile (the list's id query reads profiles alone). */
const nameOf = (column: SQLWrapper, table: SQLWrapper, id: SQLWrapper, fk: SQLWrapper) => lookUp<string | null>(sql`lower(${column})`, table, id, fk);

/** The named tables a profile refers to by id, searched by name (list.ts matchNamedRows): cases and items by their trigram indexes. */
const PROFILE_NAMED_TABLES = {
  case: { table: cases, id: cases.id, name: cases.caseNumber },
  physicalItem: { table: physicalItems, id: physicalItems.id, name: physicalItems.itemId },
  chemistry: { table: chemistries, id: chemistries.id, name: chemistries.name },
  sampleSource: { table: sampleSources, id: sampleSources.id, name: sampleSources.name },
  laboratory: { table: laboratories, id: laboratories.id, name: laboratories.name },
};
type ProfileNamed = keyof typeof PROFILE_NAMED_TABLES;
/** The ids of the cases, items, chemistries, sample sources and laboratories whose names contain a text. */
export type NamedMatches = Record<ProfileNamed, NamedIds>;
/** Which chemistries, sample sources and laboratories each searched text names. */
export const matchProfileNamedRows = (db: Db, texts: readonly string[]) => matchNamedRows(db, texts, PROFILE_NAMED_TABLES);

/** The texts of a list query that columns match (its search and its filter entries). */
export function searchedTexts(query: { search?: string | undefined; filter?: string | undefined }): string[] {
  const texts = query.search?.trim() ? [query.search.trim()] : [];
  try {
    const filter: unknown = query.filter ? JSON.parse(query.filter) : {};
    if (filter && typeof filter === 'object') for (const v of Object.values(filter)) if (typeof v === 'string' && v.trim()) texts.push(v.trim());
  } catch {
    // listClauses answers a malformed filter with 400.
  }
  return texts;
}

const inValues = (column: SQLWrapper, values: readonly string[]): SQL | undefined => (values.length > 0 ? inArray(column as never, [...values]) : undefined);

/**
 * Table columns of spec 2.3 (Profile, Case, Type, Chemistry, Sample Type, Source, Item, Source Laboratory) plus
 * status and dates, as expressions over the profiles table alone: the list pages profile ids first and joins the
 * names for that page only. Each searchable column matches through an index (issue 15: ILIKE over nine joined
 * columns read every row, 2.8 s at 1M): the sample name by its trigram index, the case and the item by their
 * tables' trigram indexes and the profile's index on the reference, the named tables by ids looked up first,
 * and the fixed sets (type, sample type, status) by the values that contain the text.
 */
export function profileListColumns(named: Map<string, NamedMatches> = new Map()): Record<string, ListColumn> {
  const inIds = (column: SQLWrapper, kind: ProfileNamed) => (text: string) => namedIdsMatch(column, PROFILE_NAMED_TABLES[kind], named.get(text)?.[kind], text);
  return {
    profileId: { expr: sql`lower(${profiles.profileId})`, sortable: true, searchable: true, matches: (text) => ilike(profiles.profileId, containsPattern(text)) },
    caseNumber: {
      expr: nameOf(cases.caseNumber, cases, cases.id, profiles.caseId),
      sortable: true,
      searchable: true,
      matches: inIds(profiles.caseId, 'case'),
    },
    kind: { expr: profiles.kind, sortable: true, searchable: true, matches: (text) => inValues(profiles.kind, valuesContaining(PROFILE_KINDS, text)) },
    chemistryName: {
      expr: nameOf(chemistries.name, chemistries, chemistries.id, profiles.chemistryId),
      sortable: true,
      searchable: true,
      matches: inIds(profiles.chemistryId, 'chemistry'),
    },
    sampleType: { expr: profiles.sampleType, sortable: true, searchable: true, matches: (text) => inValues(profiles.sampleType, valuesContaining(SAMPLE_TYPES, text)) },
    sampleSourceName: {
      expr: nameOf(sampleSources.name, sampleSources, sampleSources.id, profiles.sampleSourceId),
      sortable: true,
      searchable: true,
      matches: inIds(profiles.sampleSourceId, 'sampleSource'),
    },
    physicalItemName: {
      expr: nameOf(physicalItems.itemId, physicalItems, physicalItems.id, profiles.physicalItemId),
      sortable: true,
      searchable: true,
      matches: inIds(profiles.physicalItemId, 'physicalItem'),
    },
    laboratoryName: {
      expr: nameOf(laboratories.name, laboratories, laboratories.id, profiles.laboratoryId),
      sortable: true,
      searchable: true,
      matches: inIds(profiles.laboratoryId, 'laboratory'),
    },
    status: { expr: profiles.status, sortable: true, searchable: true, matches: (text) => inValues(profiles.status, valuesContaining(PROFILE_STATUSES, text)) },
    createdAt: { expr: profiles.createdAt, sortable: true },
    updatedAt: { expr: profiles.updatedAt, sortable: true },
  };
}

/** A joined row as the API returns it. */
export function toProfile(row: ShownProfileRow): Profile {
  const p = row.profile;
  const reviewedBy = personName(row.reviewerFirst, row.reviewerLast, row.reviewerEmail);
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
    physicalItem:
      p.physicalItemId && row.physicalItemName !== null
        ? { id: p.physicalItemId, itemId: row.physicalItemName, collectedAt: row.itemCollectedAt?.toISOString() ?? null, collectionPlace: row.itemCollectionPlace ?? '', collectedBy: row.itemCollectedBy ?? '' }
        : null,
    involvedParty: p.involvedPartyId && row.partyTitle !== null ? { id: p.involvedPartyId, title: row.partyTitle, role: row.partyRole ?? '', name: row.partyName ?? '' } : null,
    laboratoryId: p.laboratoryId,
    laboratoryName: row.laboratoryName,
    comments: p.comments,
    reviewComments: p.reviewComments,
    source: p.source,
    reviewedAt: p.reviewedAt?.toISOString() ?? null,
    reviewedBy,
    enteredById: p.enteredBy,
    enteredBy: personName(row.entererFirst, row.entererLast, row.entererEmail),
    fourEyesReview: row.fourEyesReview,
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
