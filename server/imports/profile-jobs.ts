import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { ProfileImportJob } from '../../core/schemas/profile-imports';
import type { ImportIssue, ProfileKind } from '../../core/schemas/profiles';
import { inBackground } from '../db/turn-kind';
import type { Db } from '../db/database';
import { chemistries, chemistryMarkers, markers, profileImportRows, profileImports } from '../db/schema';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { workerPool } from '../jobs/worker-pool';
import type { CatalogueMarker, ParseOutcome, ParseSource, ParseTask } from './profile-import-worker';

// Profile imports as jobs (issue 13): the file is read in a worker thread, its rows stored for a paged
// preview, and the state kept in `profile_imports` so any API process can answer for it and a restart
// can say what became of it.

/** Rows per stored chunk: one short INSERT each, so other requests' statements get in between (PGlite has one connection). */
const STORE_CHUNK = 100;

// Not `new URL('./…', import.meta.url)` with the name inline: Vite rewrites that form into an asset URL
// (http://localhost:3000/…) when the server runs inside the component tests.
const WORKER_FILE = './profile-import-worker.ts';
const parseWorker = new URL(WORKER_FILE, import.meta.url);

export type ImportRow = typeof profileImports.$inferSelect;

/** Running jobs of this process, by id, so a cancel reaches the worker or the batch loop. */
const running = new Map<string, AbortController>();

/** The abort signal of a running job (registered by startImportWork). */
export function importSignal(id: string): AbortSignal | undefined {
  return running.get(id)?.signal;
}

/** Registers a job's work in this process until it settles, so cancelImport can stop it. */
export function startImportWork(id: string): { signal: AbortSignal; finish: () => void } {
  const controller = new AbortController();
  running.set(id, controller);
  return { signal: controller.signal, finish: () => running.delete(id) };
}

/** Stops a job running in this process; false when it runs nowhere here. */
export function cancelImportWork(id: string): boolean {
  const controller = running.get(id);
  if (!controller) return false;
  controller.abort();
  return true;
}

/** The chemistry of `kind` whose kit holds most of the imported markers (the smaller kit as the tie-break), or null. */
export async function suggestChemistry(db: Db, kind: ProfileKind, markerIds: readonly string[]): Promise<string | null> {
  if (markerIds.length === 0) return null;
  const wanted = new Set(markerIds);
  const rows = await db
    .select({ id: chemistries.id, markerId: chemistryMarkers.markerId })
    .from(chemistries)
    .innerJoin(chemistryMarkers, eq(chemistryMarkers.chemistryId, chemistries.id))
    .where(eq(chemistries.kind, kind));
  const kits = new Map<string, string[]>();
  for (const r of rows) kits.set(r.id, [...(kits.get(r.id) ?? []), r.markerId]);
  let best: { id: string; covered: number; size: number } | null = null;
  for (const [id, kit] of kits) {
    const covered = kit.filter((m) => wanted.has(m)).length;
    if (covered > 0 && (!best || covered > best.covered || (covered === best.covered && kit.length < best.size))) best = { id, covered, size: kit.length };
  }
  return best?.id ?? null;
}

/** The marker catalogue as the worker needs it. */
async function catalogue(db: Db): Promise<CatalogueMarker[]> {
  const rows = await db.select({ id: markers.id, name: markers.name, kind: markers.kind, aliases: markers.aliases, multiCopy: markers.multiCopy }).from(markers);
  return rows.map((m) => ({ ...m, kind: m.kind === 'YStr' ? 'YStr' : 'Autosomal' }));
}

/** A new job for an uploaded file, in state `parsing`. */
export async function createImport(db: Db, input: { userId: string; caseId: string | null; organizationId: string | null; fileName: string; fileBytes: number }): Promise<ImportRow> {
  const [row] = await db.insert(profileImports).values({ ...input, state: 'parsing' }).returning();
  return row!;
}

/** Stores one JSON chunk of parsed rows; the database reads the JSON, not the main thread. */
async function storeChunk(db: Db, importId: string, bytes: Uint8Array): Promise<void> {
  const chunk = UTF8.decode(bytes);
  await db.execute(sql`
    insert into profile_import_rows (import_id, index, line, profile_id, kind, kit, sample_type, marker_values, replicates, errors, chosen)
    select ${importId}::uuid, r.index, r.line, r.profile_id, r.kind, r.kit, r.sample_type, r.marker_values, coalesce(r.replicates, '[]'::jsonb), r.errors, jsonb_array_length(r.errors) = 0
    from jsonb_to_recordset(${chunk}::jsonb) as r(index int, line int, profile_id text, kind text, kit text, sample_type text, marker_values jsonb, replicates jsonb, errors jsonb)`);
}

const UTF8 = new TextDecoder();

/** The task with its file's bytes moved to the worker rather than copied (50 MB would hold this thread). */
function movingBytes(task: ParseTask): unknown {
  if (!('bytes' in task)) return task;
  const { bytes } = task;
  if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) return task;
  return move({
    get [transferableSymbol]() {
      return [bytes.buffer];
    },
    get [valueSymbol]() {
      return task;
    },
  });
}

/** Stores the parsed rows chunk by chunk (progress in done), then fresh statistics for paging them. */
async function storeRows(db: Db, importId: string, outcome: ParseOutcome, signal: AbortSignal): Promise<void> {
  let done = 0;
  const spool = await open(outcome.rows.file, 'r');
  try {
    let position = 0;
    for (const length of outcome.rows.lengths) {
      if (signal.aborted) throw new ImportStopped('cancelled');
      // One chunk at a time: the file is read on libuv's threads, this thread holds one chunk's bytes.
      const chunk = new Uint8Array(length);
      const { bytesRead } = await spool.read(chunk, 0, length, position);
      if (bytesRead !== length) throw new Error(`the parsed rows ended early (${position + bytesRead} bytes)`);
      position += length;
      await storeChunk(db, importId, chunk);
      done = Math.min(outcome.profileCount, done + STORE_CHUNK);
      await setJob(db, importId, { done });
    }
  } finally {
    await spool.close();
  }
  // Fresh statistics, so the planner pages through the rows by their key rather than scanning them all.
  // A small sample (3,000 rows) is enough for that and keeps ANALYZE short.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local default_statistics_target = 10`);
    await tx.execute(sql`analyze profile_import_rows (import_id, index, chosen, added)`);
  });
}

/** Why a parse did not finish: cancelled by the user, or the worker failed. */
export class ImportStopped extends Error {
  override readonly name = 'ImportStopped';
}

/**
 * Reads the file in a worker, stores its rows chunk by chunk (progress in done/total) and leaves the
 * job `parsed` (or `failed` with the reason, or `cancelled`). Resolves with the body of
 * `POST /profiles/import` when `withBody`.
 */
export async function runParse(db: Db, job: ImportRow, source: ParseSource, opts: { withBody: boolean; approvalExpiresAt: () => Date }): Promise<{ outcome: ParseOutcome | null; row: ImportRow }> {
  const { signal, finish } = startImportWork(job.id);
  const rowsFile = path.join(tmpdir(), `locus-import-rows-${job.id}.json`);
  try {
    const task: ParseTask = { ...source, fileName: job.fileName, markers: await catalogue(db), chunkSize: STORE_CHUNK, withBody: opts.withBody, rowsFile };
    const heartbeat = setInterval(() => void setJob(db, job.id, {}).catch(() => undefined), HEARTBEAT_MS);
    let outcome: ParseOutcome;
    try {
      outcome = (await workerPool(parseWorker).run(movingBytes(task), { signal })) as ParseOutcome;
    } finally {
      clearInterval(heartbeat);
    }
    await setJob(db, job.id, { format: outcome.format, total: outcome.profileCount, done: 0 });
    // Background work (issue 29): on PGlite every request's statement goes before the next chunk, so a request
    // waits behind one chunk at most, not behind each of its statements' chunks (health 380 ms at 100,000).
    await inBackground(() => storeRows(db, job.id, outcome, signal));
    const suggested = await suggestChemistry(db, outcome.kind, outcome.kindMarkerIds);
    const row = await setJob(db, job.id, {
      state: 'parsed',
      errors: outcome.errors,
      warnings: outcome.warnings,
      controls: outcome.controls,
      markers: outcome.markers,
      profileCount: outcome.profileCount,
      flaggedCount: outcome.flaggedCount,
      digest: outcome.digest,
      suggestedChemistryId: suggested,
      done: outcome.profileCount,
      approvalExpiresAt: opts.approvalExpiresAt(),
    });
    return { outcome, row };
  } catch (err) {
    const cancelled = signal.aborted;
    // A cancelled or failed parse keeps no rows: nothing of it can be added.
    await db.delete(profileImportRows).where(eq(profileImportRows.importId, job.id));
    const message = cancelled ? 'Cancelled while reading the file.' : `The file could not be read: ${err instanceof Error ? err.message : String(err)}`;
    const row = await setJob(db, job.id, { state: cancelled ? 'cancelled' : 'failed', message });
    return { outcome: null, row };
  } finally {
    // The upload's file is the job's once it runs: gone whether the parse ended, failed or was cancelled.
    await Promise.all([rowsFile, ...('uploadFile' in source ? [source.uploadFile] : [])].map((f) => rm(f, { force: true })));
    finish();
  }
}

/** Updates a job's columns and its updatedAt. */
export async function setJob(db: Db, id: string, patch: Partial<typeof profileImports.$inferInsert>): Promise<ImportRow> {
  const [row] = await db
    .update(profileImports)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(profileImports.id, id))
    .returning();
  return row!;
}

/**
 * After a restart no worker or batch loop runs: a parse in progress failed, a check goes back to the
 * preview, an add is `interrupted` (its committed batches stay; resume or discard). Returns how many changed.
 */
export async function recoverImports(db: Db, now: Date = new Date()): Promise<number> {
  // A running job touches its row at least every HEARTBEAT_MS; one silent for STALE_MS runs nowhere (another
  // API process's live jobs are left alone).
  const stale = (state: string) => and(eq(profileImports.state, state), lt(profileImports.updatedAt, new Date(now.getTime() - STALE_MS)), notRunningHere());
  const failed = await db
    .update(profileImports)
    .set({ state: 'failed', message: 'The server stopped while reading the file. Upload it again.', updatedAt: now })
    .where(stale('parsing'))
    .returning({ id: profileImports.id });
  if (failed.length > 0) await db.delete(profileImportRows).where(inArray(profileImportRows.importId, failed.map((f) => f.id)));
  const back = await db.update(profileImports).set({ state: 'parsed', approvalUsedAt: null, updatedAt: now }).where(stale('checking')).returning({ id: profileImports.id });
  const interrupted = await db
    .update(profileImports)
    .set({ state: 'interrupted', message: 'The server stopped while adding the profiles: the batches added so far are in the case. Resume to add the rest, or discard the import.', updatedAt: now })
    .where(stale('adding'))
    .returning({ id: profileImports.id });
  return failed.length + back.length + interrupted.length;
}

/** Jobs running in this process: never settled by recovery, however long a step takes. */
function notRunningHere() {
  const ids = [...running.keys()];
  return ids.length > 0 ? notInArray(profileImports.id, ids) : undefined;
}

/** How often a running job touches its row, and how long a silent one is taken for stopped. */
export const HEARTBEAT_MS = 30_000;
export const STALE_MS = 2 * 60_000;

/** Settles stopped jobs now and every minute (another process may have stopped mid-import). */
export function superviseImports(db: Db, onError: (err: unknown) => void): () => void {
  const tick = () => void recoverImports(db).catch(onError);
  tick();
  const timer = setInterval(tick, 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** A job as the API returns it. */
export function toImportJob(row: ImportRow): ProfileImportJob {
  return {
    id: row.id,
    fileName: row.fileName,
    fileBytes: row.fileBytes,
    format: row.format,
    state: row.state as ProfileImportJob['state'],
    done: row.done,
    total: row.total,
    caseId: row.caseId,
    profileCount: row.profileCount,
    flaggedCount: row.flaggedCount,
    errors: row.errors as ImportIssue[],
    warnings: row.warnings as ImportIssue[],
    controls: row.controls as ProfileImportJob['controls'],
    markers: row.markers as ProfileImportJob['markers'],
    suggestedChemistryId: row.suggestedChemistryId,
    chosenCount: row.chosenCount,
    addedCount: row.addedCount,
    message: row.message,
    problemCount: row.problemCount,
    approvalExpiresAt: row.approvalExpiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
