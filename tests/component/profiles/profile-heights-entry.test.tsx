import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile, ProfileWithMarkers } from '../../../core/schemas/profiles';
import { call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

// Issue 31: peak heights typed by hand on the marker entry form of a forensic profile, checked per field, saved
// with the markers and shown on the profile.
vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
let id: string;

beforeAll(async () => {
  w = await createProfileWorld();
  const added = await call<{ items: Profile[] }>(w, 'admin', 'POST', '/api/profiles', {
    caseId: w.caseId,
    chemistryId: w.globalFiler,
    sampleType: 'Forensic Mixture',
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: w.laboratoryId,
    comments: '',
    profiles: [{ profileId: 'STAIN-9', markerValues: [{ markerId: w.markerIds.D3S1358!, alleles: ['15', '16'] }] }],
  });
  id = added.items[0]!.id;
}, 60_000);
afterAll(() => w.t.close());

describe('marker entry: peak heights', () => {
  it('refuses a height that is not a positive number and more heights than alleles, then saves the replicate and shows it on the profile', async () => {
    await openAs(w, 'admin', `/${w.orgId}/cases/${w.caseId}/profiles/${id}/edit/markers`);
    await userEvent.click(await screen.findByRole('button', { name: 'Add replicate' }));
    const run = screen.getByRole('group', { name: 'Replicate 1' });
    await userEvent.type(within(run).getByLabelText('Run name'), 'inj-1.fsa');
    const heights = within(run).getByLabelText('D3S1358 heights (RFU)');
    await userEvent.type(heights, '800, abc');
    await userEvent.tab();
    expect(await within(run).findByText('the height "abc" of allele 16 is not a positive number')).toBeInTheDocument();
    await userEvent.clear(heights);
    await userEvent.type(heights, '800, 750, 90');
    await userEvent.click(screen.getByRole('button', { name: 'Save markers' }));
    expect(await within(run).findByText('3 heights for 2 alleles (90 beside no allele)')).toBeInTheDocument();
    expect(heights).toHaveFocus();

    await userEvent.clear(heights);
    await userEvent.type(heights, '800, 45.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save markers' }));
    const section = await screen.findByRole('region', { name: 'Peak heights of STAIN-9' }, { timeout: 10_000 });
    expect(within(section).getByText('Replicate 1: inj-1.fsa')).toBeInTheDocument();
    const stored = await call<ProfileWithMarkers>(w, 'admin', 'GET', `/api/profiles/${id}`);
    expect(stored.replicates[0]!.markers[0]!.peaks.map((p) => [p.allele, p.height])).toEqual([['15', 800], ['16', 45.5]]);
  });
});
