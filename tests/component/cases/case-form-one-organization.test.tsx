/**
 * Issue 30: a new laboratory has one organization; its administrator (scope All, at `all`) was asked to choose it on
 * the new-case form. The form starts with the only organization chosen and its users offered.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { caseTypes } from '../../../server/db/schema';
import { createTestApp, type TestApp } from '../../helpers/app';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 20_000 });

let t: TestApp;
let orgId = '';
let token = '';
beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Only Lab')).id;
  await db.insert(caseTypes).values({ name: 'Burglary' });
  const admin = await createUser(db, { email: 'admin@only.test', scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] });
  token = t.verifier.issue(admin.id);
}, 60_000);
afterAll(() => t.close());

describe('the new-case form where there is one organization', () => {
  it('starts with that organization chosen and offers its users', async () => {
    renderScreen('/all/cases/new/edit', { t, token, me: await meOf(t, token) });
    const organization = await within(screen.getByRole('main')).findByLabelText(/^Organization/);
    await waitFor(() => expect(organization).toHaveValue(orgId));
    expect(await screen.findByRole('checkbox', { name: /admin@only\.test/ })).toBeInTheDocument();
    expect(screen.queryByText('Choose the organization first.')).not.toBeInTheDocument();
  });
});
