import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProfileWithMarkers } from '../../../core/schemas/profiles';
import { addProfile, approve, call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
beforeAll(async () => {
  w = await createProfileWorld();
}, 60_000);
afterAll(() => w.t.close());

const PROFILE_URL = /\/cases\/[0-9a-f-]{36}\/profiles\/([0-9a-f-]{36})\/edit\/markers$/;
const rowOf = (label: string) => screen.getByLabelText(label).closest('.marker-entry__row') as HTMLElement;

describe('profile form and marker entry', () => {
  it('adds a profile by hand, then enters its markers with a message per field for a bad allele', async () => {
    const view = await openAs(w, 'analyst', `/${w.orgId}/cases/${w.caseId}/profiles/new/edit`);
    expect(await screen.findByRole('heading', { name: 'New profile' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Add and enter markers' }));
    expect(within(screen.getByLabelText(/^Profile/).closest('.field') as HTMLElement).getByText('Required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Profile/), 'SUSPECT-7');
    await userEvent.selectOptions(screen.getByLabelText(/^Chemistry/), 'GlobalFiler');
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Suspect, Known');
    await userEvent.click(screen.getByRole('button', { name: 'Add and enter markers' }));

    // Added with no markers, the user goes on to the marker entry form laid out from GlobalFiler.
    await waitFor(() => expect(view.current()).toMatch(PROFILE_URL));
    const id = PROFILE_URL.exec(view.current()!)![1]!;
    expect(await screen.findByRole('heading', { name: 'Markers of SUSPECT-7' })).toBeInTheDocument();
    const kit = screen.getByRole('group', { name: 'GlobalFiler' });
    expect(within(kit).getAllByRole('textbox').slice(0, 4).map((f) => (f as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['D3S1358', 'vWA', 'D16S539', 'CSF1PO']);

    await userEvent.type(screen.getByLabelText('vWA'), '14, 15, 16');
    await userEvent.type(screen.getByLabelText('Amelogenin'), 'X Y');
    await userEvent.type(screen.getByLabelText('TH01'), '9.3');
    await userEvent.tab();
    expect(within(rowOf('vWA')).getByText('vWA has 3 alleles (14, 15, 16); a single-source profile has 1 or 2 per marker')).toBeInTheDocument();
    expect(screen.getByLabelText('vWA')).toHaveAttribute('aria-invalid', 'true');
    // Only the field in error says so.
    expect(within(rowOf('Amelogenin')).queryByRole('paragraph')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Save markers' }));
    expect(view.current()).toMatch(PROFILE_URL);

    await userEvent.clear(screen.getByLabelText('vWA'));
    await userEvent.type(screen.getByLabelText('vWA'), '17,14');
    expect(within(rowOf('vWA')).queryByText(/alleles/)).toBeNull();
    // The server's field errors (400 details /markerValues/{i}/alleles) show beside the marker they name.
    await userEvent.type(screen.getByLabelText('Yindel'), '1 2');
    await userEvent.click(screen.getByRole('button', { name: 'Save markers' }));
    expect(await within(rowOf('Yindel')).findByText('Yindel is a Y-STR marker and takes exactly one allele; found 2 alleles (1, 2)')).toBeInTheDocument();
    expect(within(rowOf('vWA')).queryByRole('paragraph')).toBeNull();
    await userEvent.clear(screen.getByLabelText('Yindel'));
    await userEvent.type(screen.getByLabelText('Yindel'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Save markers' }));

    await waitFor(() => expect(view.current()).toBe(`/${w.orgId}/cases/${w.caseId}/profiles/${id}`));
    const markers = await screen.findByRole('table', { name: 'Markers of SUSPECT-7' });
    // Stored in the kit's order, alleles in ascending order.
    expect(within(markers).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['vWA14, 17', 'Yindel2', 'AmelogeninX, Y', 'TH019.3']);
    const stored = await call<ProfileWithMarkers>(w, 'admin', 'GET', `/api/profiles/${id}`);
    expect(stored).toEqual(expect.objectContaining({ profileId: 'SUSPECT-7', sampleType: 'Suspect, Known', status: 'pending', source: 'Entered by hand' }));
  });

  it('says the record changed when someone else saved the markers first', async () => {
    const added = await call<{ items: ProfileWithMarkers[] }>(w, 'admin', 'POST', '/api/profiles', {
      caseId: w.caseId, chemistryId: w.globalFiler, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '',
      profiles: [{ profileId: 'REF-2', markerValues: [] }],
    });
    const id = added.items[0]!.id;
    await openAs(w, 'analyst', `/${w.orgId}/cases/${w.caseId}/profiles/${id}/edit/markers`);
    await userEvent.type(await screen.findByLabelText('D3S1358'), '15');
    await call(w, 'admin', 'PUT', `/api/profiles/${id}/markers`, { markerValues: [{ markerId: w.markerIds.TH01, alleles: ['6'] }], version: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Save markers' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('changed by someone else');
    // Loading the current version keeps what was typed.
    await userEvent.click(screen.getByRole('button', { name: 'Load the current version' }));
    await waitFor(() => expect(screen.getByLabelText('TH01')).toHaveValue('6'));
    expect(screen.getByLabelText('D3S1358')).toHaveValue('15');
  });

  it('edits an approved profile’s comments with its chemistry locked, and the audit tab shows the edit', async () => {
    const profile = await addProfile(w, 'EDIT-1');
    await approve(w, profile.id);
    const view = await openAs(w, 'analyst', `/${w.orgId}/cases/${w.caseId}/profiles/${profile.id}/edit`);
    expect(await screen.findByRole('heading', { name: 'Edit profile EDIT-1' })).toBeInTheDocument();
    const chemistry = await screen.findByLabelText(/^Chemistry/);
    expect(chemistry).toHaveDisplayValue('GlobalFiler');
    expect(chemistry).toBeDisabled();
    // A profile keeps its kind: only autosomal kits are offered.
    expect(within(chemistry).queryByRole('option', { name: 'Yfiler Plus' })).toBeNull();
    expect(screen.getByLabelText('Source Laboratory')).toHaveDisplayValue('Oslo DNA Lab');
    await userEvent.type(screen.getByLabelText('Comments'), 'Second extraction');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`/${w.orgId}/cases/${w.caseId}/profiles/${profile.id}`));
    expect(await screen.findByText('Second extraction')).toBeInTheDocument();
    expect(screen.getByText('Source Laboratory').nextElementSibling).toHaveTextContent('Oslo DNA Lab');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Profile EDIT-1' })).getByRole('link', { name: 'Audit' }));
    expect(view.current()).toBe(`/${w.orgId}/cases/${w.caseId}/profiles/${profile.id}/audit`);
    expect(await screen.findByText('Edited', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
