import { and, eq } from 'drizzle-orm';
import type { CandidateDecision } from '../../core/schemas/candidate-matches';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { candidateMatches, profiles } from '../db/schema';
import { Conflict, NotFound } from '../errors';
import { queueCandidateDecision } from './upload-outbox';

export type CandidateMatchRow = typeof candidateMatches.$inferSelect;

/** A candidate match by id; 404 when there is none. */
export async function findCandidateMatch(db: Db, id: string): Promise<CandidateMatchRow> {
  const [row] = await db.select().from(candidateMatches).where(eq(candidateMatches.id, id));
  if (!row) throw new NotFound(`No candidate match with id ${id}`);
  return row;
}

/**
 * Confirms a candidate match or rejects it with a reason, once (issue 32, reviewed like a hit): a decided match or a
 * stale version is a 409. The decision, who made it and the reason are audited under the profile's organization, and
 * its outbox entry for the upper instance commits with it.
 */
export async function decideCandidateMatch(db: Db, clock: Clock, actor: AuditActor, match: CandidateMatchRow, decision: Omit<CandidateDecision, 'candidateMatchId'>, version: number): Promise<CandidateMatchRow> {
  if (match.status !== 'pending') throw new Conflict(`This candidate match was already ${match.status}`);
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [row] = await t
      .update(candidateMatches)
      .set({ status: decision.status, reason: decision.reason, decidedBy: actor.id, decidedByName: actor.name, decidedAt: clock.now(), updatedAt: clock.now(), version: version + 1 })
      .where(and(eq(candidateMatches.id, match.id), eq(candidateMatches.version, version), eq(candidateMatches.status, 'pending')))
      .returning();
    if (!row) throw new Conflict('This candidate match was changed by someone else: reload it');
    const [profile] = await t.select({ caseId: profiles.caseId }).from(profiles).where(eq(profiles.id, row.profileId));
    await appendAudit(t, actor, clock, {
      entity: 'CandidateMatch',
      entityId: row.id,
      action: decision.status === 'confirmed' ? 'Confirmed' : 'Rejected',
      organizationId: row.organizationId,
      ...(profile ? { caseId: profile.caseId } : {}),
      before: { status: match.status },
      after: { status: row.status, reason: row.reason, profileId: row.profileId, counterparts: row.notice.counterparts, upperInstance: row.upperInstance },
    });
    await queueCandidateDecision(t, { profileId: row.profileId, organizationId: row.organizationId, laboratory: row.notice.laboratory, specimenId: row.notice.specimenId }, { candidateMatchId: row.id, ...decision });
    return row;
  });
}
