import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImportedReplicate } from '../../../core/schemas/replicates';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { listOf } from '../../../core/schemas/list';
import {
  AddImportBody,
  importBatchSize,
  IMPORT_RUNNING_STATES,
  PROFILE_IMPORT_LIMIT_BYTES,
  ProfileImportJob,
  ProfileImportRow,
  ProfileImportRowsQuery,
  type ImportRowFilter,
  type ImportState,
} from '../../../core/schemas/profile-imports';
import { APPROVAL_HEADER, APPROVAL_TOKEN_HEADER, type MarkerValue } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { profileImportRows, profileImports } from '../../db/schema';
import type { Clock } from '../../clock';
import { APPROVAL_TTL_SECONDS, type ApprovalTokens } from '../../imports/approval-token';
import { cancelImportWork, createImport, runParse, toImportJob, type ImportRow } from '../../imports/profile-jobs';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { auditActor } from '../audit-actor';
import { findVisibleCase } from '../cases/case-access';
import { BadRequest, Conflict } from '../errors';
import { readMultipartUpload } from '../multipart-form';
import type { RouteDeps } from '../route-deps';
import { rowWarnings } from './row-warnings';
import { approvedImport, claimImport, findOwnImport, resumeImport, runConfirm, runResume } from './confirm-import';

const Params = z.object({ id: Id });

/** Imports someone may still act on: running or interrupted, or parsed and still confirmable (see unfinished()). */
const UNFINISHED_STATES: ImportState[] = ['parsing', 'checking', 'adding', 'interrupted'];

/**
 * The unfinished imports: a parsed one counts only while it can still be confirmed. A file refused whole
 * or holding no profile without errors has nothing to add, and an expired approval needs the file read
 * again (the list has no file to read): both are over, so the list closes them rather than offer them.
 */
function unfinished(now: Date): SQL {
  const confirmable = and(
    eq(profileImports.state, 'parsed'),
    sql`${profileImports.profileCount} > ${profileImports.flaggedCount}`,
    sql`(${profileImports.approvalExpiresAt} is null or ${profileImports.approvalExpiresAt} > ${now.toISOString()})`,
  );
  return sql`(${inArray(profileImports.state, UNFINISHED_STATES)} or ${confirmable})`;
}

/** When an approval issued now stops being accepted (whole seconds: the token carries them). */
export const approvalExpiry = (clock: Clock) => new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + APPROVAL_TTL_SECONDS * 1000);
const access = { entity: 'Profiles', verb: 'Add' } as const;

/** The job as the API shows it, with the approval token while it may still be confirmed. */
export function jobView(tokens: ApprovalTokens, row: ImportRow, now: Date): { job: ProfileImportJob; token: string | null } {
  const live = row.state === 'parsed' && row.approvalUsedAt === null && row.approvalExpiresAt !== null && row.approvalExpiresAt > now;
  const token = live ? tokens.issue({ importId: row.id, userId: row.userId, caseId: row.caseId, digest: row.digest }, row.approvalExpiresAt!).token : null;
  return { job: toImportJob(row), token };
}

/**
 * Reads the uploaded file of an import request (with its optional `caseId` field) to a file of its own and starts
 * the job, which owns the file from then on (runParse removes it); refused, the request leaves no file behind.
 */
export async function uploadImport(db: Db, request: Parameters<typeof readMultipartUpload>[0], user: AuthenticatedUser) {
  const spool = path.join(tmpdir(), `locus-import-upload-${randomUUID()}`);
  const { file, fields } = await readMultipartUpload(request, { fileSize: PROFILE_IMPORT_LIMIT_BYTES, path: spool });
  try {
    if (!file) throw new BadRequest('Choose a file to import');
    if (file.size === 0) throw new BadRequest(`The file ${file.fileName || 'chosen'} is empty (0 bytes): nothing to import. Export it again, or choose another file.`);
    const caseId = fields.caseId?.trim() || null;
    // A form field is not checked by the route's schema: an id PostgreSQL cannot read must be a 400, not a 500.
    if (caseId && !Id.safeParse(caseId).success) throw new BadRequest(`caseId must be a case id (a GUID); "${caseId.slice(0, 40)}" is not one`);
    const found = caseId ? await findVisibleCase(db, user, caseId) : null;
    const job = await createImport(db, { userId: user.id, caseId: found?.id ?? null, organizationId: found?.organizationId ?? null, fileName: file.fileName || 'profiles', fileBytes: file.size });
    return { job, upload: { uploadFile: file.path } };
  } catch (err) {
    await rm(spool, { force: true });
    throw err;
  }
}

/** How many rows a filter holds: from the job's counters where they say it (no scan of 100,000 rows per page). */
async function rowCount(db: Db, job: ImportRow, filter: ImportRowFilter): Promise<number> {
  if (filter === 'all') return job.profileCount;
  if (filter === 'flagged') return job.flaggedCount;
  if (filter === 'problems') return job.problemCount;
  const [total] = await db.select({ n: count() }).from(profileImportRows).where(and(eq(profileImportRows.importId, job.id), FILTERS[filter]));
  return total?.n ?? 0;
}

const FILTERS: Record<ImportRowFilter, SQL | undefined> = {
  all: undefined,
  addable: sql`jsonb_array_length(${profileImportRows.errors}) = 0 and jsonb_array_length(${profileImportRows.addProblems}) = 0`,
  flagged: sql`jsonb_array_length(${profileImportRows.errors}) > 0`,
  problems: sql`jsonb_array_length(${profileImportRows.addProblems}) > 0`,
};

/**
 * Profile imports as jobs (issue 13, ARCHITECTURE.md "Heavy work off the request thread"): upload →
 * parse in a worker (progress) → paged preview with each profile's problems → confirm with the
 * approval (one use, this user, this case) → add in batches (progress, cancellable, resumable).
 */
export function profileImportJobRoutes(tokens: ApprovalTokens): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, { db, databaseKind, clock, events }) => {
    const batchSize = importBatchSize(databaseKind);
    const view = async (row: ImportRow, reply: { header: (k: string, v: string) => unknown }) => {
      const { job, token } = jobView(tokens, row, clock.now());
      if (token) reply.header(APPROVAL_TOKEN_HEADER, token);
      return job;
    };

    app.post(
      '/profile-imports',
      {
        config: { access },
        schema: {
          tags: ['profile-imports'],
          summary: 'Upload a profile file (multipart: file, caseId) and read it in the background; poll the import for progress, then page its profiles',
          consumes: ['multipart/form-data'],
          response: { 202: ProfileImportJob, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody },
        },
      },
      async (request, reply) => {
        const { job, upload } = await uploadImport(db, request, request.user);
        void runParse(db, job, upload, { withBody: false, approvalExpiresAt: () => approvalExpiry(clock) });
        return reply.code(202).send(await view(job, reply));
      },
    );

    app.get(
      '/profile-imports',
      {
        config: { access },
        schema: {
          tags: ['profile-imports'],
          summary: 'The signed-in user’s imports (newest first), optionally of one case: to find a running, interrupted or unconfirmed import again after a reload',
          querystring: z.object({ caseId: Id.optional(), open: z.enum(['true', 'false']).optional() }),
          response: { 200: listOf(ProfileImportJob) },
        },
      },
      async (request) => {
        const { caseId, open } = request.query;
        const rows = await db
          .select()
          .from(profileImports)
          .where(
            and(
              eq(profileImports.userId, request.user.id),
              caseId ? eq(profileImports.caseId, caseId) : undefined,
              open === 'true' ? unfinished(clock.now()) : undefined,
            ),
          )
          .orderBy(desc(profileImports.createdAt))
          .limit(50);
        return { items: rows.map(toImportJob), count: rows.length };
      },
    );

    app.get(
      '/profile-imports/:id',
      { config: { access }, schema: { tags: ['profile-imports'], summary: 'An import: state, progress, counts, the file’s problems; the Approval-Token header while it may be confirmed', params: Params, response: { 200: ProfileImportJob, 404: ErrorBody } } },
      async (request, reply) => view(await findOwnImport(db, request.user, request.params.id), reply),
    );

    app.get(
      '/profile-imports/:id/profiles',
      {
        config: { access },
        schema: { tags: ['profile-imports'], summary: 'A page of the import’s profiles in file order, each with its problems (and, given the kit, its peak heights’ warnings)', params: Params, querystring: ProfileImportRowsQuery, response: { 200: listOf(ProfileImportRow), 404: ErrorBody } },
      },
      async (request) => {
        const job = await findOwnImport(db, request.user, request.params.id);
        const { page, pageSize, filter, chemistryId } = request.query;
        const where = and(eq(profileImportRows.importId, job.id), FILTERS[filter]);
        // Every row: the page is a range of file positions, found through the primary key (an OFFSET would
        // step over 99,900 rows for the last page of 100,000). A filter pages by OFFSET over its few rows.
        const range = and(eq(profileImportRows.importId, job.id), gte(profileImportRows.index, page * pageSize), lt(profileImportRows.index, (page + 1) * pageSize));
        const rows =
          filter === 'all'
            ? await db.select().from(profileImportRows).where(range).orderBy(asc(profileImportRows.index))
            : await db.select().from(profileImportRows).where(where).orderBy(asc(profileImportRows.index)).limit(pageSize).offset(page * pageSize);
        const warnings = await rowWarnings(db, chemistryId, rows.map((r) => ({ profileId: r.profileId, replicates: r.replicates as ImportedReplicate[] })));
        return {
          count: await rowCount(db, job, filter),
          items: rows.map((r, i) => ({
            index: r.index,
            line: r.line,
            profileId: r.profileId,
            kind: r.kind as 'Autosomal' | 'YStr',
            kit: r.kit,
            sampleType: r.sampleType as ProfileImportRow['sampleType'],
            markerValues: r.markerValues as MarkerValue[],
            ...((r.replicates as ImportedReplicate[]).length > 0 ? { replicates: r.replicates as ImportedReplicate[] } : {}),
            errors: r.errors as string[],
            problems: r.addProblems as string[],
            warnings: warnings[i]!,
            chosen: r.chosen,
            added: r.added,
          })),
        };
      },
    );

    app.post(
      '/profile-imports/:id/add',
      {
        config: { access },
        // 100,000 indices to leave out are about 700 kB of JSON.
        bodyLimit: 4 * 1024 * 1024,
        schema: {
          tags: ['profile-imports'],
          summary: 'Confirm an import with its token in the Approval header: check the chosen profiles, then add them in batches in the background',
          params: Params,
          headers: z.object({ [APPROVAL_HEADER.toLowerCase()]: z.string().max(4096) }),
          body: AddImportBody,
          response: { 202: ProfileImportJob, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (request, reply) => {
        const own = await findOwnImport(db, request.user, request.params.id);
        const approval = request.headers[APPROVAL_HEADER.toLowerCase()] as string;
        const job = await approvedImport(db, tokens, approval, request.user, request.body.caseId, undefined);
        if (job.id !== own.id) throw new BadRequest('The approval is for another import. Nothing was added.', { approval: 'invalid' });
        const { include, exclude, groups, ...assignment } = request.body;
        const { ctx } = await claimImport({ db, clock, actor: auditActor(request.user), events }, request.user, job, assignment, { include, exclude, groups });
        void runConfirm(ctx, batchSize).catch((err: unknown) => request.log.error({ err }, 'import add stopped'));
        return reply.code(202).send(await view(ctx.job, reply));
      },
    );

    app.post(
      '/profile-imports/:id/cancel',
      { config: { access }, schema: { tags: ['profile-imports'], summary: 'Stop reading the file, or stop adding after the current batch', params: Params, response: { 200: ProfileImportJob, 404: ErrorBody, 409: ErrorBody } } },
      async (request, reply) => {
        const job = await findOwnImport(db, request.user, request.params.id);
        if (!IMPORT_RUNNING_STATES.has(job.state as ImportState)) throw new Conflict('This import is not running.');
        if (!cancelImportWork(job.id)) {
          // Running in no process (its server stopped): the restart recovery will settle it; say so now.
          throw new Conflict('This import is not running in this server; reload the page.');
        }
        return view(await findOwnImport(db, request.user, request.params.id), reply);
      },
    );

    app.post(
      '/profile-imports/:id/resume',
      { config: { access }, schema: { tags: ['profile-imports'], summary: 'Add the rest of an interrupted import after its last whole batch', params: Params, response: { 202: ProfileImportJob, 404: ErrorBody, 409: ErrorBody } } },
      async (request, reply) => {
        const job = await findOwnImport(db, request.user, request.params.id);
        const ctx = await resumeImport({ db, clock, actor: auditActor(request.user), events }, request.user, job);
        void runResume(ctx, batchSize).catch((err: unknown) => request.log.error({ err }, 'import resume stopped'));
        return reply.code(202).send(await view(ctx.job, reply));
      },
    );

    app.delete(
      '/profile-imports/:id',
      { config: { access }, schema: { tags: ['profile-imports'], summary: 'Discard an import: its parsed rows go; profiles already added stay in the case', params: Params, response: { 204: z.null(), 404: ErrorBody, 409: ErrorBody } } },
      async (request, reply) => {
        const job = await findOwnImport(db, request.user, request.params.id);
        if (IMPORT_RUNNING_STATES.has(job.state as ImportState)) throw new Conflict('Cancel the import before discarding it.');
        await db.delete(profileImports).where(eq(profileImports.id, job.id));
        return reply.code(204).send(null);
      },
    );
  };
}
