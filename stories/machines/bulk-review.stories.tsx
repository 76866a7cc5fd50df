/**
 * Every state of the bulk review (issue 18) a reviewer can reach, drawn by the real view (BulkReviewView) from a
 * resolved snapshot of the profiles' machine, over a small list of rows. "Interactive" runs the machine with a
 * fake call: selected rows whose name contains "OWN" are refused (four-eyes review), the others approved or
 * rejected; a reason containing "fail" makes the whole call fail.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import type { StateValue } from 'xstate';
import type { BulkReviewResult } from '../../core/schemas/bulk-review';
import { profileBulkReview, type BulkReviewContext, type BulkReviewEvent, type BulkSelected, type ProfileBulkAction } from '../../machines/bulkReview.machine';
import { BulkReviewView, type BulkActionText, type BulkReviewSnapshot } from '../../src/ui/bulk-review/bulk-review';

const ROWS: BulkSelected[] = ['OSLO-1', 'OSLO-2', 'OSLO-OWN-3', 'OSLO-4'].map((name, i) => ({ id: `00000000-0000-4000-8000-00000000000${i + 1}`, version: 2, label: `${name} (2026-0100)` }));
const [r1, r2, r3] = ROWS as [BulkSelected, BulkSelected, BulkSelected];
const FOUR_EYES = 'Four-eyes review: you entered or imported profile OSLO-OWN-3, so another person must approve it.';
const ACTIONS: Record<ProfileBulkAction, BulkActionText> = {
  approve: { button: 'Approve', consequence: 'Each profile is approved with its marker values exactly as stored: they are not confirmed marker by marker here.' },
  reject: { button: 'Reject', consequence: 'Each profile is rejected with the reason below, and stays out of every search.' },
};
const base: BulkReviewContext<ProfileBulkAction> = { allowed: ['approve', 'reject'], selected: [], decision: null, sent: [], outcome: null, error: null };

const outcomeOf = (records: BulkSelected[]): BulkReviewResult => {
  const results = records.map((r) =>
    r.label.includes('OWN') ? { id: r.id, outcome: 'refused' as const, status: 403, message: FOUR_EYES } : { id: r.id, outcome: 'done' as const, status: 200, message: 'Approved' },
  );
  const refused = results.filter((r) => r.outcome === 'refused').length;
  return { done: results.length - refused, refused, results };
};

/** The review list the bar stands over: each row's checkbox follows the selection. */
function Rows({ snapshot, send }: { snapshot: BulkReviewSnapshot<ProfileBulkAction>; send(event: BulkReviewEvent<ProfileBulkAction>): void }) {
  const { selected, allowed } = snapshot.context;
  return (
    <ul style={{ listStyle: 'none', padding: 0 }}>
      {ROWS.map((row) => (
        <li key={row.id}>
          <label>
            {allowed.length > 0 ? (
              <input type="checkbox" checked={selected.some((s) => s.id === row.id)} disabled={!snapshot.matches('idle')} onChange={() => send({ type: 'selection.toggle', record: row })} />
            ) : null}{' '}
            {row.label}
          </label>
        </li>
      ))}
    </ul>
  );
}

function Screen({ snapshot, send }: { snapshot: BulkReviewSnapshot<ProfileBulkAction>; send(event: BulkReviewEvent<ProfileBulkAction>): void }) {
  return (
    <section className="page" style={{ margin: '1rem' }}>
      <h1>Profiles waiting for review</h1>
      <BulkReviewView snapshot={snapshot} send={send} rules={profileBulkReview.rules} actions={ACTIONS} noun={{ one: 'profile', many: 'profiles' }}>
        <Rows snapshot={snapshot} send={send} />
      </BulkReviewView>
    </section>
  );
}

/** The view in one state of the machine; events go nowhere (see Interactive). */
function BulkReviewState({ value, context }: { value: StateValue; context: Partial<BulkReviewContext<ProfileBulkAction>> }) {
  const snapshot = useMemo(() => profileBulkReview.machine.resolveState({ value, context: { ...base, ...context } }), [value, context]);
  return <Screen snapshot={snapshot} send={() => undefined} />;
}

/** The machine running with a fake call. */
function InteractiveBulkReview() {
  const logic = useMemo(
    () =>
      profileBulkReview.withCall(async (request) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        if (request.text.includes('fail')) throw { status: 0 };
        return outcomeOf(ROWS.filter((r) => request.items.some((i) => i.id === r.id)));
      }),
    [],
  );
  const [snapshot, send] = useMachine(logic, { input: { allowed: ['approve', 'reject'] } });
  return <Screen snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Bulk review', component: BulkReviewState, args: { context: {} } } satisfies Meta<typeof BulkReviewState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle, nothing selected: the rows' checkboxes, no bar. */
export const NothingSelected: Story = { args: { value: 'idle' } };
/** idle, for a user who may decide nothing: no checkboxes. */
export const ReadOnly: Story = { args: { value: 'idle', context: { allowed: [] } } };
/** idle with rows selected: "3 selected", Approve, Reject, Clear selection. */
export const Selected: Story = { args: { value: 'idle', context: { selected: [r1, r2, r3] } } };
/** confirming an approval: the records listed, the stored values stated, comments optional. */
export const ConfirmingApprove: Story = { args: { value: 'confirming', context: { selected: [r1, r2, r3], decision: { action: 'approve', text: '', notify: true } } } };
/** confirming a rejection without a reason yet: Reject waits for it. */
export const ConfirmingRejectNoReason: Story = { args: { value: 'confirming', context: { selected: [r1, r2], decision: { action: 'reject', text: '', notify: true } } } };
/** confirming a rejection with its reason. */
export const ConfirmingReject: Story = { args: { value: 'confirming', context: { selected: [r1, r2], decision: { action: 'reject', text: 'Contaminated run', notify: true } } } };
/** submitting: the call is deciding each record. */
export const Submitting: Story = { args: { value: 'submitting', context: { selected: [r1, r2, r3], sent: [r1, r2, r3], decision: { action: 'approve', text: '', notify: true } } } };
/** idle after a call where every record was decided. */
export const AllDecided: Story = { args: { value: 'idle', context: { sent: [r1, r2], outcome: { action: 'approve', result: outcomeOf([r1, r2]) } } } };
/** idle after a call where one record was refused, named with the reason. */
export const SomeRefused: Story = { args: { value: 'idle', context: { sent: [r1, r2, r3], outcome: { action: 'approve', result: outcomeOf([r1, r2, r3]) } } } };
/** failed: the call failed as a whole; try again or dismiss. */
export const Failed: Story = {
  args: { value: 'failed', context: { selected: [r1, r2], sent: [r1, r2], decision: { action: 'reject', text: 'fail', notify: true }, error: { status: 0, message: 'Your request failed. Please try again later.' } } },
};

export const Interactive: Story = { args: { value: 'idle' }, render: () => <InteractiveBulkReview /> };
