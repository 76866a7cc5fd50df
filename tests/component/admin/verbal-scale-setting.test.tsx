/**
 * An organization's verbal scale (issue 18), on the organization's form: ENFSI 2015 until an administrator chooses
 * SWGDAM 2018 or none (saved with the version read, audited by the server); a change by someone else meanwhile is
 * said and read again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizations } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let adminToken: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] })).id);
}, 60_000);
afterAll(() => t.close());

const open = async () => renderScreen(`/${orgId}/organizations/${orgId}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
const stored = async () => (await t.database.db.select({ scale: organizations.verbalScale }).from(organizations).where(eq(organizations.id, orgId)))[0]!.scale;

describe('the organization’s verbal scale', () => {
  it('shows ENFSI 2015 and is changed to SWGDAM 2018 by an administrator', async () => {
    await open();
    const reports = within(await screen.findByRole('region', { name: 'Reports' }));
    const select = reports.getByRole('combobox', { name: 'Verbal scale' });
    await waitFor(() => expect(select).toHaveValue('enfsi-2015'));
    expect(select).toHaveAccessibleDescription(/state each likelihood ratio with its verbal equivalent/);
    await userEvent.selectOptions(select, 'swgdam-2018');
    expect(await reports.findByRole('status')).toHaveTextContent('Saved: reports use SWGDAM 2018 recommendation');
    expect(await stored()).toBe('swgdam-2018');
  });

  it('says so when someone else changed the organization meanwhile, and shows the setting as it now is', async () => {
    await open();
    const reports = within(await screen.findByRole('region', { name: 'Reports' }));
    const select = reports.getByRole('combobox', { name: 'Verbal scale' });
    await waitFor(() => expect(select).toHaveValue('swgdam-2018'));
    const [org] = await t.database.db.select().from(organizations).where(eq(organizations.id, orgId));
    const other = await t.app.inject({ method: 'PUT', url: `/api/organizations/${orgId}/report-settings`, headers: { authorization: `Bearer ${adminToken}` }, payload: { verbalScale: 'none', version: org!.version } });
    expect(other.statusCode, other.body).toBe(200);
    await userEvent.selectOptions(select, 'enfsi-2015');
    expect(await reports.findByRole('alert')).toHaveTextContent('Someone else changed this organization meanwhile');
    await waitFor(() => expect(select).toHaveValue('none'));
    expect(await stored()).toBe('none');
  });
});
