import type { HitStatus } from '../../core/schemas/hits';
import type { Verb } from '../../core/permissions';
import { resetNeedsReason, RETRACTION_REASON_REQUIRED } from '../../core/hit-retraction';

/** What a reviewer does to a hit (ARCHITECTURE.md "States not shown in the spec"). */
export type HitAction = 'publish' | 'reject' | 'reset';

interface Transition {
  from: readonly HitStatus[];
  to: HitStatus;
  /** The Hits right it needs (spec 6: publishing and rejecting need Publish, reset needs Reset). */
  verb: Extract<Verb, 'Publish' | 'Reset'>;
  /** The audit trail's action name. */
  audited: string;
}

/** The whole hit workflow: any transition not in this table is refused (409). */
export const HIT_TRANSITIONS: Readonly<Record<HitAction, Transition>> = {
  publish: { from: ['pending'], to: 'published', verb: 'Publish', audited: 'Published' },
  reject: { from: ['pending'], to: 'rejected', verb: 'Publish', audited: 'Rejected' },
  reset: { from: ['published', 'rejected'], to: 'pending', verb: 'Reset', audited: 'Reset' },
};

/** Where the action takes the hit, or why not; an invalid one names the body's field that lacks the reason. */
export type TransitionPlan = { ok: true; to: HitStatus } | { ok: false; kind: 'conflict'; message: string } | { ok: false; kind: 'invalid'; field: 'reason' | 'comments'; message: string };

const PAST: Record<HitAction, string> = { publish: 'published', reject: 'rejected', reset: 'reset' };

/**
 * Where `action` takes a hit in `status`, or why it cannot: another state (conflict, e.g. a second
 * reviewer publishing a hit just rejected), or a rejection or a retraction (reset of a published hit) without a
 * reason (invalid).
 */
export function planHitTransition(status: HitStatus, action: HitAction, comments: string): TransitionPlan {
  const t = HIT_TRANSITIONS[action];
  if (!t.from.includes(status)) {
    return { ok: false, kind: 'conflict', message: `This hit is ${status}; only a ${t.from.join(' or ')} hit can be ${PAST[action]}.` };
  }
  if (action === 'reject' && comments.trim() === '') return { ok: false, kind: 'invalid', field: 'reason', message: 'A rejection needs a reason' };
  if (action === 'reset' && resetNeedsReason(status) && comments.trim() === '') return { ok: false, kind: 'invalid', field: 'comments', message: RETRACTION_REASON_REQUIRED };
  return { ok: true, to: t.to };
}
