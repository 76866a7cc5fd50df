import { and, desc, eq, ilike, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { emailOutbox, hitHistory, users } from '../db/schema';
import { assignedRecipients, hitUrl, mailName, queueHitMail, type HitMailRecipient } from './hit-mail';

/** What the hit-retracted e-mail says about the hit. */
export interface RetractedHit {
  hitId: string;
  organizationId: string;
  caseIds: readonly string[];
  caseNumbers: readonly string[];
  /** Role and sample name of each profile, e.g. "Evidence: STAIN-12". */
  profiles: readonly string[];
  analysis: string;
  probability: string;
  retractedBy: string;
  reason: string;
}

/**
 * Who the hit's latest publication e-mailed: its hit-published e-mails (written with the publication's time and
 * naming the hit's link), each to a user not locked out since. A template an administrator stripped of the link
 * leaves them unknown: then the case's assigned users who receive notifications, as the publication chose them.
 */
async function notifiedOfPublication(tx: Db, hit: RetractedHit, publishedAt: Date): Promise<HitMailRecipient[]> {
  const rows = await tx
    .selectDistinct({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(emailOutbox)
    .innerJoin(users, sql`lower(${users.email}) = lower(${emailOutbox.to})`)
    .where(and(eq(emailOutbox.templateKey, 'hit-published'), eq(emailOutbox.createdAt, publishedAt), ilike(emailOutbox.text, `%${hit.hitId}%`), sql`${users.lockedAt} is null`))
    .orderBy(users.email);
  if (rows.length === 0) return assignedRecipients(tx, hit);
  return rows.map((u) => ({ email: u.email, name: mailName(u), caseNumbers: [...hit.caseNumbers] }));
}

/**
 * A published hit reset to pending (a retraction, issue 18): when its latest publication notified people, the
 * hit-retracted e-mail goes to them with who retracted it and why, in the reset's transaction. Call it before the
 * reset's history row is written. Returns how many were queued (none when the publication notified nobody).
 */
export async function queueHitRetractedMail(tx: Db, hit: RetractedHit, opts: { publicUrl: string; at: Date }): Promise<number> {
  const [publication] = await tx
    .select({ at: hitHistory.at, notified: hitHistory.notified })
    .from(hitHistory)
    .where(and(eq(hitHistory.hitId, hit.hitId), eq(hitHistory.toStatus, 'published')))
    .orderBy(desc(hitHistory.at), desc(hitHistory.id))
    .limit(1);
  if (!publication?.notified) return 0;
  const values = {
    hitUrl: hitUrl(opts.publicUrl, hit),
    profiles: hit.profiles.join(', '),
    analysis: hit.analysis,
    probability: hit.probability,
    retractedBy: hit.retractedBy,
    reason: hit.reason,
  };
  return queueHitMail(tx, 'hit-retracted', await notifiedOfPublication(tx, hit, publication.at), values, opts.at);
}
