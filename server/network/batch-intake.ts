import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { BatchAnswer, BatchContent, BatchEntry, RefusedEntry } from '../../core/schemas/network-delivery';
import type { SampleType } from '../../core/schemas/profiles';
import { appendAudit, type AuditActor, type AuditEvent } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { caseTypes, cases, chemistries, heldProfiles, lowerInstanceOrganizations, lowerInstances, markers, networkAppliedEntries, networkBatches, organizations, profiles } from '../db/schema';
import { deleteHitsOf, withdrawPendingHits } from '../hits/record-hits';
import { workerPool } from '../jobs/worker-pool';
import { recordCandidateDecision } from './candidate-match-notices';
import { type BatchRead, type BatchReadTask, type UploadRead } from './batch-read-worker';
import { BatchRejected } from './batch-signature';

export type LowerInstanceRow = typeof lowerInstances.$inferSelect;

/** A batch refused as a whole, nothing of it applied: the entries at fault with why (the answer's details.refused). */
export class BatchRefused extends Error {
  constructor(readonly refused: RefusedEntry[]) {
    super(`The batch was refused and nothing of it applied: ${refused.map((r) => r.error).join('; ')}`);
  }
}

interface Intake {
  tx: Db;
  clock: Clock;
  actor: AuditActor;
  instance: LowerInstanceRow;
  /** The instance's laboratories by lower-cased name. */
  laboratories: Map<string, { id: string; name: string }>;
  /** Each upload's document as read off the request thread (readBatch), by idempotency key. */
  reads: ReadUploads;
  /** This level's kits by lower-cased name, read once per batch. */
  kits: Map<string, typeof chemistries.$inferSelect>;
  /** The trail's rows of the whole batch, written in one statement at its end. */
  audit: AuditEvent[];
}

/** The uploads' documents read, by idempotency key (an upload without its CMF or kit is not read). */
export type ReadUploads = Map<string, UploadRead>;

// Not `new URL('./…', import.meta.url)` with the name inline: Vite rewrites that form (server/imports/profile-jobs.ts).
const READ_WORKER_FILE = './batch-read-worker.ts';
const readWorker = new URL(READ_WORKER_FILE, import.meta.url);

/**
 * The batch as sent, verified under the client's credentials and its documents read with this level's markers, all on
 * a worker thread (before its transaction opens); BatchRejected saying why a batch is refused.
 */
export async function readBatch(db: Db, jws: string, client: { clientId: string; secretHash: string | null }): Promise<{ content: BatchContent; reads: ReadUploads }> {
  const rows = await db.select({ id: markers.id, name: markers.name, kind: markers.kind, aliases: markers.aliases, multiCopy: markers.multiCopy, code: markers.code }).from(markers);
  const task: BatchReadTask = { jws, clientId: client.clientId, secretHash: client.secretHash, markers: rows.map((m) => ({ ...m, kind: m.kind === 'YStr' ? 'YStr' : 'Autosomal' })) };
  const read = (await workerPool(readWorker).run(task)) as BatchRead;
  if ('rejected' in read) throw new BatchRejected(read.rejected);
  return { content: read.content, reads: new Map(read.reads) };
}

/** The profiles to tell the matcher about once the batch committed (approved, reset or removed here). */
export interface Applied {
  answer: BatchAnswer;
  changed: { id: string; profileId: string; organizationId: string; status: string }[];
}

const origin = (instance: LowerInstanceRow, entry: BatchEntry, laboratory: string) => ({ instance: instance.name, laboratory, specimenId: entry.specimenId, originProfileId: entry.profileId });

/** The profiles already held here for these origin ids, by origin id. */
async function heldRows(tx: Db, instance: LowerInstanceRow, originIds: readonly string[]) {
  if (originIds.length === 0) return new Map<string, never>();
  const rows = await tx
    .select({ originProfileId: heldProfiles.originProfileId, id: profiles.id, profileId: profiles.profileId, caseId: profiles.caseId, organizationId: profiles.organizationId, status: profiles.status })
    .from(heldProfiles)
    .innerJoin(profiles, eq(profiles.id, heldProfiles.profileId))
    .where(and(eq(heldProfiles.lowerInstanceId, instance.id), inArray(heldProfiles.originProfileId, [...originIds])));
  return new Map(rows.map(({ originProfileId, ...held }) => [originProfileId, held]));
}

const caseKey = (organizationId: string, caseNumber: string) => `${organizationId} ${caseNumber.toLowerCase()}`;

/**
 * The cases held profiles go in: the lower instance's case number under the laboratory, made on first use, all of a
 * batch's in two statements; by caseKey. Null without a case type here.
 */
async function heldCases(tx: Db, wanted: readonly { organizationId: string; caseNumber: string }[]): Promise<Map<string, string> | null> {
  const found = new Map<string, string>();
  if (wanted.length === 0) return found;
  const organizationIds = [...new Set(wanted.map((w) => w.organizationId))];
  const numbers = [...new Set(wanted.map((w) => w.caseNumber.toLowerCase()))];
  const rows = await tx.select({ id: cases.id, organizationId: cases.organizationId, caseNumber: cases.caseNumber }).from(cases).where(and(inArray(cases.organizationId, organizationIds), inArray(sql`lower(${cases.caseNumber})`, numbers)));
  for (const r of rows) found.set(caseKey(r.organizationId, r.caseNumber), r.id);
  const missing = new Map<string, { id: string; organizationId: string; caseNumber: string }>();
  for (const w of wanted) if (!found.has(caseKey(w.organizationId, w.caseNumber))) missing.set(caseKey(w.organizationId, w.caseNumber), { id: randomUUID(), ...w });
  if (missing.size === 0) return found;
  const [type] = await tx.select({ id: caseTypes.id }).from(caseTypes).orderBy(asc(caseTypes.name)).limit(1);
  if (!type) return null;
  await tx.insert(cases).values([...missing.values()].map((m) => ({ ...m, caseTypeId: type.id, notes: 'Profiles uploaded by a lower instance' })));
  for (const [key, m] of missing) found.set(key, m.id);
  return found;
}

/** An upload's kit and document as read, or why it cannot be held here. */
function checkUpload(intake: Intake, entry: BatchEntry) {
  const name = `Profile ${entry.specimenId}`;
  // An upload carrying its CMF and kit was read on the worker (readBatch), which kept the CMF text: no read, no document.
  const read = intake.reads.get(entry.idempotencyKey);
  if (!read || !entry.kit) return { error: `${name}: an upload carries its CMF document and its kit` };
  const kit = intake.kits.get(entry.kit.toLowerCase());
  if (!kit) return { error: `${name}: this level has no kit ${entry.kit}; add the kit here before the laboratory sends profiles typed with it` };
  if ('problems' in read) return { error: `${name}: ${read.problems.join('; ')}` };
  return { kit, sampleType: read.sampleType as SampleType, genotype: Buffer.from(read.genotype), caseNumber: entry.caseNumber || `${entry.laboratory} uploads` };
}

type Outcome = string | Applied['changed'][number] | null;

/**
 * New uploads (no profile held for their origin, one entry of it in the batch: nearly every entry of a replication)
 * all at once: cases, profiles and held rows each one multi-row insert. Each entry's outcome, in order.
 */
async function applyNewUploads(intake: Intake, entries: readonly BatchEntry[]): Promise<Outcome[]> {
  if (entries.length === 0) return [];
  const { tx, clock, instance } = intake;
  const outcomes: Outcome[] = [];
  const ready: { index: number; entry: BatchEntry; laboratory: { id: string; name: string }; upload: Exclude<ReturnType<typeof checkUpload>, { error: string }> }[] = [];
  for (const [index, entry] of entries.entries()) {
    const laboratory = intake.laboratories.get(entry.laboratory.toLowerCase());
    const upload = laboratory ? checkUpload(intake, entry) : null;
    if (!laboratory) outcomes.push(unknownLaboratory(entry, instance));
    else if ('error' in upload!) outcomes.push(upload.error as string);
    else {
      outcomes.push(null);
      ready.push({ index, entry, laboratory, upload: upload! });
    }
  }
  // A refused entry refuses the batch: nothing is written, every refusal is named.
  if (ready.length < entries.length) return outcomes;
  const caseIds = await heldCases(tx, ready.map((r) => ({ organizationId: r.laboratory.id, caseNumber: r.upload.caseNumber })));
  if (!caseIds) return entries.map((e) => `Profile ${e.specimenId}: this level has no case type to file uploaded profiles under; add one here`);
  const now = clock.now();
  const source = `Uploaded by ${instance.name}`;
  const rows = ready.map((r) => ({
    id: randomUUID(),
    profileId: r.entry.specimenId,
    kind: r.upload.kit.kind as 'Autosomal' | 'YStr',
    chemistryId: r.upload.kit.id,
    sampleType: r.upload.sampleType,
    genotype: r.upload.genotype,
    caseId: caseIds.get(caseKey(r.laboratory.id, r.upload.caseNumber))!,
    organizationId: r.laboratory.id,
  }));
  await insertHeldProfiles(tx, instance, now, source, rows.map((row, i) => ({ ...row, originProfileId: ready[i]!.entry.profileId })));
  for (const [i, r] of ready.entries()) {
    const row = rows[i]!;
    intake.audit.push({ entity: 'Profile', entityId: row.id, action: 'Received from lower instance', organizationId: r.laboratory.id, caseId: row.caseId, after: { ...origin(instance, r.entry, r.laboratory.name), sampleType: row.sampleType, kit: r.upload.kit.name } });
    outcomes[r.index] = { id: row.id, profileId: row.profileId, organizationId: r.laboratory.id, status: 'approved' };
  }
  return outcomes;
}

/**
 * A batch's new profiles (approved at `reviewedAt`, not yet searched) and their held rows, in the order given: the
 * database reads each table's rows from one JSON parameter. Drizzle's multi-row insert built a statement of about
 * twelve thousand parts for 500 profiles, 100–200 ms of the request thread at once at S (issue 32).
 */
async function insertHeldProfiles(
  tx: Db,
  instance: LowerInstanceRow,
  reviewedAt: Date,
  source: string,
  rows: readonly { id: string; profileId: string; kind: string; chemistryId: string; sampleType: string; genotype: Buffer; caseId: string; organizationId: string; originProfileId: string }[],
): Promise<void> {
  const json = JSON.stringify(rows.map((r) => ({ ...r, genotype: r.genotype.toString('hex') })));
  await tx.execute(sql`
    insert into profiles (id, profile_id, kind, chemistry_id, sample_type, genotype, status, reviewed_at, searched_at, case_id, organization_id, source)
    select r.id, r."profileId", r.kind, r."chemistryId", r."sampleType", decode(r.genotype, 'hex'), 'approved', ${reviewedAt.toISOString()}::timestamptz, null, r."caseId", r."organizationId", ${source}
    from rows from (jsonb_to_recordset(${json}::jsonb) as (id uuid, "profileId" text, kind profile_kind, "chemistryId" uuid, "sampleType" sample_type, genotype text, "caseId" uuid, "organizationId" uuid))
      with ordinality as r(id, "profileId", kind, "chemistryId", "sampleType", genotype, "caseId", "organizationId", n)
    order by r.n`);
  await tx.execute(sql`
    insert into held_profiles (profile_id, lower_instance_id, organization_id, origin_profile_id, specimen_id)
    select r.id, ${instance.id}::uuid, r."organizationId", r."originProfileId", r."profileId"
    from rows from (jsonb_to_recordset(${json}::jsonb) as (id uuid, "organizationId" uuid, "originProfileId" uuid, "profileId" text))
      with ordinality as r(id, "organizationId", "originProfileId", "profileId", n)
    order by r.n`);
}

const unknownLaboratory = (entry: BatchEntry, instance: LowerInstanceRow) => `Unknown laboratory "${entry.laboratory}": it is not registered here for the lower instance "${instance.name}"`;

/** Applies one entry (a decision: on its candidate match's notice); the refusal's message when it cannot be, else the profile the matcher must hear of. */
async function applyEntry(intake: Intake, entry: BatchEntry): Promise<Outcome> {
  const { tx, clock, actor, instance } = intake;
  const laboratory = intake.laboratories.get(entry.laboratory.toLowerCase());
  if (!laboratory) return unknownLaboratory(entry, instance);
  if (entry.action === 'decision') {
    if (!entry.decision) return `Profile ${entry.specimenId}: a decision names its candidate match`;
    return await recordCandidateDecision(tx, clock, actor, instance.id, entry.decision);
  }
  const held = (await heldRows(tx, instance, [entry.profileId])).get(entry.profileId);
  const where = origin(instance, entry, laboratory.name);
  if (entry.action === 'upload') {
    if (!held) return (await applyNewUploads(intake, [entry]))[0]!;
    const read = checkUpload(intake, entry);
    if ('error' in read) return read.error as string;
    const values = { profileId: entry.specimenId, kind: read.kit.kind as 'Autosomal' | 'YStr', chemistryId: read.kit.id, sampleType: read.sampleType, genotype: read.genotype, status: 'approved' as const, reviewedAt: clock.now(), searchedAt: null };
    await tx.update(profiles).set({ ...values, version: sql`${profiles.version} + 1`, updatedAt: clock.now() }).where(eq(profiles.id, held.id));
    intake.audit.push({ entity: 'Profile', entityId: held.id, action: 'Replaced from lower instance', organizationId: laboratory.id, caseId: held.caseId, after: { ...where, sampleType: values.sampleType, kit: read.kit.name } });
    return { id: held.id, profileId: entry.specimenId, organizationId: laboratory.id, status: 'approved' };
  }
  if (!held) return null; // Never held here (its upload was refused or not yet sent): nothing to undo.
  const hitAudit = { actor, clock };
  if (entry.action === 'reset') {
    await tx.update(profiles).set({ status: 'pending', reviewedAt: null, searchedAt: null, version: sql`${profiles.version} + 1`, updatedAt: clock.now() }).where(eq(profiles.id, held.id));
    await withdrawPendingHits(tx, held.id, hitAudit);
    intake.audit.push({ entity: 'Profile', entityId: held.id, action: 'Reset by lower instance', organizationId: laboratory.id, caseId: held.caseId, after: where });
    return { ...held, status: 'pending' };
  }
  await deleteHitsOf(tx, held.id, hitAudit);
  await tx.delete(profiles).where(eq(profiles.id, held.id));
  intake.audit.push({ entity: 'Profile', entityId: held.id, action: 'Expunged by lower instance', organizationId: laboratory.id, caseId: held.caseId, before: where });
  return { ...held, status: 'deleted' };
}

/**
 * Applies a verified batch in the caller's transaction (issue 32): every entry or none. An entry whose key was
 * applied before is skipped (at-least-once delivery, exactly-once in effect); a batch id seen before is answered with
 * its first answer. Any refused entry (unknown laboratory, a kit this level lacks, a CMF it cannot read) throws
 * BatchRefused listing them all, so the caller's transaction rolls back with nothing half-applied. The new uploads go
 * in together (applyNewUploads), the rest (resets, deletions, decisions, a profile sent again) one at a time in order,
 * and the trail's rows of the batch in one statement: a batch is a dozen statements, not seven per profile.
 */
export async function applyBatch(tx: Db, clock: Clock, actor: AuditActor, instance: LowerInstanceRow, batch: BatchContent, reads: ReadUploads): Promise<Applied> {
  const [seen] = await tx.select().from(networkBatches).where(eq(networkBatches.id, batch.batchId));
  if (seen) return { answer: { batchId: batch.batchId, status: 'already applied', entries: seen.outcome as BatchAnswer['entries'] }, changed: [] };
  const labs = await tx.select({ id: organizations.id, name: organizations.name }).from(lowerInstanceOrganizations).innerJoin(organizations, eq(organizations.id, lowerInstanceOrganizations.organizationId)).where(eq(lowerInstanceOrganizations.lowerInstanceId, instance.id));
  const kitNames = [...new Set(batch.entries.flatMap((e) => (e.action === 'upload' && e.kit ? [e.kit.toLowerCase()] : [])))];
  const kits = kitNames.length === 0 ? [] : await tx.select().from(chemistries).where(inArray(sql`lower(${chemistries.name})`, kitNames));
  const intake: Intake = { tx, clock, actor, instance, laboratories: new Map(labs.map((l) => [l.name.toLowerCase(), l])), reads, kits: new Map(kits.map((k) => [k.name.toLowerCase(), k])), audit: [] };
  const keys = batch.entries.map((e) => e.idempotencyKey);
  const done = new Set((await tx.select({ key: networkAppliedEntries.idempotencyKey }).from(networkAppliedEntries).where(inArray(networkAppliedEntries.idempotencyKey, keys))).map((r) => r.key));
  // Each key once: a key repeated in the batch is already applied the second time.
  const todo: BatchEntry[] = [];
  for (const entry of batch.entries) {
    if (done.has(entry.idempotencyKey)) continue;
    done.add(entry.idempotencyKey);
    todo.push(entry);
  }
  const perProfile = new Map<string, number>();
  for (const e of todo) perProfile.set(e.profileId, (perProfile.get(e.profileId) ?? 0) + 1);
  const uploads = todo.filter((e) => e.action === 'upload' && perProfile.get(e.profileId) === 1);
  const held = await heldRows(tx, instance, uploads.map((e) => e.profileId));
  const fresh = uploads.filter((e) => !held.has(e.profileId));
  const outcomes = new Map<BatchEntry, Outcome>();
  for (const [i, outcome] of (await applyNewUploads(intake, fresh)).entries()) outcomes.set(fresh[i]!, outcome);
  for (const entry of todo) if (!outcomes.has(entry)) outcomes.set(entry, await applyEntry(intake, entry));

  const refused: RefusedEntry[] = [];
  const changed: Applied['changed'] = [];
  const entries: BatchAnswer['entries'] = batch.entries.map((e) => ({ idempotencyKey: e.idempotencyKey, outcome: outcomes.has(e) ? 'applied' : 'already applied' }));
  for (const entry of todo) {
    const outcome = outcomes.get(entry)!;
    if (typeof outcome === 'string') refused.push({ idempotencyKey: entry.idempotencyKey, error: outcome });
    else if (outcome) changed.push(outcome);
  }
  if (refused.length > 0) throw new BatchRefused(refused);
  await tx.insert(networkBatches).values({ id: batch.batchId, lowerInstanceId: instance.id, receivedAt: clock.now(), outcome: entries });
  const applied = todo.map((e) => ({ idempotencyKey: e.idempotencyKey, batchId: batch.batchId }));
  if (applied.length > 0) await tx.insert(networkAppliedEntries).values(applied);
  await appendAudit(tx, actor, clock, ...intake.audit, { entity: 'NetworkBatch', entityId: batch.batchId, action: 'Applied', after: { lowerInstance: instance.name, entries: entries.length, applied: applied.length } });
  return { answer: { batchId: batch.batchId, status: 'applied', entries }, changed };
}
