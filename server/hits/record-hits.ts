import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import { hitHistory, hitProfiles, hits } from '../db/schema';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { HitCandidate } from '../matching/types';
import { hitDedupeKey } from './dedupe-key';

export type HitRow = typeof hits.$inferSelect;

/** Rows per insert statement: far below PostgreSQL's 65,535 parameters. */
const CHUNK = 500;

/** What the search records (spec 3 Hit), found for the profile of `organizationId` whose approval ran it. */
export interface RecordHitsInput {
  organizationId: string;
  candidates: readonly HitCandidate[];
  /** When the search found them (defaults to now). */
  at?: Date;
}

/**
 * Stores each candidate as a pending hit unless the same hit (analysis, population, role–profile
 * pairs) exists already, whatever its state: a rejected hit is not found again by the next search.
 * Returns only the hits this call added. Run it inside the transaction that approves the profile
 * or records the search.
 */
export async function recordHitCandidates(tx: Db, input: RecordHitsInput): Promise<HitRow[]> {
  const byKey = new Map<string, HitCandidate>();
  for (const c of input.candidates) byKey.set(hitDedupeKey(c), c);
  const added: HitRow[] = [];
  const entries = [...byKey.entries()];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const values = entries.slice(i, i + CHUNK).map(([dedupeKey, c]) => ({
      organizationId: input.organizationId,
      analysisId: c.analysisId,
      populationId: c.populationId,
      combinedIndex: c.combinedIndex,
      markerCount: c.markerCount,
      nonExclusionMarkerCount: c.nonExclusionMarkerCount,
      dedupeKey,
      ...(input.at ? { createdAt: input.at, updatedAt: input.at } : {}),
    }));
    const rows = await tx.insert(hits).values(values).onConflictDoNothing({ target: hits.dedupeKey }).returning();
    if (rows.length === 0) continue;
    await tx.insert(hitProfiles).values(rows.flatMap((row) => byKey.get(row.dedupeKey)!.profiles.map((p, position) => ({ hitId: row.id, role: p.role, position, profileId: p.profileId }))));
    await tx.insert(hitHistory).values(rows.map((row) => ({ hitId: row.id, fromStatus: null, toStatus: 'pending', userName: 'Database search', ...(input.at ? { at: input.at } : {}) })));
    added.push(...rows);
  }
  return added;
}

/** Who removes hits, for the audit trail (the profile reset that caused it). */
export interface HitRemovalAudit {
  actor: AuditActor;
  clock: Clock;
}

async function removeHitsOf(tx: Db, profileId: string, onlyStatus: SQL | undefined, action: string, audit?: HitRemovalAudit): Promise<string[]> {
  const named = tx.select({ id: hitProfiles.hitId }).from(hitProfiles).where(eq(hitProfiles.profileId, profileId));
  const removed = await tx.delete(hits).where(and(inArray(hits.id, named), onlyStatus)).returning();
  if (audit && removed.length > 0) {
    await appendAudit(
      tx,
      audit.actor,
      audit.clock,
      ...removed.map((h) => ({ entity: 'Hit', entityId: h.id, action, organizationId: h.organizationId, before: { status: h.status, version: h.version, comments: h.comments } })),
    );
  }
  return removed.map((h) => h.id);
}

/** A reset profile leaves the database: its pending hits are withdrawn (ARCHITECTURE.md "States"). Returns their ids. */
export const withdrawPendingHits = (tx: Db, profileId: string, audit?: HitRemovalAudit): Promise<string[]> =>
  removeHitsOf(tx, profileId, eq(hits.status, 'pending'), 'Withdrawn (profile reset)', audit);

/** Reset-delete: every hit that names the profile goes, whatever its state. Returns their ids. */
export const deleteHitsOf = (tx: Db, profileId: string, audit?: HitRemovalAudit): Promise<string[]> =>
  removeHitsOf(tx, profileId, undefined, 'Deleted (profile reset and hits deleted)', audit);
