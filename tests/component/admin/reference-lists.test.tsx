import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const reader = await createUser(db, {
    accessGroupId: (await createAccessGroup(db, { grants: { Laboratories: ['Read'] } })).id,
    organizationIds: [orgId],
  });
  adminToken = t.verifier.issue(admin.id);
  readerToken = t.verifier.issue(reader.id);
}, 60_000);
afterAll(() => t.close());

describe('laboratories (a name-only list)', () => {
  it('adds a laboratory: Required on an empty name, then saved and listed', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/laboratories/new/edit`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New laboratory' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Name/), 'Forensic Lab Bergen');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/laboratories`));
    expect(await screen.findByText('Forensic Lab Bergen')).toBeInTheDocument();
  });

  it('refuses a duplicate name with the server message and keeps the input', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/laboratories/new/edit`, { t, token: adminToken, me });
    await userEvent.type(await screen.findByLabelText(/Name/), 'forensic lab bergen');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A laboratory named "forensic lab bergen" already exists');
    expect(screen.getByLabelText(/Name/)).toHaveValue('forensic lab bergen');
  });

  it('says the record changed when someone else saved it first, and keeps the edit', async () => {
    const me = await meOf(t, adminToken);
    const created = (await t.app.inject({ method: 'POST', url: '/api/laboratories', headers: { authorization: `Bearer ${adminToken}` }, payload: { name: 'Tromsø' } })).json() as { id: string };
    renderScreen(`/${orgId}/laboratories/${created.id}/edit`, { t, token: adminToken, me });
    const name = await screen.findByDisplayValue('Tromsø');
    await t.app.inject({ method: 'PUT', url: `/api/laboratories/${created.id}`, headers: { authorization: `Bearer ${adminToken}` }, payload: { name: 'Tromsø North', version: 1 } });
    await userEvent.clear(name);
    await userEvent.type(name, 'Tromsø South');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('changed by someone else');
    expect(screen.getByLabelText(/Name/)).toHaveValue('Tromsø South');
  });

  it('deletes only after confirmation', async () => {
    const me = await meOf(t, adminToken);
    const created = (await t.app.inject({ method: 'POST', url: '/api/laboratories', headers: { authorization: `Bearer ${adminToken}` }, payload: { name: 'To remove' } })).json() as { id: string };
    const view = renderScreen(`/${orgId}/laboratories/${created.id}/edit`, { t, token: adminToken, me });
    await screen.findByDisplayValue('To remove');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Delete laboratory "To remove"?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((await t.app.inject({ method: 'GET', url: `/api/laboratories/${created.id}`, headers: { authorization: `Bearer ${adminToken}` } })).statusCode).toBe(200);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/laboratories`));
    expect((await t.app.inject({ method: 'GET', url: `/api/laboratories/${created.id}`, headers: { authorization: `Bearer ${adminToken}` } })).statusCode).toBe(404);
  });

  it('shows a reader the table without Add', async () => {
    const me = await meOf(t, readerToken);
    renderScreen(`/${orgId}/laboratories`, { t, token: readerToken, me });
    expect(await screen.findByText('Forensic Lab Bergen')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add laboratory' })).not.toBeInTheDocument();
  });
});
