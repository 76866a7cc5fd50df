import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECRET_SHOWN_ONCE } from '../../../src/admin/network/service-clients-page';
import { serviceClients, uploadOutbox } from '../../../server/db/schema';
import { newClientCredentials } from '../../../server/identity/service-clients';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// Issue 32: an administrator with scope All creates service clients (secret shown once, revocable) and sets this
// instance's place in the network (the upper instance's secret write-only, Test connection).
vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let orgId: string;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [orgId] })).id);
}, 90_000);
afterAll(() => t.close());

const open = async (path: string) => renderScreen(path, { t, token: adminToken, me: await meOf(t, adminToken) });
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

describe('service clients screen', () => {
  it('creates a client whose secret is shown once with Copy and a warning, lists it without the secret, and revokes it after confirming', async () => {
    const page = await open(`/${orgId}/service-clients`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Service clients' })).toBeInTheDocument();
    expect(await screen.findByText('There are no service clients yet.')).toBeInTheDocument();
    await userEvent.type(field('Name'), 'State index');
    await userEvent.selectOptions(field('Acts for'), 'Oslo Lab');
    await userEvent.click(screen.getByRole('button', { name: 'Create client' }));

    const box = within(await screen.findByRole('region', { name: 'Your new service client “State index”' }));
    const secret = (box.getByLabelText('Client secret') as HTMLInputElement).value;
    expect(secret).toMatch(/^locus_cs_/);
    expect(box.getByLabelText('Client secret')).toHaveAttribute('readonly');
    expect(box.getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
    expect(box.getByText(SECRET_SHOWN_ONCE)).toBeInTheDocument();

    const list = within(screen.getByRole('region', { name: 'Clients' }));
    const row = within((await list.findByRole('rowheader', { name: 'State index' })).closest('tr')!);
    expect(row.getByText('Oslo Lab')).toBeInTheDocument();
    expect(row.getByText('Active')).toBeInTheDocument();

    // Opened again: listed, the secret nowhere.
    page.unmount();
    await open(`/${orgId}/service-clients`);
    const again = within(screen.getByRole('region', { name: 'Clients' }));
    const rowAgain = within((await again.findByRole('rowheader', { name: 'State index' })).closest('tr')!);
    expect(document.body.textContent).not.toContain(secret);
    expect(screen.queryByDisplayValue(secret)).not.toBeInTheDocument();

    await userEvent.click(rowAgain.getByRole('button', { name: 'Revoke' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke service client?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Revoke' }));
    const revokedRow = () => within(again.getByRole('rowheader', { name: 'State index' }).closest('tr')!);
    await waitFor(() => expect(revokedRow().getByText('Revoked')).toBeInTheDocument());
    expect(revokedRow().queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
  });
});

describe('network settings screen', () => {
  it('saves the level, name and upper instance, never shows the stored secret, and reports Test connection', async () => {
    await open(`/${orgId}/network`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Network' })).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Oslo Lab instance');
    await userEvent.selectOptions(field('Level'), 'Local');
    await userEvent.type(field('Address'), 'http://127.0.0.1:9');
    await userEvent.type(field('Client id'), 'locus_svc_example');
    await userEvent.type(field('Client secret'), 'locus_cs_very-secret');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByText('A secret is stored (never shown). Leave blank to keep it.')).toBeInTheDocument());
    expect(field('Client secret')).toHaveValue('');
    expect(document.body.innerHTML).not.toContain('locus_cs_very-secret');
    expect(field('Address')).toHaveValue('http://127.0.0.1:9');

    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^The upper instance at http:\/\/127\.0\.0\.1:9 could not be reached/);

    // A bad address is refused with the field's message, and what was typed stays.
    await userEvent.clear(field('Address'));
    await userEvent.type(field('Address'), 'not an address');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Give the address as http(s)://host[:port]')).toBeInTheDocument();
    expect(field('Address')).toHaveValue('not an address');
  });
});

describe('registering a lower instance', () => {
  it('says what each field lacks, registers the instance with its laboratories, and shows the server’s refusals where they belong', async () => {
    const made = newClientCredentials();
    await t.database.db.insert(serviceClients).values({ name: 'Lab B client', clientId: made.clientId, secretHash: made.secretHash });
    await open(`/${orgId}/network`);
    const form = within(await screen.findByRole('region', { name: 'Register a lower instance' }));
    await userEvent.click(form.getByRole('button', { name: 'Register' }));
    expect(await form.findByText('Give the instance a name')).toBeInTheDocument();
    expect(form.getByText('Choose the service client the instance signs in with')).toBeInTheDocument();
    expect(form.getByText('Name at least one laboratory the instance sends for')).toBeInTheDocument();

    await userEvent.type(form.getByLabelText(/^Instance name/), 'Lab B instance');
    await userEvent.selectOptions(form.getByLabelText(/^Signs in as/), 'Lab B client');
    await userEvent.type(form.getByLabelText(/^Laboratories/), 'Bergen police lab{enter}{enter}Bergen university lab');
    await userEvent.click(form.getByRole('button', { name: 'Register' }));
    const list = within(screen.getByRole('region', { name: 'Lower instances' }));
    const row = within((await list.findByRole('rowheader', { name: 'Lab B instance' })).closest('tr')!);
    expect(row.getByText('Bergen police lab, Bergen university lab')).toBeInTheDocument();
    expect(form.getByLabelText(/^Instance name/)).toHaveValue('');

    // The server's field error goes to its field; what was typed stays.
    await userEvent.type(form.getByLabelText(/^Instance name/), 'Lab C instance');
    await userEvent.selectOptions(form.getByLabelText(/^Signs in as/), 'Lab B client');
    await userEvent.type(form.getByLabelText(/^Laboratories/), 'Trondheim lab{enter}trondheim LAB');
    await userEvent.click(form.getByRole('button', { name: 'Register' }));
    expect(await form.findByText('Name each laboratory once')).toBeInTheDocument();
    expect(form.getByRole('alert')).toHaveTextContent('A laboratory is named twice: trondheim LAB');
    // A refusal of the whole (the client already has an instance) shows above the form.
    await userEvent.clear(form.getByLabelText(/^Laboratories/));
    await userEvent.type(form.getByLabelText(/^Laboratories/), 'Trondheim lab');
    await userEvent.click(form.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(form.getByRole('alert')).toHaveTextContent('The lower instance "Lab B instance" already signs in with that service client'));
    expect(form.getByLabelText(/^Instance name/)).toHaveValue('Lab C instance');
  });
});

describe('network delivery screen', () => {
  it('shows the backlog and what the upper instance refused and why, and retries a failed entry', async () => {
    const db = t.database.db;
    const common = { organizationId: orgId, laboratory: 'Oslo Lab', action: 'upload' };
    await db.insert(uploadOutbox).values([
      { ...common, idempotencyKey: 'k-failed', profileId: '0190a000-0000-7000-8000-000000000001', specimenId: 'STAIN-7', attempts: 1, refusedAt: new Date(), lastError: 'Profile STAIN-7: this level has no kit HomeBrew 24' },
      { ...common, idempotencyKey: 'k-sent', profileId: '0190a000-0000-7000-8000-000000000002', specimenId: 'STAIN-8', attempts: 1, deliveredAt: new Date() },
    ]);
    await open(`/${orgId}/network/delivery`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Network delivery' })).toBeInTheDocument();
    expect(await screen.findByText('0 waiting, 1 refused by the upper instance (retry once the cause is fixed).')).toBeInTheDocument();
    const failed = within((await screen.findByRole('rowheader', { name: 'STAIN-7' })).closest('tr')!);
    expect(failed.getByText('Failed')).toBeInTheDocument();
    expect(failed.getByText('Profile STAIN-7: this level has no kit HomeBrew 24')).toBeInTheDocument();
    const sent = within(screen.getByRole('rowheader', { name: 'STAIN-8' }).closest('tr')!);
    expect(sent.getByText(/^Delivered /)).toBeInTheDocument();
    expect(sent.queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();

    await userEvent.click(failed.getByRole('button', { name: 'Retry STAIN-7' }));
    await waitFor(() => expect(within(screen.getByRole('rowheader', { name: 'STAIN-7' }).closest('tr')!).getByText('Retrying')).toBeInTheDocument());
    expect(await screen.findByText(/^1 waiting, 1 of them retrying/)).toBeInTheDocument();
  });
});
