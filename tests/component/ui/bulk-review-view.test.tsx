/**
 * The bulk review's view in each state its stories draw (stories/machines/bulk-review.stories.tsx), as a reviewer
 * sees it: the bar, the confirmation, the outcome, the failure.
 */
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import meta, * as stories from '../../../stories/machines/bulk-review.stories';

type Named = Exclude<keyof typeof stories, 'default' | 'Interactive'>;
const Drawn = meta.component;
const draw = (name: Named) => render(<Drawn {...meta.args} {...(stories[name].args as { value: string })} />);

describe('bulk review view', () => {
  it('shows checkboxes but no bar until a row is selected, and none to a user who may decide nothing', () => {
    const { unmount } = draw('NothingSelected');
    expect(screen.getAllByRole('checkbox')).toHaveLength(4);
    expect(screen.queryByRole('region', { name: 'Selected profiles' })).toBeNull();
    unmount();
    draw('ReadOnly');
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('offers Approve, Reject and Clear selection over the selected rows', () => {
    draw('Selected');
    const bar = within(screen.getByRole('region', { name: 'Selected profiles' }));
    expect(bar.getByText('3 selected')).toBeInTheDocument();
    expect(bar.getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Reject', 'Clear selection']);
  });

  it('lists what will be approved and says the stored values are kept', () => {
    draw('ConfirmingApprove');
    const dialog = within(screen.getByRole('alertdialog', { name: 'Approve 3 profiles?' }));
    expect(dialog.getByText(/exactly as stored/)).toBeInTheDocument();
    expect(dialog.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['OSLO-1 (2026-0100)', 'OSLO-2 (2026-0100)', 'OSLO-OWN-3 (2026-0100)']);
    expect(dialog.getByRole('button', { name: 'Approve 3 profiles' })).toBeEnabled();
  });

  it('waits for a rejection’s reason', () => {
    const { unmount } = draw('ConfirmingRejectNoReason');
    expect(screen.getByRole('button', { name: 'Reject 2 profiles' })).toBeDisabled();
    expect(screen.getByLabelText('Reason (required)')).toHaveValue('');
    unmount();
    draw('ConfirmingReject');
    expect(screen.getByRole('button', { name: 'Reject 2 profiles' })).toBeEnabled();
  });

  it('is busy while submitting', () => {
    draw('Submitting');
    expect(screen.getByRole('button', { name: 'Approve 3 profiles' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });

  it('says how many were decided, and names each refused record with the reason', () => {
    const { unmount } = draw('AllDecided');
    expect(screen.getByRole('status')).toHaveTextContent('2 approved.');
    unmount();
    draw('SomeRefused');
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('2 approved; 1 refused.');
    expect(within(status).getByRole('listitem')).toHaveTextContent('OSLO-OWN-3 (2026-0100): Four-eyes review: you entered or imported profile OSLO-OWN-3, so another person must approve it.');
  });

  it('offers Try again and Dismiss when the call failed as a whole', () => {
    draw('Failed');
    const alert = within(screen.getByRole('alert'));
    expect(alert.getByText('The decision was not sent: Your request failed. Please try again later.')).toBeInTheDocument();
    expect(alert.getAllByRole('button').map((b) => b.textContent)).toEqual(['Try again', 'Dismiss']);
  });
});
