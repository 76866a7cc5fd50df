import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { analyses, analysisGroups } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// These screens draw AG Grid, whose first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

let t: TestApp;
let adminToken: string;
let orgId: string;
let kinshipId: string;
let paternityId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] })).id);
  const [kinship] = await db.insert(analysisGroups).values({ name: 'Kinship' }).returning();
  kinshipId = kinship!.id;
  await db.insert(analysisGroups).values({ name: 'Y-STR lineage' });
  const [paternity] = await db
    .insert(analyses)
    .values([
      { analysisGroupId: kinshipId, name: 'Paternity', label: 'PI', kind: 'Computational' },
      { analysisGroupId: kinshipId, name: 'Full siblings', label: 'SI', kind: 'Computational', active: false },
    ])
    .returning();
  paternityId = paternity!.id;
}, 60_000);
afterAll(() => t.close());

const breadcrumb = () => within(screen.getByRole('navigation', { name: 'Breadcrumb' }));

describe('analysis groups', () => {
  it('lists the groups with how many analyses each holds', async () => {
    renderScreen(`/${orgId}/analysis-groups`, { t, token: adminToken, me: await meOf(t, adminToken) });
    // The first grid of the file loads AG Grid cold; allow it more than the default second.
    const kinship = await screen.findByText('Kinship', {}, { timeout: 10_000 });
    expect(within(kinship.closest('[role="row"]') as HTMLElement).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByText('Y-STR lineage').closest('[role="row"]') as HTMLElement).getByText('0')).toBeInTheDocument();
  });

  it('shows a group with its name in the breadcrumb and its analyses; a row opens the analysis, named in the breadcrumb', async () => {
    const view = renderScreen(`/${orgId}/analysis-groups/${kinshipId}`, { t, token: adminToken, me: await meOf(t, adminToken) });
    expect(await screen.findByDisplayValue('Kinship')).toBeInTheDocument();
    expect(await breadcrumb().findByText('Kinship')).toBeInTheDocument();
    const analysesTable = screen.getByRole('group', { name: 'Analyses in Kinship' });
    const row = (await within(analysesTable).findByText('Full siblings')).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('No')).toBeInTheDocument();
    await userEvent.click(within(analysesTable).getByText('Paternity'));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/analysis-groups/${kinshipId}/analyses/${paternityId}`));
    expect(await breadcrumb().findByText('Paternity')).toBeInTheDocument();
    expect(breadcrumb().getByText('Kinship')).toBeInTheDocument();
  });

  it('says New in the breadcrumb for a new group, and n/a when the group cannot be found', async () => {
    const me = await meOf(t, adminToken);
    const fresh = renderScreen(`/${orgId}/analysis-groups/new`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New analysis group' })).toBeInTheDocument();
    expect(breadcrumb().getByText('New')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Analyses' })).not.toBeInTheDocument();
    fresh.unmount();
    renderScreen(`/${orgId}/analysis-groups/00000000-0000-4000-8000-000000000000`, { t, token: adminToken, me });
    expect(await breadcrumb().findByText('n/a')).toBeInTheDocument();
    expect(await screen.findByText('This record no longer exists.')).toBeInTheDocument();
  });

  it('refuses to delete a group that has analyses, naming them', async () => {
    renderScreen(`/${orgId}/analysis-groups/${kinshipId}`, { t, token: adminToken, me: await meOf(t, adminToken) });
    await screen.findByDisplayValue('Kinship');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Analysis group "Kinship" cannot be deleted: it still has analyses (Full siblings, Paternity)');
  });
});
