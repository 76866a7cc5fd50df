import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addProfile, approve, call, createProfileWorld, openAs, type ProfileWorld, type Who } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
beforeAll(async () => {
  w = await createProfileWorld();
}, 60_000);
afterAll(() => w.t.close());

const viewOf = (who: Who, profile: { id: string; caseId: string }) => openAs(w, who, `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
const review = () => screen.queryByRole('region', { name: 'Review' });
/** The Review panel, once the profile and the user's rights are read. */
const reviewPanel = () => screen.findByRole('region', { name: 'Review' });
const confirmIn = async (name: string) => {
  const dialog = await screen.findByRole('alertdialog');
  await userEvent.click(within(dialog).getByRole('button', { name }));
};

describe('profile review', () => {
  it('approves a pending profile with its markers and comments; then only Reset is offered, to whoever may reset', async () => {
    const profile = await addProfile(w, 'APPROVE-1');
    const reviewer = await viewOf('reviewer', profile);
    expect(await screen.findByRole('heading', { name: 'Autosomal profile APPROVE-1' })).toBeInTheDocument();
    expect(within(await reviewPanel()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Reject']);
    await userEvent.type(screen.getByLabelText(/^Comments/), 'Peaks checked');
    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Comments: Peaks checked');
    await confirmIn('Approve');

    expect(await within(await reviewPanel()).findByText('Approved.')).toBeInTheDocument();
    expect(within(screen.getByText('Status').parentElement!).getByText('Approved')).toBeInTheDocument();
    expect(screen.getByText('Approval comments').nextElementSibling).toHaveTextContent('Peaks checked');
    expect(within(await reviewPanel()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Reset to pending', 'Reset and delete hits']);

    // Reset needs Profiles Reset: the analyst (Edit, no Reset) sees no review actions on an approved profile.
    reviewer.unmount();
    await viewOf('analyst', profile);
    await screen.findByRole('heading', { name: 'Autosomal profile APPROVE-1' });
    expect(review()).toBeNull();
  });

  it('rejects only with a reason; a reader sees no review actions', async () => {
    const profile = await addProfile(w, 'REJECT-1');
    const reader = await viewOf('reader', profile);
    await screen.findByRole('heading', { name: 'Autosomal profile REJECT-1' });
    expect(review()).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    reader.unmount();

    await viewOf('reviewer', profile);
    const reject = await screen.findByRole('button', { name: 'Reject' });
    expect(reject).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/^Comments/), 'Contaminated');
    await userEvent.click(reject);
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Reason: Contaminated');
    await confirmIn('Reject');
    expect(await within(await reviewPanel()).findByText('Rejected.')).toBeInTheDocument();
    expect(screen.getByText('Rejection reason').nextElementSibling).toHaveTextContent('Contaminated');

    // Reset and delete asks first, saying what it deletes.
    await userEvent.click(screen.getByRole('button', { name: 'Reset and delete hits' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('every hit that names it is deleted');
    await confirmIn('Reset and delete hits');
    expect(await within(await reviewPanel()).findByText('Reset and its hits deleted.')).toBeInTheDocument();
    expect(within(await reviewPanel()).getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Reject']);
  });

  it('says someone else changed the profile (409) and reloads it', async () => {
    const profile = await addProfile(w, 'RACE-1');
    await viewOf('reviewer', profile);
    await screen.findByRole('button', { name: 'Approve' });
    await approve(w, profile.id);
    await userEvent.click(screen.getByRole('button', { name: 'Approve' }));
    await confirmIn('Approve');
    expect(await screen.findByText(/Someone else changed this profile since you opened it/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(await screen.findByRole('button', { name: 'Reset to pending' })).toBeInTheDocument();
    expect(within(screen.getByText('Status').parentElement!).getByText('Approved')).toBeInTheDocument();
  });

  it('deletes after confirmation, and shows the server’s refusal for an approved profile', async () => {
    const approved = await addProfile(w, 'KEEP-1');
    await approve(w, approved.id);
    const first = await viewOf('analyst', approved);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await confirmIn('Delete');
    expect(await screen.findByText('Profile KEEP-1 is approved; reset it to pending before deleting it.')).toBeInTheDocument();
    first.unmount();

    const pending = await addProfile(w, 'DROP-1');
    const view = await viewOf('analyst', pending);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Delete profile DROP-1 of case 2026-0100?');
    await confirmIn('Delete');
    await waitFor(() => expect(view.current()).toBe(`/${w.orgId}/cases/${w.caseId}/profiles`));
    await expect(call(w, 'admin', 'GET', `/api/profiles/${pending.id}`)).rejects.toThrow(/404/);
  });
});
