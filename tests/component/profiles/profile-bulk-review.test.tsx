import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import { addProfile, call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

// AG Grid's first block arrives a moment after it mounts; jsdom on a busy machine is slow.
vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
const added: Record<string, Profile> = {};

beforeAll(async () => {
  w = await createProfileWorld();
  for (const name of ['BULK-1', 'BULK-2', 'BULK-3', 'BULK-4', 'BULK-5']) added[name] = await addProfile(w, name);
}, 60_000);
afterAll(() => w.t.close());

const select = (name: string) => userEvent.click(screen.getByRole('checkbox', { name: `Select ${name} (2026-0100)` }));
const bar = () => screen.getByRole('region', { name: 'Selected profiles' });

describe('bulk review of profiles', () => {
  it('approves the selected profiles with their stored values after a confirmation, and names the one refused', async () => {
    const view = await openAs(w, 'reviewer', `/${w.orgId}/profiles/review`);
    expect(await screen.findByText('BULK-1', {}, { timeout: 8000 })).toBeInTheDocument();
    await select('BULK-1');
    await select('BULK-2');
    await select('BULK-3');
    // A checkbox selects; it does not open the profile.
    expect(view.current()).toBe(`/${w.orgId}/profiles/review`);
    expect(within(bar()).getByText('3 selected')).toBeInTheDocument();
    // Meanwhile someone else rejects BULK-3.
    await call(w, 'admin', 'POST', `/api/profiles/${added['BULK-3']!.id}/reject`, { reason: 'Duplicate', version: added['BULK-3']!.version });

    await userEvent.click(within(bar()).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve 3 profiles?' });
    expect(within(dialog).getByText(/approved with its marker values exactly as stored/)).toBeInTheDocument();
    expect(within(within(dialog).getByRole('list', { name: 'The profiles to decide' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'BULK-1 (2026-0100)',
      'BULK-2 (2026-0100)',
      'BULK-3 (2026-0100)',
    ]);
    await userEvent.type(within(dialog).getByLabelText('Comments'), 'Batch checked');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve 3 profiles' }));

    const outcome = await screen.findByText('2 approved; 1 refused.', {}, { timeout: 8000 });
    expect(outcome.closest('[role="status"]')).toHaveTextContent('BULK-3 (2026-0100): Profile BULK-3 is rejected; only a pending profile can be approved.');
    // The list is read again: the approved ones have left it.
    await waitFor(() => expect(screen.queryByText('BULK-1')).not.toBeInTheDocument());
    expect(screen.getByText('BULK-4')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selected profiles' })).not.toBeInTheDocument();
    const stored = await call<Profile>(w, 'admin', 'GET', `/api/profiles/${added['BULK-1']!.id}`);
    expect(stored).toMatchObject({ status: 'approved', reviewComments: 'Batch checked' });
  });

  it('rejects only with a reason, and Cancel keeps the selection', async () => {
    await openAs(w, 'reviewer', `/${w.orgId}/profiles/review`);
    expect(await screen.findByText('BULK-4', {}, { timeout: 8000 })).toBeInTheDocument();
    await select('BULK-4');
    await select('BULK-5');
    await userEvent.click(within(bar()).getByRole('button', { name: 'Reject' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Reject 2 profiles?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(bar()).getByText('2 selected')).toBeInTheDocument();

    await userEvent.click(within(bar()).getByRole('button', { name: 'Reject' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Reject 2 profiles?' });
    const confirm = within(dialog).getByRole('button', { name: 'Reject 2 profiles' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Reason (required)'), 'Contaminated run');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    expect(await screen.findByText('2 rejected.', {}, { timeout: 8000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No profile is waiting for review.')).toBeInTheDocument());
  });

  it('offers no selection without Profiles Edit, nor on the Profiles list', async () => {
    await addProfile(w, 'BULK-6');
    const reader = await openAs(w, 'reader', `/${w.orgId}/profiles/review`);
    expect(await screen.findByText('BULK-6', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Select' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    reader.unmount();
    await openAs(w, 'reviewer', `/${w.orgId}/profiles`);
    expect(await screen.findByText('BULK-6', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });
});
