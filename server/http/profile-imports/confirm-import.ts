import { and, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { ApprovalRefusal, ProfileAssignment } from '../../../core/schemas/profiles';
import type { AuditActor } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import { inBackground } from '../../db/turn-kind';
import type { Db } from '../../db/database';
import type { OrganizationEvents } from '../../events/organization-events';
import { profileImportRows, profileImports } from '../../db/schema';
import type { ApprovalTokens } from '../../imports/approval-token';
import { setJob, startImportWork, type ImportRow } from '../../imports/profile-jobs';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { findVisibleCase, type CaseRow } from '../cases/case-access';
import { BadRequest, Conflict, NotFound } from '../errors';
import { assertCaseTakesProfiles } from '../profiles/held-profile';
import { checkProfileReferences } from '../profiles/profile-references';
import { addChosen, checkChosen, type AddContext } from './add-import';
import { checkGroups, orderedGroups } from './replicate-groups';

/** What the import screen shows when the server refuses an approval (400, `details.approval`). */
export const APPROVAL_REFUSAL_MESSAGES: Record<ApprovalRefusal, string> = {
  expired: 'The approval of this import has expired. Parse the file again, then confirm.',
  mismatch: 'The profiles sent differ from what the import parsed. Nothing was added.',
  foreign: 'This import was parsed for another user. Nothing was added.',
  invalid: 'The approval token is not valid. Nothing was added.',
  used: 'This import has already been added (an approval adds one import once). Parse the file again to add it elsewhere.',
  case: 'This import was read for another case. Nothing was added.',
};

const refuse = (refusal: ApprovalRefusal) => new BadRequest(APPROVAL_REFUSAL_MESSAGES[refusal], { approval: refusal });

/** One import of this user (another user's answers 404: an import is private to whoever uploaded it). */
export async function findOwnImport(db: Db, user: AuthenticatedUser, id: string): Promise<ImportRow> {
  const [row] = await db.select().from(profileImports).where(and(eq(profileImports.id, id), eq(profileImports.userId, user.id)));
  if (!row) throw new NotFound(`No import with id ${id}`);
  return row;
}

/** The import an approval token names, checked for the user, the case and the parsed content (`digest` of what the client sent, if it sent profiles). */
export async function approvedImport(db: Db, tokens: ApprovalTokens, token: string, user: AuthenticatedUser, caseId: string, sentDigest?: string): Promise<ImportRow> {
  const check = tokens.check(token, user.id);
  if (check.refusal) throw refuse(check.refusal);
  const { subject } = check;
  const [job] = await db.select().from(profileImports).where(eq(profileImports.id, subject.importId));
  if (!job || job.userId !== user.id || job.digest !== subject.digest) throw refuse('invalid');
  // The case the token names, or the one the import was read for or first confirmed into.
  const bound = subject.caseId ?? job.caseId;
  if (bound !== null && bound !== caseId) throw refuse('case');
  if (sentDigest !== undefined && sentDigest !== job.digest) throw refuse('mismatch');
  if (job.approvalUsedAt !== null || job.state !== 'parsed') throw refuse('used');
  return job;
}

/** Which rows to add: `include` exactly, or every row the parser did not flag less `exclude`. */
export interface Choice {
  include?: number[];
  exclude?: number[];
  /** Rows joined as one profile's replicates (replicate-groups.ts). */
  groups?: number[][];
}

/** Rows per choosing statement. */
const CHOOSE_RANGE = 2000;

/** Marks the chosen rows; refuses indices outside the file and, whatever the client sent, rows the import flagged. */
async function choose(db: Db, job: ImportRow, choice: Choice): Promise<number> {
  const outside = [...(choice.include ?? []), ...(choice.exclude ?? [])].find((i) => i >= job.profileCount);
  if (outside !== undefined) throw new BadRequest(`Profile number ${outside + 1} is not part of this import`);
  const rows = profileImportRows;
  const flagged = choice.include
    ? await db
        .select({ index: rows.index, profileId: rows.profileId, errors: rows.errors })
        .from(rows)
        .where(and(eq(rows.importId, job.id), inArray(rows.index, choice.include.length > 0 ? choice.include : [-1]), sql`jsonb_array_length(${rows.errors}) > 0`))
        .limit(20)
    : [];
  if (flagged.length > 0) {
    const named = flagged.map((f) => `${f.profileId} (${(f.errors as string[]).join('; ')})`).join(', ');
    throw new BadRequest(`The import marked ${flagged.length === 1 ? 'this profile' : 'these profiles'} with errors; ${flagged.length === 1 ? 'it' : 'they'} cannot be added: ${named}`, {
      profiles: flagged.map((f) => ({ index: f.index, profileId: f.profileId, errors: f.errors })),
    });
  }
  // Rows start chosen when the parser found nothing wrong (the default); only rows whose choice changes
  // are written, so confirming 100,000 profiles rewrites none of them.
  const own = eq(rows.importId, job.id);
  const include = choice.include ? [...new Set(choice.include)] : null;
  const list = sql`${`{${(include ?? [...new Set(choice.exclude ?? [])]).join(',')}}`}::int[]`;
  // Range by range: short statements, so other requests' statements get in between (PGlite has one connection).
  for (let from = 0; from < job.profileCount; from += CHOOSE_RANGE) {
    const range = and(own, gte(rows.index, from), lt(rows.index, from + CHOOSE_RANGE));
    await db.update(rows).set({ addProblems: [] }).where(and(range, sql`jsonb_array_length(${rows.addProblems}) > 0`));
    if (include) {
      await db.update(rows).set({ chosen: false }).where(and(range, eq(rows.chosen, true), sql`${rows.index} <> all(${list})`));
      await db.update(rows).set({ chosen: true }).where(and(range, eq(rows.chosen, false), sql`${rows.index} = any(${list})`));
    } else {
      await db.update(rows).set({ chosen: false }).where(and(range, eq(rows.chosen, true), sql`${rows.index} = any(${list})`));
      await db.update(rows).set({ chosen: true }).where(and(range, eq(rows.chosen, false), sql`jsonb_array_length(${rows.errors}) = 0`, sql`${rows.index} <> all(${list})`));
    }
  }
  let chosen: number;
  if (include) chosen = include.length;
  else {
    const [left] = await db.select({ n: sql<number>`count(*)::int` }).from(rows).where(and(own, sql`${rows.index} = any(${list})`, sql`jsonb_array_length(${rows.errors}) = 0`));
    chosen = job.profileCount - job.flaggedCount - (left?.n ?? 0);
  }
  if (chosen === 0) throw new BadRequest('Choose at least one profile to add');
  return chosen;
}

export interface ConfirmDeps {
  db: Db;
  clock: Clock;
  actor: AuditActor;
  /** Told of each batch added, so open profile lists and review counts read again. */
  events?: Pick<OrganizationEvents, 'publish'> | undefined;
}

/** The checks and the case every confirmation needs, then the claim of the approval (one use). */
export async function claimImport(
  deps: ConfirmDeps,
  user: AuthenticatedUser,
  job: ImportRow,
  assignment: Omit<ProfileAssignment, 'comments'> & { comments: string },
  choice: Choice,
): Promise<{ ctx: AddContext; chosen: number }> {
  const { db } = deps;
  const found = await findVisibleCase(db, user, assignment.caseId);
  await assertCaseTakesProfiles(db, found);
  const { chemistry } = await checkProfileReferences(db, found.id, assignment);
  let chosen = await choose(db, job, choice);
  // A group's other rows are added as its first row's replicates, not as profiles of their own.
  const joining = await checkGroups(db, job.id, job.profileCount, choice.groups ?? []);
  if (joining.length > 0) {
    await db.update(profileImportRows).set({ chosen: false }).where(and(eq(profileImportRows.importId, job.id), inArray(profileImportRows.index, joining)));
    chosen -= joining.length;
  }
  const source = `Imported from ${job.fileName.trim() || 'a file'}`;
  const stored = { ...assignment, caseId: found.id, source, ...(choice.groups?.length ? { groups: orderedGroups(choice.groups) } : {}) };
  // One use: only a parsed, unspent import moves on; a second confirmation finds it claimed.
  const [claimed] = await db
    .update(profileImports)
    .set({ state: 'checking', approvalUsedAt: deps.clock.now(), assignment: stored, caseId: found.id, organizationId: found.organizationId, chosenCount: chosen, problemCount: 0, done: 0, total: chosen, message: '', updatedAt: new Date() })
    .where(and(eq(profileImports.id, job.id), eq(profileImports.state, 'parsed'), isNull(profileImports.approvalUsedAt)))
    .returning();
  if (!claimed) throw refuse('used');
  return { ctx: contextFor(deps, claimed, found, chemistry, stored), chosen };
}

function contextFor(deps: ConfirmDeps, job: ImportRow, found: CaseRow, chemistry: { id: string; kind: 'Autosomal' | 'YStr' }, stored: AddContext['assignment']): AddContext {
  return { db: deps.db, clock: deps.clock, actor: deps.actor, events: deps.events, job, found, chemistry, assignment: stored };
}

/** The outcome of a confirmation run to its end. */
export type ConfirmOutcome = { kind: 'added'; ids: string[] } | { kind: 'problems'; count: number } | { kind: 'cancelled'; ids: string[] };

/** Says how many chosen rows cannot be added, for the job's message. */
const problemsMessage = (n: number) => `${n} of the chosen profiles cannot be added; nothing was added. Leave ${n === 1 ? 'it' : 'them'} out or change the assignment, then confirm again.`;

/**
 * Checks the chosen rows, then adds them in batches (README "Imports": whole batches or nothing).
 * Problems send the import back to its preview with the approval unspent. Runs as background work: on
 * PGlite other users' requests get the one connection before its next batch.
 */
export function runConfirm(ctx: AddContext, batchSize: number): Promise<ConfirmOutcome> {
  return inBackground(() => confirmInBackground(ctx, batchSize));
}

async function confirmInBackground(ctx: AddContext, batchSize: number): Promise<ConfirmOutcome> {
  const { db, job } = ctx;
  const { signal, finish } = startImportWork(job.id);
  ctx.signal = signal;
  try {
    const problems = await checkChosen(ctx);
    if (problems > 0) {
      await setJob(db, job.id, { state: 'parsed', approvalUsedAt: null, problemCount: problems, message: problemsMessage(problems) });
      return { kind: 'problems', count: problems };
    }
    await setJob(db, job.id, { state: 'adding', done: 0, total: job.chosenCount, problemCount: 0 });
    return await addAndFinish(ctx, batchSize);
  } catch (err) {
    await setJob(db, job.id, { state: 'interrupted', message: `Adding stopped: ${err instanceof Error ? err.message : String(err)}. The batches added so far are in the case; resume or discard.` });
    throw err;
  } finally {
    finish();
  }
}

/** Adds what is left and records how the add ended. */
async function addAndFinish(ctx: AddContext, batchSize: number): Promise<ConfirmOutcome> {
  const ids = await addChosen(ctx, batchSize);
  if (ctx.signal?.aborted) {
    const [row] = await ctx.db.select({ added: profileImports.addedCount }).from(profileImports).where(eq(profileImports.id, ctx.job.id));
    await setJob(ctx.db, ctx.job.id, { state: 'cancelled', message: `Cancelled: ${row?.added ?? 0} profiles were added (whole batches); the rest were not.` });
    return { kind: 'cancelled', ids };
  }
  await setJob(ctx.db, ctx.job.id, { state: 'added', message: '' });
  return { kind: 'added', ids };
}

const RESUME_ONLY_INTERRUPTED = 'Only an interrupted import can be resumed.';

/** Continues an interrupted add after its last committed batch. */
export async function resumeImport(deps: ConfirmDeps, user: AuthenticatedUser, job: ImportRow): Promise<AddContext> {
  // Only an interrupted add has an assignment to resume with (a parsed or failed import has none).
  if (job.state !== 'interrupted') throw new Conflict(RESUME_ONLY_INTERRUPTED);
  const stored = job.assignment as AddContext['assignment'] & { caseId: string };
  const found = await findVisibleCase(deps.db, user, stored.caseId);
  await assertCaseTakesProfiles(deps.db, found);
  const { chemistry } = await checkProfileReferences(deps.db, found.id, stored);
  const [claimed] = await deps.db
    .update(profileImports)
    .set({ state: 'adding', message: '', done: job.addedCount, total: job.chosenCount, updatedAt: new Date() })
    .where(and(eq(profileImports.id, job.id), eq(profileImports.state, 'interrupted')))
    .returning();
  if (!claimed) throw new Conflict(RESUME_ONLY_INTERRUPTED);
  return contextFor(deps, claimed, found, chemistry, stored);
}

/** Runs the rest of a resumed add (no new check: the rows were checked before the first batch), as background work. */
export function runResume(ctx: AddContext, batchSize: number): Promise<ConfirmOutcome> {
  return inBackground(() => resumeInBackground(ctx, batchSize));
}

async function resumeInBackground(ctx: AddContext, batchSize: number): Promise<ConfirmOutcome> {
  const { signal, finish } = startImportWork(ctx.job.id);
  ctx.signal = signal;
  try {
    return await addAndFinish(ctx, batchSize);
  } catch (err) {
    await setJob(ctx.db, ctx.job.id, { state: 'interrupted', message: `Adding stopped: ${err instanceof Error ? err.message : String(err)}. The batches added so far are in the case; resume or discard.` });
    throw err;
  } finally {
    finish();
  }
}
