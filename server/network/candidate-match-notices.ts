import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { CandidateDecision, CandidateMatchNotice } from '../../core/schemas/candidate-matches';
import type { MatchKind } from '../../core/schemas/hit-figures';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { analyses, candidateMatchNotices, heldProfiles, hitProfiles, instanceSettings, lowerInstances, organizations, profiles } from '../db/schema';
import type { HitRow } from '../hits/record-hits';

/** Notices per fetch: a page of the lower instance's GET. */
export const NOTICE_PAGE = 100;

/** The hits' profiles with, for a held one, its origin (lower instance, specimen id there). */
async function hitMembers(tx: Db, hitIds: readonly string[]) {
  return tx
    .select({
      hitId: hitProfiles.hitId,
      profileId: profiles.id,
      sampleName: profiles.profileId,
      organizationId: profiles.organizationId,
      laboratory: organizations.name,
      lowerInstanceId: heldProfiles.lowerInstanceId,
      instance: lowerInstances.name,
      originProfileId: heldProfiles.originProfileId,
      specimenId: heldProfiles.specimenId,
    })
    .from(hitProfiles)
    .innerJoin(profiles, eq(profiles.id, hitProfiles.profileId))
    .innerJoin(organizations, eq(organizations.id, profiles.organizationId))
    .leftJoin(heldProfiles, eq(heldProfiles.profileId, profiles.id))
    .leftJoin(lowerInstances, eq(lowerInstances.id, heldProfiles.lowerInstanceId))
    .where(inArray(hitProfiles.hitId, [...hitIds]))
    .orderBy(asc(hitProfiles.hitId), asc(hitProfiles.position));
}

/**
 * Tells each laboratory held here whose profile is in one of these new hits (issue 32, as CODIS sends candidate
 * matches down): one notice per held profile of a hit, in the hit's transaction, carrying only what the match needs
 * (the other side's specimen id, laboratory and instance, the analysis, stringency and statistics). Returns how many.
 */
export async function noticeCandidateMatches(tx: Db, added: readonly HitRow[]): Promise<number> {
  if (added.length === 0) return 0;
  const members = await hitMembers(tx, added.map((h) => h.id));
  if (!members.some((m) => m.lowerInstanceId !== null)) return 0;
  const [settings] = await tx.select({ name: instanceSettings.name }).from(instanceSettings);
  const here = settings?.name || 'the upper instance';
  const names = new Map((await tx.select({ id: analyses.id, name: analyses.name }).from(analyses).where(inArray(analyses.id, [...new Set(added.map((h) => h.analysisId))]))).map((a) => [a.id, a.name]));
  const rows: (typeof candidateMatchNotices.$inferInsert)[] = [];
  for (const hit of added) {
    const inHit = members.filter((m) => m.hitId === hit.id);
    for (const own of inHit) {
      if (own.lowerInstanceId === null || own.originProfileId === null || own.specimenId === null) continue;
      const notice: Omit<CandidateMatchNotice, 'id'> = {
        profileId: own.originProfileId,
        specimenId: own.specimenId,
        laboratory: own.laboratory,
        counterparts: inHit.filter((m) => m !== own).map((m) => ({ specimenId: m.specimenId ?? m.sampleName, laboratory: m.laboratory, instance: m.instance ?? here })),
        analysis: names.get(hit.analysisId) ?? '',
        matchKind: hit.matchKind as MatchKind,
        stringency: hit.figures?.stringency ?? null,
        statistics: (hit.figures?.populations ?? []).map((p) => ({ population: p.populationName, combinedIndex: p.combinedIndex, probability: p.probability, reported: p.reported })),
        foundAt: hit.createdAt.toISOString(),
      };
      rows.push({ hitId: hit.id, lowerInstanceId: own.lowerInstanceId, organizationId: own.organizationId, heldProfileId: own.profileId, notice: notice as CandidateMatchNotice, createdAt: hit.createdAt });
    }
  }
  if (rows.length === 0) return 0;
  const made = await tx.insert(candidateMatchNotices).values(rows).returning({ id: candidateMatchNotices.id });
  return made.length;
}

/** A lower instance's notices it has not yet said it stored, oldest first: the notice's id rides in it. */
export async function undeliveredNotices(db: Db, lowerInstanceId: string): Promise<CandidateMatchNotice[]> {
  const rows = await db
    .select({ id: candidateMatchNotices.id, notice: candidateMatchNotices.notice })
    .from(candidateMatchNotices)
    .where(and(eq(candidateMatchNotices.lowerInstanceId, lowerInstanceId), isNull(candidateMatchNotices.deliveredAt)))
    .orderBy(asc(candidateMatchNotices.id))
    .limit(NOTICE_PAGE);
  return rows.map((r) => ({ ...r.notice, id: r.id }));
}

/** Marks the notices the lower instance stored; another instance's ids are ignored. Returns how many were marked. */
export async function noticesReceived(db: Db, clock: Clock, lowerInstanceId: string, ids: readonly string[]): Promise<number> {
  const marked = await db
    .update(candidateMatchNotices)
    .set({ deliveredAt: clock.now() })
    .where(and(eq(candidateMatchNotices.lowerInstanceId, lowerInstanceId), inArray(candidateMatchNotices.id, [...ids]), isNull(candidateMatchNotices.deliveredAt)))
    .returning({ id: candidateMatchNotices.id });
  return marked.length;
}

/**
 * Records a laboratory's decision on a notice (a batch entry, in the batch's transaction) on the notice, and in this
 * level's trail under the held laboratory. The refusal's message when the notice is not this instance's; a decision
 * already recorded is not recorded again.
 */
export async function recordCandidateDecision(tx: Db, clock: Clock, actor: AuditActor, lowerInstanceId: string, decision: CandidateDecision): Promise<string | null> {
  const [notice] = await tx.select().from(candidateMatchNotices).where(and(eq(candidateMatchNotices.id, decision.candidateMatchId), eq(candidateMatchNotices.lowerInstanceId, lowerInstanceId)));
  if (!notice) return `Unknown candidate match ${decision.candidateMatchId}: this level sent no such match to this instance`;
  if (notice.status !== 'pending') return null;
  await tx.update(candidateMatchNotices).set({ status: decision.status, reason: decision.reason, decidedAt: clock.now() }).where(eq(candidateMatchNotices.id, notice.id));
  await appendAudit(tx, actor, clock, {
    entity: 'CandidateMatch',
    entityId: notice.id,
    action: decision.status === 'confirmed' ? 'Confirmed by the laboratory' : 'Rejected by the laboratory',
    organizationId: notice.organizationId,
    after: { hitId: notice.hitId, specimenId: notice.notice.specimenId, laboratory: notice.notice.laboratory, status: decision.status, reason: decision.reason },
  });
  return null;
}
