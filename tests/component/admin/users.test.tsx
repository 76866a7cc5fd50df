import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRecord, UserSummary } from '../../../core/schemas/users';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

let t: TestApp;
let orgId: string;
let otherOrgId: string;
let limitedRoleId: string;
const tokens: Record<string, string> = {};
let colleagueId: string;
let colleagueOfAllId: string;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  otherOrgId = (await createOrganization(db, 'Bergen Lab')).id;
  const adminRole = (await createAccessGroup(db, { name: 'Administrator', isAdmin: true })).id;
  limitedRoleId = (await createAccessGroup(db, { name: 'Case reader', grants: { Cases: ['Read', 'ViewAudit'] } })).id;
  const managerRole = (await createAccessGroup(db, { name: 'User manager', grants: { Users: ['Read', 'Add', 'Edit'] } })).id;
  const people: [string, Parameters<typeof createUser>[1]][] = [
    ['admin', { email: 'admin@oslo.test', scope: 'All', accessGroupId: adminRole, organizationIds: [orgId] }],
    ['managerAll', { email: 'manager.all@oslo.test', scope: 'All', accessGroupId: managerRole, organizationIds: [orgId] }],
    ['managerOslo', { email: 'manager@oslo.test', scope: 'Organization', accessGroupId: managerRole, organizationIds: [orgId] }],
    ['orgAdmin', { email: 'org.admin@oslo.test', scope: 'Organization', accessGroupId: adminRole, organizationIds: [orgId] }],
  ];
  for (const [name, opts] of people) {
    const id = (await createUser(db, opts)).id;
    if (name === 'admin') adminId = id;
    tokens[name] = t.verifier.issue(id);
  }
  colleagueId = (await createUser(db, { email: 'colleague@oslo.test', accessGroupId: limitedRoleId, organizationIds: [orgId] })).id;
  colleagueOfAllId = (await createUser(db, { email: 'reader.all@oslo.test', scope: 'All', accessGroupId: limitedRoleId, organizationIds: [orgId] })).id;
}, 60_000);
afterAll(() => t.close());

const as = async (who: string, path: string) => renderScreen(path, { t, token: tokens[who]!, me: await meOf(t, tokens[who]!) });
const apiGet = async <T,>(url: string) => (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens.admin}` } })).json() as T;

describe('users', () => {
  it('creates a user in an organization with a limited role, after Required on an empty e-mail', async () => {
    const view = await as('admin', `/${orgId}/users/new/edit`);
    expect(await screen.findByRole('heading', { name: 'New user' })).toBeInTheDocument();
    // The form shows once the organizations and roles to choose from are read.
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(within(screen.getByLabelText(/Email/).closest('.field') as HTMLElement).getByText('Required')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/Email/), 'dana@bergen.test');
    await userEvent.type(screen.getByLabelText('First Name'), 'Dana');
    await userEvent.type(screen.getByLabelText('Last Name'), 'Berg');
    await userEvent.selectOptions(screen.getByLabelText(/Scope/), 'Organization');
    const organizations = screen.getByRole('group', { name: 'Organizations' });
    // A new user starts in the organization being viewed; this one moves to Bergen.
    expect(within(organizations).getByRole('checkbox', { name: 'Oslo Lab' })).toBeChecked();
    await userEvent.click(within(organizations).getByRole('checkbox', { name: 'Oslo Lab' }));
    await userEvent.click(within(organizations).getByRole('checkbox', { name: 'Bergen Lab' }));
    await userEvent.selectOptions(screen.getByLabelText(/Role/), 'Case reader');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`/${orgId}/users`));
    const list = await apiGet<{ items: UserSummary[] }>('/api/users?search=dana');
    expect(list.items).toEqual([
      expect.objectContaining({ email: 'dana@bergen.test', firstName: 'Dana', lastName: 'Berg', scope: 'Organization', organizations: [{ id: otherOrgId, name: 'Bergen Lab' }], role: { id: limitedRoleId, name: 'Case reader' } }),
    ]);
  }, 20_000);

  it('lists an organization’s users with the columns of spec 2.7', async () => {
    await as('admin', `/${orgId}/users`);
    // The grid asks the server for its first block after it mounts.
    expect(await screen.findByText('colleague@oslo.test', {}, { timeout: 5000 })).toBeInTheDocument();
    for (const header of ['Email', 'First Name', 'Last Name', 'Scope', 'Organizations', 'Role']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    const row = screen.getByText('colleague@oslo.test').closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Case reader')).toBeInTheDocument();
    expect(within(row).getByText('Oslo Lab')).toBeInTheDocument();
    // Dana is in Bergen only: not among Oslo's users.
    expect(screen.queryByText('dana@bergen.test')).not.toBeInTheDocument();
  });

  it("hides role, lockout and notifications from a non-administrator with Users Edit, and keeps them when saving", async () => {
    const view = await as('managerAll', `/${orgId}/users/${colleagueId}/edit`);
    const firstName = await screen.findByLabelText('First Name');
    expect(screen.queryByLabelText(/Role/)).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Locked out' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Receive notifications' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create set-password link' })).not.toBeInTheDocument();
    // Scope All: organization assignment is offered.
    expect(screen.getByRole('group', { name: 'Organizations' })).toBeInTheDocument();
    await userEvent.clear(firstName);
    await userEvent.type(firstName, 'Colin');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/users`));
    expect(await apiGet<UserRecord>(`/api/users/${colleagueId}`)).toMatchObject({ firstName: 'Colin', role: { name: 'Case reader' }, lockedOut: false });
  }, 20_000);

  it('shows a scope-All user to an administrator of one organization read-only, saying who may change them', async () => {
    await as('orgAdmin', `/${orgId}/users/${adminId}/edit`);
    expect(await screen.findByLabelText('Last Name')).toBeDisabled();
    expect(screen.getByLabelText(/Email/)).toBeDisabled();
    expect(screen.getByRole('note')).toHaveTextContent('Only a user with scope All may change a user with scope All');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set password' })).not.toBeInTheDocument();
  });

  it("lets a user manager with scope All edit a scope-All user's names only, sending the rest unchanged", async () => {
    const view = await as('managerAll', `/${orgId}/users/${colleagueOfAllId}/edit`);
    const lastName = await screen.findByLabelText('Last Name');
    expect(screen.getByLabelText(/Scope/)).toBeDisabled();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await userEvent.clear(lastName);
    await userEvent.type(lastName, 'Lovelace');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/users`));
    expect(await apiGet<UserRecord>(`/api/users/${colleagueOfAllId}`)).toMatchObject({ lastName: 'Lovelace', scope: 'All', role: { name: 'Case reader' } });
  }, 20_000);

  it('hides the organization checkboxes from a user without scope All', async () => {
    await as('managerOslo', `/${orgId}/users/${colleagueId}/edit`);
    expect(await screen.findByLabelText('First Name')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Organizations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'All' })).not.toBeInTheDocument();
  });

  it('shows the user’s e-mail in the breadcrumb and the administrator-only fields to an administrator', async () => {
    await as('admin', `/${orgId}/users/${colleagueId}/edit`);
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(await within(trail).findByText('colleague@oslo.test')).toBeInTheDocument();
    expect(await screen.findByLabelText(/Role/)).toHaveDisplayValue('Case reader');
    expect(screen.getByRole('checkbox', { name: 'Locked out' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Receive notifications' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('creates a set-password link an administrator can copy', async () => {
    await as('admin', `/${orgId}/users/${colleagueId}/edit`);
    await userEvent.click(await screen.findByRole('button', { name: 'Create set-password link' }));
    const link = await screen.findByRole('textbox', { name: 'Set-password link' });
    expect((link as HTMLInputElement).value).toMatch(/^http:\/\/localhost:8080\/oidc\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(screen.getByText(/Send it to colleague@oslo.test only/)).toBeInTheDocument();
  });

  it('sets a password through the dialog, refusing a short one first', async () => {
    await as('admin', `/${orgId}/users/${colleagueId}/edit`);
    await userEvent.click(await screen.findByRole('button', { name: 'Set password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set password' });
    await userEvent.type(within(dialog).getByLabelText(/New password/), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set password' }));
    expect(await within(dialog).findByText('At least 12 characters')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText(/New password/));
    await userEvent.type(within(dialog).getByLabelText(/New password/), 'a long enough passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Set password' }));
    expect(await within(dialog).findByText('The password of colleague@oslo.test is set.', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect((await apiGet<UserRecord>(`/api/users/${colleagueId}`)).hasPassword).toBe(true);
  }, 30_000);
});
