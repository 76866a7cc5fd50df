import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markers } from '../../../server/db/schema';
import { SEED_MARKERS } from '../../../server/db/seed/reference/markers';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

let t: TestApp;
let adminToken: string;
let orgAdminToken: string;
let orgId: string;
const markerId: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [orgId] })).id);
  orgAdminToken = t.verifier.issue((await createUser(db, { scope: 'Organization', accessGroupId: admins.id, organizationIds: [orgId] })).id);
  const rows = await db
    .insert(markers)
    .values(SEED_MARKERS.map((m) => ({ name: m.name, kind: m.kind, aliases: [...m.aliases], multiCopy: m.multiCopy ?? false })))
    .returning();
  for (const row of rows) markerId[row.name] = row.id;
}, 60_000);
afterAll(() => t.close());

interface StoredChemistry {
  id: string;
  name: string;
  version: number;
  markers: { name: string }[];
}
const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${adminToken}` }, ...(payload ? { payload } : {}) });
async function addKit(path: 'ystr-chemistries' | 'autosomal-chemistries', name: string, names: string[]): Promise<StoredChemistry> {
  return (await inject('POST', `/api/${path}`, { name, markerIds: names.map((n) => markerId[n]) })).json() as StoredChemistry;
}
const order = () => within(screen.getByRole('list', { name: 'Markers in order' })).getAllByRole('listitem').map((li) => li.querySelector('.marker-order__name')?.textContent);
const positions = () => within(screen.getByRole('list', { name: 'Markers in order' })).getAllByRole('listitem').map((li) => li.querySelector('.marker-order__position')?.textContent);
async function addMarker(typed: string) {
  await userEvent.type(screen.getByLabelText('Marker to add'), typed);
  await userEvent.click(screen.getByRole('button', { name: 'Add marker' }));
}

// Typing and saving against the in-process server takes seconds when the machine is busy.
describe('Y-STR chemistries', { timeout: 20_000 }, () => {
  it('creates a chemistry: Required and "Add at least one marker" first, then markers added by name or alias, saved and listed with count and names', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/ystr-chemistries/new/edit`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New Y-STR chemistry' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.getByText('Add at least one marker')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/Name/), 'Mini Y');
    await addMarker('DYS19');
    await userEvent.type(screen.getByLabelText('Marker to add'), 'dys391{Enter}');
    await addMarker('DYS385a/b');
    expect(order()).toEqual(['DYS19', 'DYS391', 'DYS385']);
    expect(positions()).toEqual(['1', '2', '3']);
    expect(screen.queryByText('Add at least one marker')).not.toBeInTheDocument();

    await addMarker('Amelogenin');
    expect(screen.getByText('No Y-STR marker named Amelogenin')).toBeInTheDocument();
    await userEvent.clear(screen.getByLabelText('Marker to add'));
    await addMarker('DYS19');
    expect(screen.getByText('DYS19 is already in the list')).toBeInTheDocument();
    expect(order()).toEqual(['DYS19', 'DYS391', 'DYS385']);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/ystr-chemistries`));
    expect(await screen.findByText('3: DYS19, DYS391, DYS385')).toBeInTheDocument();
  });

  it('reorders with Move up / Move down, keeps focus on the moved marker, and shows the saved order after reload', async () => {
    const kit = await addKit('ystr-chemistries', 'PowerPlex Y4', ['DYS576', 'DYS389I', 'DYS448', 'DYS389II']);
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/ystr-chemistries/${kit.id}/edit`, { t, token: adminToken, me });
    expect(await within(screen.getByRole('navigation', { name: 'Breadcrumb' })).findByText('PowerPlex Y4')).toBeInTheDocument();
    await screen.findByDisplayValue('PowerPlex Y4');
    expect(screen.getByRole('button', { name: 'Move DYS576 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move DYS389II down' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Move DYS448 up' }));
    expect(order()).toEqual(['DYS576', 'DYS448', 'DYS389I', 'DYS389II']);
    expect(screen.getByRole('button', { name: 'Move DYS448 up' })).toHaveFocus();
    // Keyboard only: Enter on the focused button moves it again, to the top, where its twin takes the focus.
    await userEvent.keyboard('{Enter}');
    expect(order()).toEqual(['DYS448', 'DYS576', 'DYS389I', 'DYS389II']);
    expect(screen.getByRole('button', { name: 'Move DYS448 down' })).toHaveFocus();
    expect(screen.getByText('DYS448 moved to position 1 of 4')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Move DYS576 down' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove DYS389II' }));
    expect(order()).toEqual(['DYS448', 'DYS389I', 'DYS576']);
    expect(positions()).toEqual(['1', '2', '3']);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/ystr-chemistries`));
    cleanup();
    renderScreen(`/${orgId}/ystr-chemistries/${kit.id}/edit`, { t, token: adminToken, me });
    await screen.findByDisplayValue('PowerPlex Y4');
    expect(order()).toEqual(['DYS448', 'DYS389I', 'DYS576']);
  });

  it('moves a marker by dragging its row onto another', async () => {
    const kit = await addKit('ystr-chemistries', 'Drag Y', ['DYS19', 'DYS391', 'DYS392']);
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/ystr-chemistries/${kit.id}/edit`, { t, token: adminToken, me });
    await screen.findByDisplayValue('Drag Y');
    const rows = within(screen.getByRole('list', { name: 'Markers in order' })).getAllByRole('listitem');
    const dataTransfer = { setData: () => undefined, effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(rows[2]!, { dataTransfer });
    fireEvent.dragOver(rows[0]!, { dataTransfer });
    fireEvent.drop(rows[0]!, { dataTransfer });
    expect(order()).toEqual(['DYS392', 'DYS19', 'DYS391']);
  });

  it('shows the server refusing a second chemistry of the same name, keeping the list', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/ystr-chemistries/new/edit`, { t, token: adminToken, me });
    await userEvent.type(await screen.findByLabelText(/Name/), 'mini y');
    await addMarker('DYS19');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A Y-STR chemistry named "mini y" already exists');
    expect(order()).toEqual(['DYS19']);
  });
});

describe('autosomal chemistries', { timeout: 20_000 }, () => {
  it('offers every marker, so a kit can carry Amelogenin and the Y markers it amplifies', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/autosomal-chemistries/new/edit`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New autosomal chemistry' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Name/), 'Mini Filer');
    await waitFor(() => expect(document.querySelectorAll('datalist option').length).toBe(SEED_MARKERS.length));
    for (const name of ['D3S1358', 'VWA', 'Amelogenin', 'DYS391']) await addMarker(name);
    expect(order()).toEqual(['D3S1358', 'vWA', 'Amelogenin', 'DYS391']);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/autosomal-chemistries`));
    expect(await screen.findByText('4: D3S1358, vWA, Amelogenin, DYS391')).toBeInTheDocument();
  });

  it('shows an administrator with organization scope the autosomal kits without Add', async () => {
    const me = await meOf(t, orgAdminToken);
    renderScreen(`/${orgId}/autosomal-chemistries`, { t, token: orgAdminToken, me });
    expect(await screen.findByText('Mini Filer')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add autosomal chemistry' })).not.toBeInTheDocument();
  });
});
