import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KitAlleles } from '../../../core/schemas/kit-bins';
import { chemistries } from '../../../server/db/schema';
import { seedReferenceData } from '../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// Issue 31: the laboratory sets a kit's analytical thresholds, for the whole kit and per dye, on the kit's screen.

let t: TestApp;
let adminToken: string;
let orgId: string;
let esx17: { id: string; name: string };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [orgId] })).id);
  esx17 = (await db.select().from(chemistries)).find((c) => c.name === 'PowerPlex ESX 17')!;
}, 60_000);
afterAll(() => t.close());

const thresholdsOf = async () => ((await t.app.inject({ method: 'GET', url: `/api/chemistries/${esx17.id}/alleles`, headers: { authorization: `Bearer ${adminToken}` } })).json() as KitAlleles).thresholds;
const form = () => screen.findByRole('form', { name: 'Analytical thresholds' });

describe('a kit’s analytical thresholds', { timeout: 30_000 }, () => {
  it('sets the kit’s and a dye’s threshold, refuses a value that is not a positive number, and shows the saved values read back', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/autosomal-chemistries/${esx17.id}/edit`, { t, token: adminToken, me });
    const thresholds = await form();
    // One field per dye of the kit, described by its markers.
    expect(within(thresholds).getByLabelText('Blue dye (RFU)')).toHaveAccessibleDescription(/D3S1358/);
    expect(within(thresholds).getByLabelText('Whole kit (RFU)')).toHaveValue('');

    await userEvent.type(within(thresholds).getByLabelText('Whole kit (RFU)'), '-5');
    await userEvent.type(within(thresholds).getByLabelText('Green dye (RFU)'), 'abc');
    await userEvent.click(within(thresholds).getByRole('button', { name: 'Save thresholds' }));
    expect(await within(thresholds).findAllByText('An analytical threshold is a positive number of RFU')).toHaveLength(2);
    expect(await thresholdsOf()).toEqual({ kit: null, dyes: {} });

    await userEvent.clear(within(thresholds).getByLabelText('Whole kit (RFU)'));
    await userEvent.type(within(thresholds).getByLabelText('Whole kit (RFU)'), '50');
    await userEvent.clear(within(thresholds).getByLabelText('Green dye (RFU)'));
    await userEvent.type(within(thresholds).getByLabelText('Green dye (RFU)'), '250');
    await userEvent.click(within(thresholds).getByRole('button', { name: 'Save thresholds' }));
    expect(await within(thresholds).findByRole('status')).toHaveTextContent('Saved: the analytical thresholds of PowerPlex ESX 17.');
    expect(await thresholdsOf()).toEqual({ kit: 50, dyes: { green: 250 } });
    expect(within(thresholds).getByLabelText('Green dye (RFU)')).toHaveValue('250');

    // The kit's own form read the kit's new version: its name still saves.
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/autosomal-chemistries`));
  });

  it('shows the server’s refusal when someone else changed the kit meanwhile, keeps the typed value, and loads the current thresholds', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/autosomal-chemistries/${esx17.id}/edit`, { t, token: adminToken, me });
    const thresholds = await form();
    await waitFor(() => expect(within(thresholds).getByLabelText('Whole kit (RFU)')).toHaveValue('50'));
    const read = (await t.app.inject({ method: 'GET', url: `/api/chemistries/${esx17.id}/alleles`, headers: { authorization: `Bearer ${adminToken}` } })).json() as KitAlleles;
    const other = await t.app.inject({ method: 'PUT', url: `/api/autosomal-chemistries/${esx17.id}/thresholds`, headers: { authorization: `Bearer ${adminToken}` }, payload: { kit: 60, dyes: {}, version: read.version } });
    expect(other.statusCode, other.body).toBe(200);

    await userEvent.clear(within(thresholds).getByLabelText('Whole kit (RFU)'));
    await userEvent.type(within(thresholds).getByLabelText('Whole kit (RFU)'), '75');
    await userEvent.click(within(thresholds).getByRole('button', { name: 'Save thresholds' }));
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('Your changes are still in the form.');
    expect(within(thresholds).getByLabelText('Whole kit (RFU)')).toHaveValue('75');
    expect((await thresholdsOf()).kit).toBe(60);
    await userEvent.click(within(refusal).getByRole('button', { name: 'Load the current version' }));
    await waitFor(() => expect(within(thresholds).getByLabelText('Whole kit (RFU)')).toHaveValue('60'));
    expect(within(thresholds).getByLabelText('Green dye (RFU)')).toHaveValue('');
  });
});
