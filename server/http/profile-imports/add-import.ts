import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { MarkerValue, ProfileWithMarkers } from '../../../core/schemas/profiles';
import { appendAudit, type AuditActor } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import type { OrganizationEvents } from '../../events/organization-events';
import { profileImportRows, profileImports, profiles } from '../../db/schema';
import { setJob, type ImportRow } from '../../imports/profile-jobs';
import type { CaseRow } from '../cases/case-access';
import { chemistryOrder, checkMarkerValues, loadMarkers, markerCodes, packMarkerValues, type MarkerInfo, type StoredMarkerValue } from '../profiles/marker-values';
import { profileAuditTarget } from '../profiles/profile-snapshot';
import { checkReplicates, packReplicate, type StoredReplicate } from '../profiles/replicate-values';
import type { ImportedReplicate } from '../../../core/schemas/replicates';
import { readShownProfiles, toProfile } from '../profiles/profile-query';
import { caseNamesVersion, caseProfileNamesHeld, lockCaseNames, type NamesVersion } from '../profiles/case-profile-names';
import { Conflict } from '../errors';
import { yieldToEventLoop } from '../../jobs/yield';
import { withGroups } from './replicate-groups';

// Adding an import's chosen profiles (issue 13): first every chosen row is checked against the
// assignment (nothing is added while any fails: the problems go on the rows for the preview), then the
// rows are added in batches, each batch — profiles, marker values, audit rows and the job's progress —
// in one transaction. A crash therefore leaves whole batches; the job resumes after the last one.

/** Where the profiles go, as confirmed. */
export interface ImportAssignment {
  chemistryId: string;
  sampleType: string;
  sampleSourceId: string | null;
  physicalItemId: string | null;
  /** Absent in assignments stored before issue 18. */
  involvedPartyId?: string | null | undefined;
  laboratoryId: string | null;
  comments: string;
  /** The profiles' source line ("Imported from …"). */
  source: string;
  /** Rows joined as one profile's replicates, each group in file order (issue 31; absent: none). */
  groups?: number[][] | undefined;
}

export interface AddContext {
  db: Db;
  clock: Clock;
  actor: AuditActor;
  /** Told after each batch commits: the organization's profiles changed. */
  events?: Pick<OrganizationEvents, 'publish'> | undefined;
  job: ImportRow;
  found: CaseRow;
  chemistry: { id: string; kind: 'Autosomal' | 'YStr' };
  assignment: ImportAssignment;
  signal?: AbortSignal;
  /**
   * The case's names version read before checkChosen looked for every chosen name in the case (undefined: no check in
   * this run, as on resuming). While it stays so, bar the add's own batches, every chosen name is still free.
   */
  namesChecked?: NamesVersion | undefined;
}

/** Rows read per page while checking. */
const CHECK_PAGE = 250;
/** Rows checked between two turns of the event loop (issue 29: requests wait for one stretch, not a page). */
const CHECK_ROWS_A_TURN = 25;

type RowRecord = typeof profileImportRows.$inferSelect;

/** The chosen rows after `after`, in file order. */
async function chosenPage(db: Db, importId: string, after: number, limit: number, pendingOnly: boolean): Promise<RowRecord[]> {
  return db
    .select()
    .from(profileImportRows)
    .where(and(eq(profileImportRows.importId, importId), eq(profileImportRows.chosen, true), gt(profileImportRows.index, after), pendingOnly ? eq(profileImportRows.added, false) : undefined))
    .orderBy(asc(profileImportRows.index))
    .limit(limit);
}

/** What the marker rules need: the markers the rows name and the kit's order. */
async function ruleContext(db: Db, rows: readonly RowRecord[], chemistryId: string, cache: { markers?: Map<string, MarkerInfo>; order?: Map<string, number> }) {
  cache.order ??= await chemistryOrder(db, chemistryId);
  cache.markers ??= new Map();
  const missing = [...new Set(rows.flatMap((r) => (r.markerValues as MarkerValue[]).map((m) => m.markerId)))].filter((id) => !cache.markers!.has(id));
  if (missing.length > 0) for (const [id, m] of await loadMarkers(db, missing)) cache.markers.set(id, m);
  return { markers: cache.markers, order: cache.order };
}

/** Checks one row against the assignment: the parser's errors, then the allele rules of the sample type and kit. */
function checkRow(row: RowRecord, ctx: AddContext, rules: { markers: Map<string, MarkerInfo>; order: Map<string, number> }): { problems: string[]; values: StoredMarkerValue[]; replicates: StoredReplicate[] } {
  const parserErrors = row.errors as string[];
  if (parserErrors.length > 0) return { problems: parserErrors.map((e) => `Marked by the import: ${e}`), values: [], replicates: [] };
  const drafts = (row.markerValues as MarkerValue[]).map(({ markerId, alleles }) => ({ markerId, alleles }));
  const checked = checkMarkerValues(drafts, { kind: ctx.chemistry.kind, sampleType: ctx.assignment.sampleType, markers: rules.markers, order: rules.order });
  const problems = checked.errors.map((e) => e.message);
  if (problems.length === 0 && checked.values.length === 0) problems.push(`Profile ${row.profileId} has no marker values`);
  const names = new Map([...rules.markers].map(([id, m]) => [id, m.name]));
  const replicates = checkReplicates(row.replicates as ImportedReplicate[], checked.values, names);
  problems.push(...replicates.errors.map((e) => e.message));
  return { problems, values: checked.values, replicates: replicates.replicates };
}

/** Writes each row's add problems (index → messages) in one statement. */
async function writeProblems(db: Db, importId: string, entries: { index: number; p: string[] }[]): Promise<void> {
  if (entries.length === 0) return;
  // One record per row: an UPDATE … FROM joining a row to two records applies only one of them.
  const byIndex = new Map<number, string[]>();
  for (const { index, p } of entries) byIndex.set(index, [...(byIndex.get(index) ?? []), ...p]);
  const problems = [...byIndex].map(([index, p]) => ({ index, p }));
  await db.execute(sql`
    update profile_import_rows set add_problems = profile_import_rows.add_problems || v.p
    from jsonb_to_recordset(${JSON.stringify(problems)}::jsonb) as v(index int, p jsonb)
    where import_id = ${importId}::uuid and profile_import_rows.index = v.index`);
}

/**
 * Checks every chosen row (progress in the job's done/total) and records the problems on the rows.
 * Returns how many rows have problems; none means the add may start.
 */
export async function checkChosen(ctx: AddContext): Promise<number> {
  const { db, job } = ctx;
  const flagged = new Set<number>();
  const note = async (entries: { index: number; p: string[] }[]) => {
    await writeProblems(db, job.id, entries);
    for (const e of entries) flagged.add(e.index);
  };

  // The same name twice among the chosen rows, or already in the case: refused before anything is added.
  // Found page by page (names seen so far; the case's profiles through their case index), never by one
  // statement over every row.
  const seen = new Map<string, { index: number; name: string; noted: boolean }>();
  // Before the first name is read: a profile added or renamed in the case from here on changes it.
  ctx.namesChecked = await caseNamesVersion(db, ctx.found.id);
  const cache = {};
  let after = -1;
  let done = 0;
  for (;;) {
    const page = await withGroups(db, job.id, await chosenPage(db, job.id, after, CHECK_PAGE, false), ctx.assignment.groups);
    if (page.length === 0) break;
    const rules = await ruleContext(db, page, ctx.chemistry.id, cache);
    const names = [...new Set(page.map((r) => r.profileId.toLowerCase()))];
    const taken = new Map((await caseProfileNamesHeld(db, ctx.found.id, names)).map((name) => [name.toLowerCase(), name]));
    const entries: { index: number; p: string[] }[] = [];
    const earlier: { index: number; p: string[] }[] = [];
    for (const [k, row] of page.entries()) {
      // Other requests get a turn between rows (a page of 250 checked in one go held the event loop 30-90 ms).
      if (k > 0 && k % CHECK_ROWS_A_TURN === 0) await yieldToEventLoop();
      const key = row.profileId.toLowerCase();
      const problems = checkRow(row, ctx, rules).problems;
      const inCase = taken.get(key);
      if (inCase !== undefined) problems.unshift(`Case ${ctx.found.caseNumber} already has profile ${inCase}`);
      const first = seen.get(key);
      if (first) {
        problems.unshift(`${row.profileId} is chosen twice: also row ${first.index + 1}`);
        if (!first.noted) {
          earlier.push({ index: first.index, p: [`${first.name} is chosen twice: also row ${row.index + 1}`] });
          first.noted = true;
        }
      } else seen.set(key, { index: row.index, name: row.profileId, noted: false });
      if (problems.length > 0) entries.push({ index: row.index, p: problems });
    }
    await note([...earlier, ...entries]);
    after = page[page.length - 1]!.index;
    done += page.length;
    await setJob(db, job.id, { done });
  }
  return flagged.size;
}

/** The rows of a raw `execute`, whichever driver (node-postgres returns { rows }, PGlite too). */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * Profile snapshots for the audit trail, as profileSnapshot builds them, for a batch at once: the profile
 * read back joined (by primary key), its marker values from what was just written (in kit order).
 */
async function snapshots(db: Db, ids: readonly string[], values: readonly StoredMarkerValue[][], markerNames: ReadonlyMap<string, MarkerInfo>): Promise<Map<string, ProfileWithMarkers>> {
  const joined = await readShownProfiles(db, inArray(profiles.id, [...ids]));
  const byProfile = new Map(ids.map((id, i) => [id, [...values[i]!].sort((a, b) => a.position - b.position).map((v) => ({ markerId: v.markerId, marker: markerNames.get(v.markerId)!.name, alleles: v.alleles }))]));
  // An import's audit row keeps the marker values, not the heights: those sit in profile_replicates, written in the same transaction, read back by the profile's read.
  return new Map(joined.map((row) => [row.profile.id, { ...toProfile(row), markerValues: byProfile.get(row.profile.id) ?? [], replicates: [] }]));
}

/**
 * Adds one batch of checked rows in one transaction; returns the new profiles' ids in row order and, when the case's
 * names were as `namesFree` said (nobody else has added or renamed a profile there since every chosen name was found
 * free), the names version after the batch (undefined otherwise: the next batches look their names up).
 */
async function addBatch(
  ctx: AddContext,
  batch: { row: RowRecord; values: StoredMarkerValue[]; replicates: StoredReplicate[] }[],
  markerNames: ReadonlyMap<string, MarkerInfo>,
  codes: ReadonlyMap<string, number>,
  namesFree: NamesVersion | undefined,
): Promise<{ ids: string[]; namesFree: NamesVersion | undefined }> {
  const { db, found, assignment, chemistry, job } = ctx;
  // Built before the transaction (issue 29): on PGlite the transaction holds the one connection, and
  // other users' requests wait for it, so it holds it for the database's work only.
  // The rows go to the database as one JSON parameter: binding 500 profiles' parameters one by one
  // cost more than the inserts themselves. Marker values go packed (db/genotype-codec.ts), as hex.
  const profileRows = JSON.stringify(batch.map(({ row, values }) => ({ profile_id: row.profileId, source: assignment.source, genotype: Buffer.from(packMarkerValues(values, codes)).toString('hex') })));
  // Replicates with peak heights (issue 31), by the row's place in the batch; packed here, outside the transaction.
  const replicateRows = batch.flatMap(({ replicates }, i) =>
    replicates.map((r, position) => {
      const packed = packReplicate(r, codes);
      return { i, position, name: r.name, genotype: Buffer.from(packed.genotype).toString('hex'), peaks: Buffer.from(packed.peaks).toString('hex') };
    }),
  );
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // The names were checked before adding; checked again under the case's lock, which also keeps another
    // request from adding one of them until this batch commits. Unless the case's names are as the check and this
    // add's own batches left them: then the case's profiles are not read again (issue 29: each batch of a 100,000
    // import read all those before it, 45-90 ms a statement at the end, holding PGlite's one connection).
    const unchanged = await lockCaseNames(t, found.id, namesFree);
    const held = unchanged ? [] : await caseProfileNamesHeld(t, found.id, batch.map(({ row }) => row.profileId));
    if (held.length > 0) throw new Conflict(`Case ${found.caseNumber} already has profile ${held.join(', ')} (added meanwhile); this batch of ${batch.length} was not added.`);
    const inserted = rowsOf<{ id: string; profile_id: string }>(
      await t.execute(sql`
        insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, sample_source_id, physical_item_id, involved_party_id, laboratory_id, comments, source, genotype, entered_by)
        select r.profile_id, ${found.id}::uuid, ${found.organizationId}::uuid, ${chemistry.kind}, ${chemistry.id}::uuid, ${assignment.sampleType},
          ${assignment.sampleSourceId}::uuid, ${assignment.physicalItemId}::uuid, ${assignment.involvedPartyId ?? null}::uuid, ${assignment.laboratoryId}::uuid, ${assignment.comments}, r.source, decode(r.genotype, 'hex'),
          ${job.userId}::uuid
        from jsonb_to_recordset(${profileRows}::jsonb) as r(profile_id text, source text, genotype text)
        returning id, profile_id`),
    );
    const idByName = new Map(inserted.map((p) => [p.profile_id.toLowerCase(), p.id]));
    const ids = batch.map(({ row }) => idByName.get(row.profileId.toLowerCase())!);
    if (replicateRows.length > 0) {
      const withIds = JSON.stringify(replicateRows.map(({ i, ...r }) => ({ ...r, profile_id: ids[i] })));
      await t.execute(sql`
        insert into profile_replicates (profile_id, position, name, genotype, peaks)
        select r.profile_id, r.position, r.name, decode(r.genotype, 'hex'), decode(r.peaks, 'hex')
        from jsonb_to_recordset(${withIds}::jsonb) as r(profile_id uuid, position int, name text, genotype text, peaks text)`);
    }
    const snaps = await snapshots(t, ids, batch.map((b) => b.values), markerNames);
    await appendAudit(t, ctx.actor, ctx.clock, ...ids.map((id) => ({ ...profileAuditTarget({ id, caseId: found.id, organizationId: found.organizationId }), action: 'Imported', after: snaps.get(id) })));
    await t.execute(sql`
      update profile_import_rows set added = true, added_profile_id = v.id
      from jsonb_to_recordset(${JSON.stringify(batch.map(({ row }, i) => ({ index: row.index, id: ids[i] })))}::jsonb) as v(index int, id uuid)
      where import_id = ${ctx.job.id}::uuid and profile_import_rows.index = v.index`);
    await t
      .update(profileImports)
      .set({ addedCount: sql`${profileImports.addedCount} + ${batch.length}`, done: sql`${profileImports.done} + ${batch.length}`, updatedAt: new Date() })
      .where(eq(profileImports.id, ctx.job.id));
    // The version with this batch's own insert counted: the next batch's names are still free while it stays.
    return { ids, namesFree: unchanged ? await caseNamesVersion(t, found.id) : undefined };
  });
}

/**
 * Adds the chosen rows not yet added, `batchSize` per transaction, until none is left or the signal
 * aborts (after a whole batch). Returns the ids added by this call.
 */
export async function addChosen(ctx: AddContext, batchSize: number): Promise<string[]> {
  const cache = {};
  const codes = new Map<string, number>();
  const added: string[] = [];
  let analyzeAt = FIRST_ANALYZE;
  let after = -1;
  let namesFree = ctx.namesChecked;
  for (;;) {
    if (ctx.signal?.aborted) break;
    const page = await withGroups(ctx.db, ctx.job.id, await chosenPage(ctx.db, ctx.job.id, after, batchSize, true), ctx.assignment.groups);
    if (page.length === 0) break;
    after = page[page.length - 1]!.index;
    const rules = await ruleContext(ctx.db, page, ctx.chemistry.id, cache);
    // Checked again: the kit or a marker may have changed since the check.
    const batch: { row: RowRecord; values: StoredMarkerValue[]; replicates: StoredReplicate[] }[] = [];
    for (const [k, row] of page.entries()) {
      if (k > 0 && k % CHECK_ROWS_A_TURN === 0) await yieldToEventLoop();
      const { problems, values, replicates } = checkRow(row, ctx, rules);
      if (problems.length > 0) throw new Error(`${row.profileId}: ${problems.join('; ')}`);
      batch.push({ row, values, replicates });
    }
    // A marker's code never changes: read once per marker, outside the batches' transactions.
    const uncoded = [...new Set(batch.flatMap(({ values }) => values.map((v) => v.markerId)))].filter((id) => !codes.has(id));
    if (uncoded.length > 0) for (const [id, code] of await markerCodes(ctx.db, uncoded)) codes.set(id, code);
    const done = await addBatch(ctx, batch, rules.markers, codes, namesFree);
    added.push(...done.ids);
    namesFree = done.namesFree;
    // Each whole batch is in the case: open profile lists and review counts read again.
    ctx.events?.publish(ctx.found.organizationId, 'profiles');
    if (added.length >= analyzeAt) {
      await analyzeProfiles(ctx.db);
      analyzeAt = 2 * added.length;
    }
  }
  return added;
}

/** Profiles added before the first fresh statistics; then again each time the add has doubled. */
const FIRST_ANALYZE = 2000;

/**
 * Fresh planner statistics for profiles (PGlite has no autovacuum to take them): planned on the few rows
 * it had before the add, another user's profile list at 100,000 took 0.8 s a page instead of 25 ms
 * (issue 29). What the list plans need is the table's size; a 300-row sample gives it. ANALYZE holds
 * PGlite's one connection: with a 3,000-row sample it took about 100 times as long (over a second at
 * 16,000 profiles on a loaded machine), longer than a health probe may wait.
 */
async function analyzeProfiles(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local default_statistics_target = 1`);
    await tx.execute(sql`analyze profiles`);
  });
}
