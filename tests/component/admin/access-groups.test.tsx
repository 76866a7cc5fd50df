import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessGroups } from '../../../server/db/schema';
import { ADMIN_ROLE_NOTE } from '../../../src/admin/access-groups/role-edit';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

let t: TestApp;
let adminToken: string;
let orgId: string;
let analystRoleId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admin = await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { name: 'Administrator', isAdmin: true })).id, organizationIds: [orgId] });
  analystRoleId = (await createAccessGroup(db, { name: 'Analyst', grants: { Cases: ['Read', 'Add'], Hits: ['Read'] } })).id;
  await createUser(db, { email: 'ann@oslo.test', accessGroupId: analystRoleId, organizationIds: [orgId] });
  adminToken = t.verifier.issue(admin.id);
}, 60_000);
afterAll(() => t.close());

const grantsOf = async (name: string) => {
  const [role] = await t.database.db.select().from(accessGroups).where(eq(accessGroups.name, name));
  const res = await t.app.inject({ method: 'GET', url: `/api/access-groups/${role!.id}`, headers: { authorization: `Bearer ${adminToken}` } });
  return res.json() as { isAdmin: boolean; permissions: Record<string, string[]> };
};

describe('roles', () => {
  it('creates a role with a limited permission matrix: Required on an empty name, then saved and listed', async () => {
    const view = renderScreen(`/${orgId}/access-groups/new/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    expect(await screen.findByRole('heading', { name: 'New role' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(/Name/), 'Case reader');
    const matrix = screen.getByRole('table', { name: 'Permissions' });
    for (const box of ['Cases Read', 'Cases View audit', 'Y-STR chemistries Read']) {
      await userEvent.click(within(matrix).getByRole('checkbox', { name: box }));
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/access-groups`));
    const row = (await screen.findByText('Case reader', {}, { timeout: 5000 })).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('No')).toBeInTheDocument();
    expect(await grantsOf('Case reader')).toEqual(expect.objectContaining({ isAdmin: false, permissions: { Cases: ['Read', 'ViewAudit'], YStrChemistries: ['Read'] } }));
  }, 20_000);

  it('draws the matrix as a table with a header per verb and per entity', async () => {
    renderScreen(`/${orgId}/access-groups/${analystRoleId}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const matrix = await screen.findByRole('table', { name: 'Permissions' });
    const headers = within(matrix).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Entity', 'Read', 'Add', 'Edit', 'Delete', 'Publish', 'Reset', 'View audit', 'Change settings']);
    expect(within(matrix).getByRole('rowheader', { name: 'Case types' })).toBeInTheDocument();
    expect(within(matrix).getByRole('checkbox', { name: 'Cases Add' })).toBeChecked();
    expect(within(matrix).getByRole('checkbox', { name: 'Cases Delete' })).not.toBeChecked();
    expect(within(matrix).getByRole('checkbox', { name: 'Hits Read' })).toBeChecked();
  });

  it('shows the role name in the breadcrumb', async () => {
    renderScreen(`/${orgId}/access-groups/${analystRoleId}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const trail = await screen.findByRole('navigation', { name: /breadcrumb/i });
    expect(await within(trail).findByText('Analyst')).toBeInTheDocument();
  });

  it('says, while Admin is checked, that the matrix is kept but unused, and saves it unchanged', async () => {
    const created = await createAccessGroup(t.database.db, { name: 'Lead', grants: { Hits: ['Publish'] } });
    const view = renderScreen(`/${orgId}/access-groups/${created.id}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const admin = await screen.findByRole('checkbox', { name: 'Admin' });
    expect(screen.queryByText(ADMIN_ROLE_NOTE)).not.toBeInTheDocument();
    await userEvent.click(admin);
    expect(screen.getByText(ADMIN_ROLE_NOTE)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/access-groups`));
    expect(await grantsOf('Lead')).toEqual(expect.objectContaining({ isAdmin: true, permissions: { Hits: ['Publish'] } }));
  }, 20_000);

  it('refuses to delete a role that users still have, naming them', async () => {
    renderScreen(`/${orgId}/access-groups/${analystRoleId}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    await screen.findByDisplayValue('Analyst');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Role "Analyst" is assigned to 1 user: ann@oslo.test');
  });
});
