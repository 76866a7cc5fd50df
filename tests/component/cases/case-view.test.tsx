import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Case } from '../../../core/schemas/cases';
import { meOf, renderScreen } from '../screen-fixtures';
import { addCase, addProfileRow, call, createCaseWorld, type CaseWorld, type Who } from './case-fixtures';

// AG Grid's first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

let world: CaseWorld;
let record: Case;
beforeAll(async () => {
  world = await createCaseWorld();
  record = await addCase(world, '2026-0100', world.orgId, [world.userIds.reader]);
}, 60_000);
afterAll(() => world.t.close());

const open = async (path: string, who: Who) => renderScreen(path, { t: world.t, token: world.tokens[who], me: await meOf(world.t, world.tokens[who]) });
const caseTabs = () => screen.findByRole('navigation', { name: 'Case' });
const labels = (nav: HTMLElement) => within(nav).getAllByRole('link').map((l) => l.textContent);

describe('the case view', () => {
  it('shows the case’s facts and every tab to a user with all case rights, involved parties first', async () => {
    await open(`/${world.orgId}/cases/${record.id}`, 'analyst');
    expect(await screen.findByRole('heading', { name: 'Case 2026-0100' })).toBeInTheDocument();
    const fact = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling;
    expect(fact('Case type')).toHaveTextContent('Burglary');
    expect(fact('Organization')).toHaveTextContent('Oslo Lab');
    expect(fact('Status')).toHaveTextContent('Open');
    expect(fact('Assigned users')).toHaveTextContent('Test User');
    const tabs = await caseTabs();
    expect(labels(tabs)).toEqual(['Involved parties', 'Items', 'Hits', 'Profiles', 'Audit', 'Settings']);
    expect(within(tabs).getByRole('link', { name: 'Involved parties' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/edit`);
    expect(screen.getByRole('link', { name: 'Add involved party' })).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/invloved-parties/new/edit`);
  });

  it('hides Audit, Settings, Edit and every Add from a user who may only read', async () => {
    await open(`/${world.orgId}/cases/${record.id}/items`, 'reader');
    const tabs = await caseTabs();
    expect(labels(tabs)).toEqual(['Involved parties', 'Items', 'Hits', 'Profiles']);
    expect(within(tabs).getByRole('link', { name: 'Items' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { name: 'Physical items' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add item' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    await userEvent.click(within(tabs).getByRole('link', { name: 'Profiles' }));
    expect(await screen.findByRole('heading', { name: 'Profiles' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Import/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add profile' })).not.toBeInTheDocument();
  });

  it('shows Review, Published, Rejected and All hits with Hits Publish, only All without it, and no invented hits', async () => {
    await open(`/${world.orgId}/cases/${record.id}/hits`, 'analyst');
    const lists = await screen.findByRole('navigation', { name: 'Hit lists' });
    expect(labels(lists)).toEqual(['Review', 'Published', 'Rejected', 'All']);
    expect(within(lists).getByRole('link', { name: 'Review' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText('No hit is waiting for review.')).toBeInTheDocument();
  });

  it('sends a user without Hits Publish from the Review hits to All', async () => {
    const view = await open(`/${world.orgId}/cases/${record.id}/hits`, 'reader');
    await waitFor(() => expect(view.current()).toBe(`/${world.orgId}/cases/${record.id}/hits/all`));
    const lists = await screen.findByRole('navigation', { name: 'Hit lists' });
    expect(labels(lists)).toEqual(['All']);
    expect(within(await caseTabs()).getByRole('link', { name: 'Hits' })).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/hits/all`);
  });

  it('lists the case’s profiles, each leading to its view, with import and add for Profiles Add', async () => {
    const profileId = await addProfileRow(world, record, 'S-0100-7');
    await open(`/${world.orgId}/cases/${record.id}/profiles`, 'analyst');
    const grid = await screen.findByRole('grid');
    const link = await within(grid).findByRole('link', { name: 'S-0100-7' }, { timeout: 10_000 });
    expect(link).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/profiles/${profileId}`);
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent?.trim())).toEqual([
      'Profile', 'Type', 'Chemistry', 'Sample Type', 'Source', 'Item', 'Source Laboratory', 'Status',
    ]);
    const row = link.closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('GlobalFiler')).toBeInTheDocument();
    expect(within(row).getByText('Pending')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Import autosomal' })).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/profiles/autosomal/upload`);
    expect(screen.getByRole('link', { name: 'Import Y-STR' })).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/profiles/ystr/upload`);
    expect(screen.getByRole('link', { name: 'Add profile' })).toHaveAttribute('href', `/${world.orgId}/cases/${record.id}/profiles/new/edit`);
  });

  it('saves the settings, showing the new status above the tabs, and lists the change in the audit trail', async () => {
    await open(`/${world.orgId}/cases/${record.id}/settings`, 'analyst');
    const status = await screen.findByLabelText(/^Status/);
    await waitFor(() => expect(status).toHaveValue('Open'));
    await userEvent.selectOptions(status, 'Closed');
    await userEvent.type(screen.getByLabelText('Notes'), 'Court date set.');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Settings saved.');
    expect(screen.getByText('Status', { selector: 'dt' }).nextElementSibling).toHaveTextContent('Closed');
    expect(await call<Case>(world, 'admin', 'GET', `/api/cases/${record.id}`)).toMatchObject({ status: 'Closed', notes: 'Court date set.' });

    await userEvent.click(within(await caseTabs()).getByRole('link', { name: 'Audit' }));
    const grid = await screen.findByRole('grid');
    expect(await within(grid).findByText('Settings changed', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(grid).getByText(/Notes: — → Court date set\./)).toBeInTheDocument();
  });
});
