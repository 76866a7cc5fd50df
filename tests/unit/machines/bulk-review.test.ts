import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition, waitFor, type StateValue } from 'xstate';
import { BULK_REVIEW_LIMIT, type BulkReviewResult } from '../../../core/schemas/bulk-review';
import {
  decisionReady,
  describeOutcome,
  hitBulkReview,
  profileBulkReview,
  type BulkRequest,
  type BulkReviewContext,
  type BulkSelected,
  type ProfileBulkAction,
} from '../../../machines/bulkReview.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const machine = profileBulkReview.machine;
const row = (n: number, version = 2): BulkSelected => ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, version, label: `P-${n}` });
const [p1, p2, p3] = [row(1), row(2), row(3)];
const both: ProfileBulkAction[] = ['approve', 'reject'];

/** A snapshot in `value` with `context`, without running any actor. */
function at(value: StateValue, context: Partial<BulkReviewContext<ProfileBulkAction>> = {}) {
  return machine.resolveState({ value, context: { allowed: both, selected: [], decision: null, sent: [], outcome: null, error: null, ...context } });
}
const toggle = (record: BulkSelected) => ({ type: 'selection.toggle', record }) as const;

const result = (outcomes: [BulkSelected, 'done' | 'refused', string][]): BulkReviewResult => ({
  done: outcomes.filter(([, o]) => o === 'done').length,
  refused: outcomes.filter(([, o]) => o === 'refused').length,
  results: outcomes.map(([r, outcome, message]) => ({ id: r.id, outcome, status: outcome === 'done' ? 200 : 403, message })),
});

describe('bulkReview machine: selection', () => {
  it('starts idle with nothing selected', () => {
    const [snapshot] = initialTransition(machine, { allowed: both });
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ allowed: both, selected: [], decision: null, sent: [], outcome: null, error: null });
  });

  it('selects and unselects rows, and clears the selection', () => {
    let [s] = transition(machine, at('idle'), toggle(p1));
    [s] = transition(machine, s, toggle(p2));
    expect(s.context.selected).toEqual([p1, p2]);
    [s] = transition(machine, s, toggle(p1));
    expect(s.context.selected).toEqual([p2]);
    [s] = transition(machine, s, { type: 'selection.clear' });
    expect(s.context.selected).toEqual([]);
  });

  it(`selects at most ${BULK_REVIEW_LIMIT} rows (the server's limit) but always lets one go`, () => {
    const full = Array.from({ length: BULK_REVIEW_LIMIT }, (_, i) => row(i + 10));
    const snapshot = at('idle', { selected: full });
    expect(snapshot.can(toggle(p1))).toBe(false);
    expect(transition(machine, snapshot, toggle(full[0]!))[0].context.selected).toHaveLength(BULK_REVIEW_LIMIT - 1);
  });

  it('selects nothing for a user who may decide nothing', () => {
    expect(at('idle', { allowed: [] }).can(toggle(p1))).toBe(false);
  });
});

describe('bulkReview machine: deciding', () => {
  it('asks for confirmation of an allowed decision once rows are selected, and not before', () => {
    expect(at('idle').can({ type: 'bulk.start', action: 'approve' })).toBe(false);
    expect(at('idle', { selected: [p1], allowed: ['approve'] }).can({ type: 'bulk.start', action: 'reject' })).toBe(false);
    const [s] = transition(machine, at('idle', { selected: [p1, p2] }), { type: 'bulk.start', action: 'approve' });
    expect(s.value).toBe('confirming');
    expect(s.context.decision).toEqual({ action: 'approve', text: '', notify: true });
  });

  it('holds the text and the notify choice; a rejection waits for a reason, blanks refused', () => {
    let [s] = transition(machine, at('idle', { selected: [p1] }), { type: 'bulk.start', action: 'reject' });
    expect(s.can({ type: 'bulk.confirm' })).toBe(false);
    [s] = transition(machine, s, { type: 'text.change', text: '   ' });
    expect(s.can({ type: 'bulk.confirm' })).toBe(false);
    [s] = transition(machine, s, { type: 'text.change', text: 'Contaminated run' });
    [s] = transition(machine, s, { type: 'notify.change', notify: false });
    expect(s.context.decision).toEqual({ action: 'reject', text: 'Contaminated run', notify: false });
    expect(s.can({ type: 'bulk.confirm' })).toBe(true);
    // An approval needs no text.
    expect(at('confirming', { selected: [p1], decision: { action: 'approve', text: '', notify: true } }).can({ type: 'bulk.confirm' })).toBe(true);
  });

  it('cancels back to the selection, which is kept', () => {
    const [s] = transition(machine, at('confirming', { selected: [p1], decision: { action: 'approve', text: '', notify: true } }), { type: 'bulk.cancel' });
    expect(s.value).toBe('idle');
    expect(s.context).toMatchObject({ selected: [p1], decision: null });
  });

  it('keeps the selection still while confirming and sending', () => {
    for (const value of ['confirming', 'submitting']) expect(at(value, { selected: [p1], decision: { action: 'approve', text: '', notify: true } }).can(toggle(p2)), value).toBe(false);
  });

  it('sends the selected records with their versions, then shows each one’s outcome and empties the selection', async () => {
    const sent: BulkRequest<ProfileBulkAction>[] = [];
    const logic = profileBulkReview.withCall(async (request) => {
      sent.push(request);
      return result([
        [p1, 'done', 'Approved'],
        [p2, 'refused', 'Four-eyes review: you entered or imported profile P-2, so another person must approve it.'],
        [p3, 'done', 'Approved'],
      ]);
    });
    const actor = createActor(logic, { input: { allowed: both } }).start();
    for (const r of [p1, p2, p3]) actor.send(toggle(r));
    actor.send({ type: 'bulk.start', action: 'approve' });
    actor.send({ type: 'text.change', text: 'Batch checked' });
    actor.send({ type: 'bulk.confirm' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const done = await waitFor(actor, (s) => s.matches('idle'));
    expect(sent).toEqual([{ action: 'approve', text: 'Batch checked', notify: true, items: [p1, p2, p3].map(({ id, version }) => ({ id, version })) }]);
    expect(done.context.selected).toEqual([]);
    expect(describeOutcome(profileBulkReview.rules, done.context)).toEqual({
      summary: '2 approved; 1 refused.',
      refused: [{ id: p2.id, label: 'P-2', message: 'Four-eyes review: you entered or imported profile P-2, so another person must approve it.' }],
    });
    actor.send({ type: 'outcome.dismiss' });
    expect(actor.getSnapshot().context.outcome).toBeNull();
  });

  it('keeps the decision after a failed call, to send again or drop', async () => {
    let calls = 0;
    const logic = hitBulkReview.withCall(async () => {
      calls += 1;
      if (calls === 1) throw { status: 0 };
      return result([[p1, 'done', 'Published']]);
    });
    const actor = createActor(logic, { input: { allowed: ['publish', 'reject'] } }).start();
    actor.send(toggle(p1));
    actor.send({ type: 'bulk.start', action: 'publish' });
    actor.send({ type: 'bulk.confirm' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    expect(failed.context.decision).toMatchObject({ action: 'publish' });
    actor.send({ type: 'bulk.retry' });
    const done = await waitFor(actor, (s) => s.matches('idle'));
    expect(describeOutcome(hitBulkReview.rules, done.context)?.summary).toBe('1 published.');
    const [dropped] = transition(machine, at('failed', { selected: [p1], decision: { action: 'approve', text: '', notify: true }, error: { status: 0, message: GENERIC_FAILURE } }), { type: 'failure.dismiss' });
    expect(dropped.value).toBe('idle');
    expect(dropped.context).toMatchObject({ selected: [p1], decision: null, error: null });
  });
});

describe('describeOutcome and decisionReady', () => {
  it('says when nothing was decided, and names records by the label they were selected with', () => {
    expect(describeOutcome(profileBulkReview.rules, { outcome: null, sent: [] })).toBeNull();
    const outcome = describeOutcome(hitBulkReview.rules, { outcome: { action: 'reject', result: result([[p1, 'refused', 'This hit is published; only a pending hit can be rejected.']]) }, sent: [p1] });
    expect(outcome).toEqual({ summary: 'None rejected; 1 refused.', refused: [{ id: p1.id, label: 'P-1', message: 'This hit is published; only a pending hit can be rejected.' }] });
  });

  it('is ready for a rejection only with a reason', () => {
    expect(decisionReady(hitBulkReview.rules, null)).toBe(false);
    expect(decisionReady(hitBulkReview.rules, { action: 'reject', text: ' ', notify: true })).toBe(false);
    expect(decisionReady(hitBulkReview.rules, { action: 'reject', text: 'Relatives', notify: true })).toBe(true);
    expect(decisionReady(hitBulkReview.rules, { action: 'publish', text: '', notify: false })).toBe(true);
  });
});
