import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Case, InvolvedParty, PhysicalItem } from '../../../core/schemas/cases';
import type { ListResult } from '../../../core/schemas/list';
import type { Profile } from '../../../core/schemas/profiles';
import { meOf, renderScreen } from '../screen-fixtures';
import { addCase, call, createCaseWorld, type CaseWorld } from './case-fixtures';

// Issue 18: the case page's parties (role, name, identifiers, linked profiles) and items (collection), and a profile's "Taken from".

// AG Grid's first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let world: CaseWorld;
let record: Case;

beforeAll(async () => {
  world = await createCaseWorld();
  record = await addCase(world, '2026-0300');
}, 60_000);
afterAll(() => world.t.close());

const open = async (path: string) => renderScreen(path, { t: world.t, token: world.tokens.analyst, me: await meOf(world.t, world.tokens.analyst) });
const fieldOf = (label: RegExp | string) => within(screen.getByLabelText(label).closest('.field') as HTMLElement);
const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('involved party form and tab', () => {
  it('names each wrong field, then adds a party with role, name and identifiers that the tab lists', async () => {
    const tab = `/${world.orgId}/cases/${record.id}`;
    const view = await open(`${tab}/invloved-parties/new/edit`);
    await screen.findByRole('heading', { name: 'New involved party' });
    await userEvent.click(screen.getByRole('button', { name: 'Add identifier' }));
    await save();
    expect(await fieldOf(/^Title/).findByText('Required')).toBeInTheDocument();
    expect(fieldOf(/^Role/).getByText('Required', { selector: '.field__error' })).toBeInTheDocument();
    const first = within(screen.getByRole('group', { name: 'Identifier 1' }));
    expect(within(first.getByLabelText(/^Value/).closest('.field') as HTMLElement).getByText('Required')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/^Title/), 'Suspect 1');
    await userEvent.selectOptions(screen.getByLabelText(/^Role/), 'Suspect');
    await userEvent.type(screen.getByLabelText(/^Name/), 'John Smith');
    await userEvent.type(first.getByLabelText(/^Value/), '01017012345');
    await userEvent.click(screen.getByRole('button', { name: 'Add identifier' }));
    const second = within(screen.getByRole('group', { name: 'Identifier 2' }));
    await userEvent.selectOptions(second.getByLabelText(/^Kind/), 'Arrest/booking number');
    await userEvent.type(second.getByLabelText(/^Value/), 'A-2026-77');
    await save();
    await waitFor(() => expect(view.current()).toBe(tab));
    // Issue 30: the saved form's entry is replaced by the case's page, so Back does not reopen a form already saved
    // (a form opened from a bookmark is the only entry: Back then leaves, not to a stale form).
    expect(view.history()).toEqual([tab]);

    const grid = await screen.findByRole('grid');
    const row = (await within(grid).findByText('John Smith', {}, { timeout: 10_000 })).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Suspect')).toBeInTheDocument();
    expect(within(row).getByText('National id 01017012345; Arrest/booking number A-2026-77')).toBeInTheDocument();
    const [party] = (await call<ListResult<InvolvedParty>>(world, 'analyst', 'GET', `/api/cases/${record.id}/involved-parties`)).items;
    expect(party).toMatchObject({ role: 'suspect', name: 'John Smith', identifiers: [{ kind: 'national-id', value: '01017012345' }, { kind: 'arrest-number', value: 'A-2026-77' }] });
  });
});

describe('physical item form and tab', () => {
  it('refuses a collection in the future, keeps what was typed when the server refuses, and lists the collection in local time', async () => {
    const tab = `/${world.orgId}/cases/${record.id}/items`;
    await call(world, 'analyst', 'POST', `/api/cases/${record.id}/physical-items`, { itemId: 'K-01', description: 'Knife', collectedAt: null, collectionPlace: '', collectedBy: '' });
    const view = await open(`${tab}/new/edit`);
    await userEvent.type(await screen.findByLabelText(/^Item id/), 'K-01');
    await userEvent.type(screen.getByLabelText('Collection time'), '14:30');
    await save();
    expect(await fieldOf('Collected on').findByText('Enter the date of this time')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Collected on'), `${new Date().getFullYear() + 1}-01-01`);
    await save();
    expect(await fieldOf('Collected on').findByText('Cannot be in the future')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Collected on'));
    await userEvent.type(screen.getByLabelText('Collected on'), '2026-03-01');
    await userEvent.type(screen.getByLabelText('Collection place'), 'Storgata 1, Oslo');
    await userEvent.type(screen.getByLabelText('Collected by'), 'Officer Hansen');
    await save();
    // The id is taken: the server's refusal shows and nothing typed is lost.
    expect(await screen.findByRole('alert')).toHaveTextContent('Item K-01 already exists in this case');
    expect(screen.getByLabelText('Collection place')).toHaveValue('Storgata 1, Oslo');
    expect(screen.getByLabelText('Collected on')).toHaveValue('2026-03-01');
    await userEvent.clear(screen.getByLabelText(/^Item id/));
    await userEvent.type(screen.getByLabelText(/^Item id/), 'K-02');
    await save();
    await waitFor(() => expect(view.current()).toBe(tab));

    const item = (await call<ListResult<PhysicalItem>>(world, 'analyst', 'GET', `/api/cases/${record.id}/physical-items`)).items.find((i) => i.itemId === 'K-02')!;
    // Typed as local time, stored as the instant.
    expect(new Date(item.collectedAt!).getTime()).toBe(new Date('2026-03-01T14:30').getTime());
    const grid = await screen.findByRole('grid');
    const row = (await within(grid).findByText('K-02', {}, { timeout: 10_000 })).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Mar 1, 2026, 2:30 PM')).toBeInTheDocument();
    expect(within(row).getByText('Storgata 1, Oslo')).toBeInTheDocument();
    expect(within(row).getByText('Officer Hansen')).toBeInTheDocument();
  });
});

describe('a profile taken from a party', () => {
  it('sets Taken from in the profile form, shows it on the profile, lists the profile on the party and warns of the unlink on delete', async () => {
    const party = await call<InvolvedParty>(world, 'analyst', 'POST', `/api/cases/${record.id}/involved-parties`, { title: 'Victim 1', role: 'victim', name: 'Jane Roe', identifiers: [], description: '' });
    const cases = `/${world.orgId}/cases/${record.id}`;
    const view = await open(`${cases}/profiles/new/edit`);
    await userEvent.type(await screen.findByLabelText(/^Profile/), 'VIC-1');
    await userEvent.selectOptions(screen.getByLabelText(/^Chemistry/), 'GlobalFiler');
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Victim, Known');
    await userEvent.selectOptions(await screen.findByLabelText('Taken from'), 'Victim 1 (Victim, Jane Roe)');
    await userEvent.click(screen.getByRole('button', { name: 'Add and enter markers' }));
    await waitFor(() => expect(view.current()).toMatch(/\/edit\/markers$/));
    const profileId = /profiles\/([0-9a-f-]{36})\//.exec(view.current()!)![1]!;
    expect((await call<Profile>(world, 'analyst', 'GET', `/api/profiles/${profileId}`)).involvedParty).toMatchObject({ id: party.id, name: 'Jane Roe' });
    view.unmount();

    const profile = await open(`${cases}/profiles/${profileId}`);
    const taken = (await screen.findByText('Taken from')).closest('div') as HTMLElement;
    expect(taken).toHaveTextContent('Victim 1 (Victim, Jane Roe)');
    profile.unmount();

    await open(`${cases}/invloved-parties/${party.id}/edit`);
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue('Jane Roe'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Profile VIC-1 was taken from this party: it stays in the case, no longer linked to a party.');
  });
});
