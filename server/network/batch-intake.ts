import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { BatchAnswer, BatchContent, BatchEntry, RefusedEntry } from '../../core/schemas/network-delivery';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { caseTypes, cases, chemistries, heldProfiles, lowerInstanceOrganizations, lowerInstances, markers, networkAppliedEntries, networkBatches, organizations, profiles } from '../db/schema';
import { packGenotype } from '../db/genotype-codec';
import { buildMarkerResolver } from '../db/seed/reference/marker-names';
import { deleteHitsOf, withdrawPendingHits } from '../hits/record-hits';
import { parseProfileFile, type MarkerResolver } from '../imports/profiles';
import { recordCandidateDecision } from './candidate-match-notices';

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
  /** This level's markers, read once per batch: names (and aliases) for the CMF reader, codes for the packed genotype. */
  markers: MarkerCatalogue;
}

interface MarkerCatalogue {
  resolve: MarkerResolver;
  codes: Map<string, number>;
}

async function markerCatalogue(tx: Db): Promise<MarkerCatalogue> {
  const rows = await tx.select({ id: markers.id, name: markers.name, kind: markers.kind, aliases: markers.aliases, multiCopy: markers.multiCopy, code: markers.code }).from(markers);
  return { resolve: buildMarkerResolver(rows.map((m) => ({ ...m, kind: m.kind === 'YStr' ? ('YStr' as const) : ('Autosomal' as const) }))), codes: new Map(rows.map((m) => [m.id, m.code])) };
}

/** The profiles to tell the matcher about once the batch committed (approved, reset or removed here). */
export interface Applied {
  answer: BatchAnswer;
  changed: { id: string; profileId: string; organizationId: string; status: string }[];
}

const origin = (instance: LowerInstanceRow, entry: BatchEntry, laboratory: string) => ({ instance: instance.name, laboratory, specimenId: entry.specimenId, originProfileId: entry.profileId });

async function heldRow(tx: Db, instance: LowerInstanceRow, entry: BatchEntry) {
  const [row] = await tx
    .select({ id: profiles.id, profileId: profiles.profileId, caseId: profiles.caseId, organizationId: profiles.organizationId, status: profiles.status })
    .from(heldProfiles)
    .innerJoin(profiles, eq(profiles.id, heldProfiles.profileId))
    .where(and(eq(heldProfiles.lowerInstanceId, instance.id), eq(heldProfiles.originProfileId, entry.profileId)));
  return row;
}

/** The case a held profile goes in: the lower instance's case number under the laboratory, made on first use; null without a case type here. */
async function heldCase(tx: Db, organizationId: string, caseNumber: string): Promise<string | null> {
  const [found] = await tx.select({ id: cases.id }).from(cases).where(and(eq(cases.organizationId, organizationId), eq(sql`lower(${cases.caseNumber})`, caseNumber.toLowerCase())));
  if (found) return found.id;
  const [type] = await tx.select({ id: caseTypes.id }).from(caseTypes).orderBy(asc(caseTypes.name)).limit(1);
  if (!type) return null;
  return (await tx.insert(cases).values({ caseNumber, caseTypeId: type.id, organizationId, notes: 'Profiles uploaded by a lower instance' }).returning())[0]!.id;
}

/** Reads an upload's CMF with the exports' counterpart (the CMF importer); the reasons it cannot be held here, if any. */
async function readUpload(tx: Db, entry: BatchEntry, catalogue: MarkerCatalogue) {
  const name = `Profile ${entry.specimenId}`;
  if (!entry.cmf || !entry.kit) return { error: `${name}: an upload carries its CMF document and its kit` };
  const [kit] = await tx.select().from(chemistries).where(eq(sql`lower(${chemistries.name})`, entry.kit.toLowerCase()));
  if (!kit) return { error: `${name}: this level has no kit ${entry.kit}; add the kit here before the laboratory sends profiles typed with it` };
  const parsed = await parseProfileFile({ fileName: `${entry.specimenId}.xml`, bytes: new TextEncoder().encode(entry.cmf) }, catalogue.resolve);
  const profile = parsed.profiles[0];
  const problems = [...parsed.errors.map((e) => e.message), ...(profile?.errors ?? [])];
  if (!profile || parsed.profiles.length !== 1) problems.push('the CMF document must hold exactly one SPECIMEN');
  else if (!profile.sampleType) problems.push('its SPECIMENCATEGORY is not one this level files');
  if (problems.length > 0) return { error: `${name}: ${problems.join('; ')}` };
  return { kit, profile: profile!, caseNumber: entry.caseNumber || `${entry.laboratory} uploads`, genotype: Buffer.from(packGenotype(profile!.markerValues, (id) => catalogue.codes.get(id))) };
}

/** Applies one entry (a decision: on its candidate match's notice); the refusal's message when it cannot be, else the profile the matcher must hear of. */
async function applyEntry(intake: Intake, entry: BatchEntry): Promise<string | Applied['changed'][number] | null> {
  const { tx, clock, actor, instance } = intake;
  const laboratory = intake.laboratories.get(entry.laboratory.toLowerCase());
  if (!laboratory) return `Unknown laboratory "${entry.laboratory}": it is not registered here for the lower instance "${instance.name}"`;
  if (entry.action === 'decision') {
    if (!entry.decision) return `Profile ${entry.specimenId}: a decision names its candidate match`;
    return await recordCandidateDecision(tx, clock, actor, instance.id, entry.decision);
  }
  const held = await heldRow(tx, instance, entry);
  const where = origin(instance, entry, laboratory.name);
  if (entry.action === 'upload') {
    const read = await readUpload(tx, entry, intake.markers);
    if (typeof read.error === 'string') return read.error;
    const values = { profileId: entry.specimenId, kind: read.kit.kind as 'Autosomal' | 'YStr', chemistryId: read.kit.id, sampleType: read.profile.sampleType!, genotype: read.genotype, status: 'approved' as const, reviewedAt: clock.now(), searchedAt: null };
    let id: string;
    let caseId: string;
    if (held) {
      id = held.id;
      caseId = held.caseId;
      await tx.update(profiles).set({ ...values, version: sql`${profiles.version} + 1`, updatedAt: clock.now() }).where(eq(profiles.id, id));
    } else {
      const made = await heldCase(tx, laboratory.id, read.caseNumber);
      if (!made) return `Profile ${entry.specimenId}: this level has no case type to file uploaded profiles under; add one here`;
      caseId = made;
      id = (await tx.insert(profiles).values({ ...values, caseId, organizationId: laboratory.id, source: `Uploaded by ${instance.name}` }).returning())[0]!.id;
      await tx.insert(heldProfiles).values({ profileId: id, lowerInstanceId: instance.id, organizationId: laboratory.id, originProfileId: entry.profileId, specimenId: entry.specimenId });
    }
    await appendAudit(tx, actor, clock, { entity: 'Profile', entityId: id, action: held ? 'Replaced from lower instance' : 'Received from lower instance', organizationId: laboratory.id, caseId, after: { ...where, sampleType: values.sampleType, kit: read.kit.name } });
    return { id, profileId: entry.specimenId, organizationId: laboratory.id, status: 'approved' };
  }
  if (!held) return null; // Never held here (its upload was refused or not yet sent): nothing to undo.
  const hitAudit = { actor, clock };
  if (entry.action === 'reset') {
    await tx.update(profiles).set({ status: 'pending', reviewedAt: null, searchedAt: null, version: sql`${profiles.version} + 1`, updatedAt: clock.now() }).where(eq(profiles.id, held.id));
    await withdrawPendingHits(tx, held.id, hitAudit);
    await appendAudit(tx, actor, clock, { entity: 'Profile', entityId: held.id, action: 'Reset by lower instance', organizationId: laboratory.id, caseId: held.caseId, after: where });
    return { ...held, status: 'pending' };
  }
  await deleteHitsOf(tx, held.id, hitAudit);
  await tx.delete(profiles).where(eq(profiles.id, held.id));
  await appendAudit(tx, actor, clock, { entity: 'Profile', entityId: held.id, action: 'Expunged by lower instance', organizationId: laboratory.id, caseId: held.caseId, before: where });
  return { ...held, status: 'deleted' };
}

/**
 * Applies a verified batch in the caller's transaction (issue 32): every entry or none. An entry whose key was
 * applied before is skipped (at-least-once delivery, exactly-once in effect); a batch id seen before is answered with
 * its first answer. Any refused entry (unknown laboratory, a kit this level lacks, a CMF it cannot read) throws
 * BatchRefused listing them all, so the caller's transaction rolls back with nothing half-applied.
 */
export async function applyBatch(tx: Db, clock: Clock, actor: AuditActor, instance: LowerInstanceRow, batch: BatchContent): Promise<Applied> {
  const [seen] = await tx.select().from(networkBatches).where(eq(networkBatches.id, batch.batchId));
  if (seen) return { answer: { batchId: batch.batchId, status: 'already applied', entries: seen.outcome as BatchAnswer['entries'] }, changed: [] };
  const labs = await tx.select({ id: organizations.id, name: organizations.name }).from(lowerInstanceOrganizations).innerJoin(organizations, eq(organizations.id, lowerInstanceOrganizations.organizationId)).where(eq(lowerInstanceOrganizations.lowerInstanceId, instance.id));
  const intake: Intake = { tx, clock, actor, instance, laboratories: new Map(labs.map((l) => [l.name.toLowerCase(), l])), markers: await markerCatalogue(tx) };
  const keys = batch.entries.map((e) => e.idempotencyKey);
  const done = new Set((await tx.select({ key: networkAppliedEntries.idempotencyKey }).from(networkAppliedEntries).where(inArray(networkAppliedEntries.idempotencyKey, keys))).map((r) => r.key));
  const refused: RefusedEntry[] = [];
  const changed: Applied['changed'] = [];
  const entries: BatchAnswer['entries'] = [];
  for (const entry of batch.entries) {
    if (done.has(entry.idempotencyKey)) {
      entries.push({ idempotencyKey: entry.idempotencyKey, outcome: 'already applied' });
      continue;
    }
    done.add(entry.idempotencyKey);
    const result = await applyEntry(intake, entry);
    if (typeof result === 'string') refused.push({ idempotencyKey: entry.idempotencyKey, error: result });
    else {
      if (result) changed.push(result);
      entries.push({ idempotencyKey: entry.idempotencyKey, outcome: 'applied' });
    }
  }
  if (refused.length > 0) throw new BatchRefused(refused);
  await tx.insert(networkBatches).values({ id: batch.batchId, lowerInstanceId: instance.id, receivedAt: clock.now(), outcome: entries });
  const applied = entries.filter((e) => e.outcome === 'applied').map((e) => ({ idempotencyKey: e.idempotencyKey, batchId: batch.batchId }));
  if (applied.length > 0) await tx.insert(networkAppliedEntries).values(applied);
  await appendAudit(tx, actor, clock, { entity: 'NetworkBatch', entityId: batch.batchId, action: 'Applied', after: { lowerInstance: instance.name, entries: entries.length, applied: applied.length } });
  return { answer: { batchId: batch.batchId, status: 'applied', entries }, changed };
}
