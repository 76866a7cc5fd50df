import type { Hit } from '../../core/schemas/hits';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { hitHistory, hits } from '../db/schema';
import { BadRequest, Conflict } from '../errors';
import { updateVersioned } from '../db/versioned';
import { queueHitPublishedMail } from '../mail/hit-published-mail';
import { queueHitRetractedMail } from '../mail/hit-retracted-mail';
import { HIT_TRANSITIONS, planHitTransition, type HitAction } from './hit-workflow';

/** A reviewer's decision on a hit, carrying the version they saw. */
export interface HitDecision {
  action: HitAction;
  version: number;
  /** Publish or reset comments, or the rejection reason; the reason of a reset of a published hit (a retraction). */
  comments: string;
  /** Publish only: e-mail the case's assigned users. */
  notify?: boolean;
}

/**
 * Moves a hit through the workflow in one transaction: the versioned update (409 when stale), the
 * history row, the audit row and the e-mails in the outbox: on publish with notify, to the case's assigned users;
 * on the reset of a published hit (a retraction), to whoever that publication notified. A state the action does not
 * leave from is 409; a rejection or a retraction without a reason is 400 naming the field. Returns how many e-mails
 * were queued.
 */
export async function decideHit(db: Db, clock: Clock, actor: AuditActor, hit: Hit, decision: HitDecision, opts: { publicUrl: string }): Promise<{ queued: number }> {
  const plan = planHitTransition(hit.status, decision.action, decision.comments);
  if (!plan.ok) throw plan.kind === 'conflict' ? new Conflict(plan.message) : new BadRequest(plan.message, [{ path: `/${plan.field}`, message: plan.message }]);
  const notify = decision.action === 'publish' && decision.notify === true;
  const retraction = decision.action === 'reset' && hit.status === 'published';
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const after = await updateVersioned(t, hits, hit.id, decision.version, { status: plan.to, comments: decision.comments }, 'hit');
    const at = clock.now();
    const caseIds = [...new Set(hit.profiles.map((p) => p.caseId))];
    // Before this reset's history row: the retraction reads the latest publication's.
    const retracted = retraction
      ? await queueHitRetractedMail(
          t,
          {
            hitId: hit.id,
            organizationId: hit.organizationId,
            caseIds,
            caseNumbers: [...new Set(hit.profiles.map((p) => p.caseNumber))],
            profiles: hit.profiles.map((p) => `${p.role}: ${p.sampleName}`),
            analysis: hit.analysisName,
            probability: hit.probability,
            retractedBy: actor.name,
            reason: decision.comments.trim(),
          },
          { publicUrl: opts.publicUrl, at },
        )
      : 0;
    await t.insert(hitHistory).values({ hitId: hit.id, fromStatus: hit.status, toStatus: plan.to, userId: actor.id, userName: actor.name, at, comments: decision.comments, notified: notify || retracted > 0 });
    // The case of the hit's own organization's profile, so the decision shows in that case's audit tab.
    const caseId = hit.profiles.find((p) => p.organizationId === hit.organizationId)?.caseId ?? null;
    await appendAudit(t, actor, clock, {
      entity: 'Hit',
      entityId: hit.id,
      action: HIT_TRANSITIONS[decision.action].audited,
      caseId,
      organizationId: hit.organizationId,
      before: { status: hit.status, version: hit.version, comments: hit.comments },
      after: { status: after.status, version: after.version, comments: after.comments, ...(decision.action === 'publish' ? { notify } : retraction ? { notify: retracted > 0 } : {}) },
    });
    if (!notify) return { queued: retracted };
    const queued = await queueHitPublishedMail(
      t,
      {
        hitId: hit.id,
        organizationId: hit.organizationId,
        caseIds,
        analysis: hit.analysisName,
        probability: hit.probability,
        publishedBy: actor.name,
        comments: decision.comments,
      },
      { publicUrl: opts.publicUrl, at },
    );
    return { queued };
  });
}
