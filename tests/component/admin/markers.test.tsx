import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chemistries, chemistryMarkers } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

let t: TestApp;
let adminToken: string;
let readerToken: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admin = await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] });
  const reader = await createUser(db, { accessGroupId: (await createAccessGroup(db, { grants: { Markers: ['Read'] } })).id, organizationIds: [orgId] });
  adminToken = t.verifier.issue(admin.id);
  readerToken = t.verifier.issue(reader.id);
}, 60_000);
afterAll(() => t.close());

interface StoredMarker {
  id: string;
  name: string;
  kind: string;
  aliases: string[];
  multiCopy: boolean;
}
const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${adminToken}` }, ...(payload ? { payload } : {}) });
const stored = async (name: string) =>
  ((await api('GET', `/api/markers?search=${encodeURIComponent(name)}`)).json() as { items: StoredMarker[] }).items.find((m) => m.name === name);

// Typing and saving against the in-process server takes seconds when the machine is busy.
describe('markers', { timeout: 20_000 }, () => {
  it('adds a Y-STR marker with aliases: Required first, then chips added, one removed, saved and listed', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/markers/new/edit`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New marker' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);

    await userEvent.type(screen.getByLabelText(/Name/), 'DYS385');
    expect(screen.queryByLabelText('Multi-copy')).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/Kind/), 'Y-STR');
    await userEvent.click(screen.getByLabelText('Multi-copy'));
    const aliasBox = screen.getByLabelText('Aliases');
    await userEvent.type(aliasBox, 'DYS385a/b{Enter}');
    await userEvent.type(aliasBox, 'DYS385 a/b, DYS385a, DYS385b');
    await userEvent.click(screen.getByRole('button', { name: 'Add alias' }));
    const chips = screen.getByRole('list', { name: 'Current aliases' });
    expect(within(chips).getAllByRole('listitem').map((li) => li.textContent?.replace('×', ''))).toEqual(['DYS385a/b', 'DYS385 a/b', 'DYS385a', 'DYS385b']);
    await userEvent.click(screen.getByRole('button', { name: 'Remove alias DYS385b' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`/${orgId}/markers`));
    expect(await screen.findByText('DYS385a/b, DYS385 a/b, DYS385a')).toBeInTheDocument();
    expect(await stored('DYS385')).toMatchObject({ kind: 'YStr', aliases: ['DYS385a/b', 'DYS385 a/b', 'DYS385a'], multiCopy: true });
  });

  it('keeps an alias that was typed but not confirmed when the user saves', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/markers/new/edit`, { t, token: adminToken, me });
    await userEvent.type(await screen.findByLabelText(/Name/), 'TH01');
    await userEvent.selectOptions(screen.getByLabelText(/Kind/), 'Autosomal');
    await userEvent.type(screen.getByLabelText('Aliases'), 'THO1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/markers`));
    expect(await stored('TH01')).toMatchObject({ kind: 'Autosomal', aliases: ['THO1'], multiCopy: false });
  });

  it('shows the server refusing an alias that another marker answers to, keeping the input', async () => {
    await api('POST', '/api/markers', { name: 'VWA', kind: 'Autosomal', aliases: [], multiCopy: false });
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/markers/new/edit`, { t, token: adminToken, me });
    await userEvent.type(await screen.findByLabelText(/Name/), 'D99S99');
    await userEvent.selectOptions(screen.getByLabelText(/Kind/), 'Autosomal');
    await userEvent.type(screen.getByLabelText('Aliases'), 'vWA{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Alias vWA is already used by marker VWA');
    expect(screen.getByLabelText(/Name/)).toHaveValue('D99S99');
    expect(within(screen.getByRole('list', { name: 'Current aliases' })).getByText('vWA')).toBeInTheDocument();
  });

  it('names the marker in the breadcrumb and names the kits that keep it from being deleted', async () => {
    const marker = await stored('TH01');
    const [kit] = await t.database.db.insert(chemistries).values({ name: 'Identifiler Plus', kind: 'Autosomal' }).returning();
    await t.database.db.insert(chemistryMarkers).values({ chemistryId: kit!.id, markerId: marker!.id, position: 0 });
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/markers/${marker!.id}/edit`, { t, token: adminToken, me });
    expect(await within(screen.getByRole('navigation', { name: 'Breadcrumb' })).findByText('TH01')).toBeInTheDocument();
    await screen.findByDisplayValue('TH01');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Marker TH01 is used by Identifiler Plus');
  });

  it('shows a reader the table with kinds and aliases, and without Add', async () => {
    const me = await meOf(t, readerToken);
    renderScreen(`/${orgId}/markers`, { t, token: readerToken, me });
    expect(await screen.findByText('DYS385')).toBeInTheDocument();
    expect(screen.getByText('Y-STR')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add marker' })).not.toBeInTheDocument();
  });
});
