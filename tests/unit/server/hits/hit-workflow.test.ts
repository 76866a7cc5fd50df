import { describe, expect, it } from 'vitest';
import { HIT_STATUSES, type HitStatus } from '../../../../core/schemas/hits';
import { RETRACTION_REASON_REQUIRED } from '../../../../core/hit-retraction';
import { HIT_TRANSITIONS, planHitTransition, type HitAction } from '../../../../server/hits/hit-workflow';

// ARCHITECTURE.md "States": pending → published | rejected (Hits Publish); published | rejected → pending (Hits Reset).
const ALLOWED: Record<HitAction, Partial<Record<HitStatus, HitStatus>>> = {
  publish: { pending: 'published' },
  reject: { pending: 'rejected' },
  reset: { published: 'pending', rejected: 'pending' },
};

describe('the hit workflow', () => {
  for (const action of Object.keys(ALLOWED) as HitAction[]) {
    for (const status of HIT_STATUSES) {
      const to = ALLOWED[action][status];
      if (to) {
        it(`${action} takes a ${status} hit to ${to}`, () => {
          expect(planHitTransition(status, action, 'a reason')).toEqual({ ok: true, to });
        });
      } else {
        it(`refuses to ${action} a ${status} hit (409)`, () => {
          const plan = planHitTransition(status, action, 'a reason');
          expect(plan).toMatchObject({ ok: false, kind: 'conflict' });
          expect(!plan.ok && plan.message).toMatch(new RegExp(`^This hit is ${status}; only a`));
        });
      }
    }
  }

  it('requires a reason to reject and to reset a published hit (a retraction), but no comments to publish or to reset a rejected hit', () => {
    expect(planHitTransition('pending', 'reject', ' \n')).toEqual({ ok: false, kind: 'invalid', field: 'reason', message: 'A rejection needs a reason' });
    expect(planHitTransition('published', 'reset', ' ')).toEqual({ ok: false, kind: 'invalid', field: 'comments', message: RETRACTION_REASON_REQUIRED });
    expect(planHitTransition('published', 'reset', 'Wrong reference')).toEqual({ ok: true, to: 'pending' });
    expect(planHitTransition('pending', 'publish', '')).toEqual({ ok: true, to: 'published' });
    expect(planHitTransition('rejected', 'reset', '')).toEqual({ ok: true, to: 'pending' });
  });

  it('needs Hits Publish to publish or reject and Hits Reset to reset (spec 6)', () => {
    expect([HIT_TRANSITIONS.publish.verb, HIT_TRANSITIONS.reject.verb, HIT_TRANSITIONS.reset.verb]).toEqual(['Publish', 'Publish', 'Reset']);
  });
});
