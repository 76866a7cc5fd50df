import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addProfile, approve, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

// AG Grid's first block arrives a moment after it mounts; jsdom on a busy machine is slow.
vi.setConfig({ testTimeout: 20_000 });

let w: ProfileWorld;
let pendingId: string;

beforeAll(async () => {
  w = await createProfileWorld();
  pendingId = (await addProfile(w, 'OSLO-1')).id;
  await approve(w, (await addProfile(w, 'OSLO-2')).id);
  await addProfile(w, 'BERGEN-1', w.otherCaseId);
}, 60_000);
afterAll(() => w.t.close());

const tabs = () => screen.getByRole('navigation', { name: 'Profile lists' });
const rowOf = (text: string) => screen.getByText(text).closest('[role="row"]') as HTMLElement;

describe('profile tables', () => {
  it('lists the organization’s profiles with the columns of spec 2.3; with Profiles Add a row opens the profile', async () => {
    const view = await openAs(w, 'analyst', `/${w.orgId}/profiles`);
    expect(await screen.findByText('OSLO-2', {}, { timeout: 5000 })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent?.trim());
    expect(headers).toEqual(['Profile', 'Case', 'Type', 'Chemistry', 'Sample Type', 'Source', 'Item', 'Source Laboratory', 'Status']);
    expect(within(rowOf('OSLO-1')).getAllByRole('gridcell').map((c) => c.textContent)).toEqual([
      'OSLO-1', '2026-0100', 'Autosomal', 'GlobalFiler', 'Reference', '', '', 'Oslo DNA Lab', 'Pending',
    ]);
    expect(within(rowOf('OSLO-2')).getByText('Approved')).toBeInTheDocument();
    // Another organization's profile is not among Oslo's.
    expect(screen.queryByText('BERGEN-1')).not.toBeInTheDocument();
    expect(within(tabs()).getByRole('link', { name: 'Profiles' })).toHaveAttribute('aria-current', 'page');

    await userEvent.click(within(rowOf('OSLO-1')).getByText('OSLO-1'));
    expect(view.current()).toBe(`/${w.orgId}/cases/${w.caseId}/profiles/${pendingId}`);
  });

  it('Review lists only the pending profiles, and each row opens the profile even without Profiles Add', async () => {
    const view = await openAs(w, 'reader', `/${w.orgId}/profiles/review`);
    expect(await screen.findByText('OSLO-1', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByText('OSLO-2')).not.toBeInTheDocument();
    expect(within(tabs()).getByRole('link', { name: 'Review' })).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByText('OSLO-1'));
    expect(view.current()).toBe(`/${w.orgId}/cases/${w.caseId}/profiles/${pendingId}`);
  });

  it('without Profiles Add the Profiles tab lists but does not open; at `all` it draws from every organization', async () => {
    const reader = await openAs(w, 'reader', `/${w.orgId}/profiles`);
    await userEvent.click(await screen.findByText('OSLO-1', {}, { timeout: 5000 }));
    expect(reader.current()).toBe(`/${w.orgId}/profiles`);
    reader.unmount();

    await openAs(w, 'admin', '/all/profiles');
    expect(await screen.findByText('BERGEN-1', {}, { timeout: 5000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('3 records')).toBeInTheDocument());
  });
});
