import { inArray } from 'drizzle-orm';
import { CandidateMatchNotices, type CandidateMatchNotice } from '../../core/schemas/candidate-matches';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { candidateMatches, profiles } from '../db/schema';
import { NOTICE_PAGE } from './candidate-match-notices';
import { forgetUpperToken, upperToken, type UpperCredentials } from './upper-instance';

/** The trail's name for this instance's own fetches (no person acts). */
const INSTANCE_ACTOR: AuditActor = { id: null, name: 'Candidate matches from the upper instance' };
/** Pages per round: a backlog larger than this waits for the next round. */
const MAX_PAGES = 50;
const TIMEOUT_MS = 60_000;

/** Stores the notices whose profile is still here, once each (by the notice's id); returns the organizations that got new ones. */
async function store(db: Db, clock: Clock, upperUrl: string, notices: readonly CandidateMatchNotice[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const owners = new Map((await t.select({ id: profiles.id, organizationId: profiles.organizationId, caseId: profiles.caseId }).from(profiles).where(inArray(profiles.id, notices.map((n) => n.profileId)))).map((p) => [p.id, p]));
    // A profile deleted here since its upload: its deletion travels up, the match has no one to review it.
    const kept = notices.filter((n) => owners.has(n.profileId));
    if (kept.length === 0) return [];
    const added = await t
      .insert(candidateMatches)
      .values(kept.map((n) => ({ id: n.id, organizationId: owners.get(n.profileId)!.organizationId, profileId: n.profileId, upperInstance: upperUrl, notice: n })))
      .onConflictDoNothing({ target: candidateMatches.id })
      .returning();
    await appendAudit(
      t,
      INSTANCE_ACTOR,
      clock,
      ...added.map((m) => ({
        entity: 'CandidateMatch',
        entityId: m.id,
        action: 'Received from the upper instance',
        organizationId: m.organizationId,
        caseId: owners.get(m.profileId)!.caseId,
        after: { upperInstance: upperUrl, specimenId: m.notice.specimenId, counterparts: m.notice.counterparts, analysis: m.notice.analysis },
      })),
    );
    return [...new Set(added.map((m) => m.organizationId))];
  });
}

/**
 * Pulls the candidate matches the upper instance sent down (issue 32) with this instance's client credentials:
 * GET its undelivered notices, store each once (by id) in one transaction, then tell it which were stored; a notice
 * whose acknowledgement is lost comes again and is not stored twice. Returns the organizations that got new ones.
 */
export async function fetchCandidateMatches(db: Db, clock: Clock, credentials: UpperCredentials, fetcher: typeof fetch = fetch): Promise<string[]> {
  const base = credentials.url.replace(/\/+$/, '');
  const token = await upperToken(credentials, fetcher);
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const changed = new Set<string>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await fetcher(`${base}/api/network/candidate-matches`, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (answer.status === 401) forgetUpperToken(credentials);
    const parsed = CandidateMatchNotices.safeParse(await answer.json().catch(() => null));
    if (!answer.ok || !parsed.success) throw new Error(`${base} answered GET /api/network/candidate-matches with HTTP ${answer.status} but not as a Locus upper instance`);
    const notices = parsed.data.items;
    if (notices.length === 0) break;
    for (const organizationId of await store(db, clock, base, notices)) changed.add(organizationId);
    const received = await fetcher(`${base}/api/network/candidate-matches/received`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ ids: notices.map((n) => n.id) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!received.ok) throw new Error(`${base} did not take the acknowledgement of its candidate matches (HTTP ${received.status})`);
    if (notices.length < NOTICE_PAGE) break;
  }
  return [...changed];
}
