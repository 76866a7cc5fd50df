import { and, eq } from 'drizzle-orm';
import type { ReleaseStatus } from '../../core/schemas/foreign-queries';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { onUniqueViolation } from '../db/errors';
import { foreignQueries, foreignQueryReleases, profiles } from '../db/schema';
import { Conflict, NotFound } from '../errors';
import type { ForeignSearchResult } from './foreign-query-search';

export type ForeignQueryRow = typeof foreignQueries.$inferSelect;
export type ReleaseRow = typeof foreignQueryReleases.$inferSelect;

/** A foreign query as received, before its answer. */
export interface ReceivedQuery {
  serviceClientId: string;
  reference: string;
  requestingCountry: string;
  requestingInstance: string;
  chemistryId: string;
  markerCount: number;
}

/**
 * Records a foreign query with its answer and, for a hit, one pending release request per candidate, all audited in
 * one transaction (issue 32). The trail names the sender and the answer, never the query's alleles; each request's row
 * is under its profile's organization, so that laboratory's trail shows it. A reference sent twice is a 409.
 */
export async function recordForeignQuery(db: Db, clock: Clock, actor: AuditActor, query: ReceivedQuery, result: ForeignSearchResult): Promise<ForeignQueryRow> {
  return onUniqueViolation(
    () =>
      db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [row] = await t.insert(foreignQueries).values({ ...query, stringency: result.stringency, candidateCount: result.candidateCount }).returning();
        const releases = result.candidates.length
          ? await t
              .insert(foreignQueryReleases)
              .values(result.candidates.map((c) => ({ foreignQueryId: row!.id, profileId: c.profileId, organizationId: c.organizationId })))
              .returning()
          : [];
        const { serviceClientId: _client, ...audited } = query;
        await appendAudit(
          t,
          actor,
          clock,
          { entity: 'ForeignQuery', entityId: row!.id, action: result.stringency ? 'Answered hit' : 'Answered no hit', after: { ...audited, stringency: result.stringency, candidateCount: result.candidateCount } },
          ...releases.map((r) => ({ entity: 'ReleaseRequest', entityId: r.id, action: 'Requested', organizationId: r.organizationId, after: { foreignQueryId: row!.id, reference: query.reference, profileId: r.profileId, status: 'pending' } })),
        );
        return row!;
      }),
    () => new Conflict(`A query with the reference "${query.reference}" was already sent: poll its answer, or send a new reference`),
  );
}

/** The decision on a release request: released, or refused with a reason. */
export type ReleaseDecision = { status: 'released' } | { status: 'refused'; reason: string };

/**
 * Releases a candidate's data to the foreign sender or refuses to, once (issue 32): a decided request, a stale version
 * or releasing a profile no longer approved is a 409; the decision, who made it and the reason are audited under the
 * profile's organization.
 */
export async function decideRelease(db: Db, clock: Clock, actor: AuditActor, request: ReleaseRow, decision: ReleaseDecision, version: number): Promise<ReleaseRow> {
  if (request.status !== 'pending') throw new Conflict(`This release request was already ${request.status}`);
  if (decision.status === 'released') {
    // A profile reset since the query is out of the database: its data are not released as a match.
    const [profile] = await db.select({ status: profiles.status }).from(profiles).where(eq(profiles.id, request.profileId));
    if (profile?.status !== 'approved') throw new Conflict('The profile is no longer approved (it was reset since the query): refuse the request instead');
  }
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const reason = decision.status === 'refused' ? decision.reason : null;
    const [row] = await t
      .update(foreignQueryReleases)
      .set({ status: decision.status, reason, decidedBy: actor.id, decidedAt: clock.now(), updatedAt: clock.now(), version: version + 1 })
      .where(and(eq(foreignQueryReleases.id, request.id), eq(foreignQueryReleases.version, version), eq(foreignQueryReleases.status, 'pending')))
      .returning();
    if (!row) throw new Conflict('This release request was changed by someone else: reload it');
    await appendAudit(t, actor, clock, {
      entity: 'ReleaseRequest',
      entityId: row.id,
      action: decision.status === 'released' ? 'Released' : 'Refused',
      organizationId: row.organizationId,
      before: { status: request.status },
      after: { status: row.status, reason, profileId: row.profileId },
    });
    return row;
  });
}

/** A release request by id; 404 when there is none. */
export async function findReleaseRequest(db: Db, id: string): Promise<ReleaseRow> {
  const [row] = await db.select().from(foreignQueryReleases).where(eq(foreignQueryReleases.id, id));
  if (!row) throw new NotFound(`No release request with id ${id}`);
  return row;
}

/** What the sender's answer sums the candidates' decisions up as: pending while any waits, released if any was. */
export function answerStatus(hit: boolean, statuses: readonly ReleaseStatus[]): 'no-hit' | ReleaseStatus {
  if (!hit) return 'no-hit';
  if (statuses.includes('pending')) return 'pending';
  return statuses.includes('released') ? 'released' : 'refused';
}
