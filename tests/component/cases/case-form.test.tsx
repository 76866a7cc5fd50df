import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Case } from '../../../core/schemas/cases';
import { STALE_RECORD_MESSAGE } from '../../../core/schemas/list';
import { meOf, renderScreen } from '../screen-fixtures';
import { addCase, addProfileRow, call, createCaseWorld, type CaseWorld, type Who } from './case-fixtures';

// AG Grid's first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

let world: CaseWorld;
beforeAll(async () => {
  world = await createCaseWorld();
}, 60_000);
afterAll(() => world.t.close());

const open = async (path: string, who: Who) => renderScreen(path, { t: world.t, token: world.tokens[who], me: await meOf(world.t, world.tokens[who]) });
const GUID = '[0-9a-f-]{36}';
/** The page itself, without the header's organization switcher. */
const page = () => within(screen.getByRole('main'));

describe('the cases table', () => {
  it('lists the organization’s cases with their type, status and date, each leading to the case; Add with Cases Add', async () => {
    const listed = await addCase(world, '2026-0001');
    await addCase(world, '2026-0900', world.otherOrgId);
    const view = await open(`/${world.orgId}/cases`, 'analyst');
    const table = await screen.findByRole('grid');
    const link = await within(table).findByRole('link', { name: '2026-0001' }, { timeout: 10_000 });
    expect(link).toHaveAttribute('href', `/${world.orgId}/cases/${listed.id}`);
    expect(within(table).getByText('Burglary')).toBeInTheDocument();
    expect(within(table).getByText('Open')).toBeInTheDocument();
    // One organization: no Organization column; another organization's case is not listed.
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent?.trim())).toEqual(['Case', 'Case type', 'Status', 'Updated']);
    expect(within(table).queryByText('2026-0900')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add case' })).toHaveAttribute('href', `/${world.orgId}/cases/new/edit`);
    await userEvent.click(link);
    expect(view.current()).toBe(`/${world.orgId}/cases/${listed.id}`);
  });

  it('at all, lists every reachable organization’s cases with an Organization column', async () => {
    await addCase(world, '2026-0950', world.otherOrgId);
    await open('/all/cases', 'admin');
    const table = await screen.findByRole('grid');
    const row = (await within(table).findByText('2026-0950', {}, { timeout: 10_000 })).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Bergen Lab')).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent?.trim())).toContain('Organization');
  });

  it('offers no Add to a user without Cases Add', async () => {
    await addCase(world, '2026-0960');
    await open(`/${world.orgId}/cases`, 'reader');
    expect(await within(await screen.findByRole('grid')).findByText('2026-0960', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add case' })).not.toBeInTheDocument();
  });
});

describe('the case form', () => {
  it('says Required for empty fields, then saves the case with its assigned users and goes to its profiles', async () => {
    const view = await open(`/${world.orgId}/cases/new/edit`, 'analyst');
    expect(await screen.findByRole('heading', { name: 'New case' })).toBeInTheDocument();
    // The organization in the address is chosen; its users are offered.
    expect(await screen.findByRole('checkbox', { name: new RegExp(world.emails.reader) })).not.toBeChecked();
    expect(page().getByLabelText(/^Organization/)).toHaveValue(world.orgId);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(screen.getByLabelText(/^Case number/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Case type/)).toHaveAttribute('aria-invalid', 'true');

    await userEvent.type(screen.getByLabelText(/^Case number/), '2026-0042');
    await userEvent.selectOptions(screen.getByLabelText(/^Case type/), 'Homicide');
    await userEvent.click(screen.getByRole('checkbox', { name: new RegExp(world.emails.reader) }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toMatch(new RegExp(`^/${world.orgId}/cases/${GUID}/profiles$`)));
    const caseId = view.current()!.split('/')[3]!;
    const saved = await call<Case>(world, 'admin', 'GET', `/api/cases/${caseId}`);
    expect(saved).toMatchObject({ caseNumber: '2026-0042', caseTypeName: 'Homicide', organizationName: 'Oslo Lab' });
    expect(saved.assignedUsers.map((u) => u.email)).toEqual([world.emails.reader]);
    // The case view names the case in its heading and breadcrumb.
    expect(await screen.findByRole('heading', { name: 'Case 2026-0042' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await within(crumbs).findByRole('link', { name: '2026-0042' })).toHaveAttribute('href', `/${world.orgId}/cases/${caseId}`);
  });

  it('lets an administrator with scope All add a case type from the form and chooses it; others are not offered it', async () => {
    await open(`/${world.orgId}/cases/new/edit`, 'admin');
    await userEvent.click(await screen.findByRole('button', { name: 'New case type…' }));
    const dialog = await screen.findByRole('dialog', { name: 'New case type' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(within(dialog).getByText('Required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Arson');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText(/^Case type/)).toHaveDisplayValue('Arson');
    expect(screen.getByRole('button', { name: 'New organization…' })).toBeInTheDocument();
  });

  it('offers no inline case type or organization to a user who is not an administrator with scope All', async () => {
    await open(`/${world.orgId}/cases/new/edit`, 'analyst');
    expect(await screen.findByLabelText(/^Case type/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New case type…' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New organization…' })).not.toBeInTheDocument();
  });

  it('reads the users of another organization when it is chosen, dropping those who do not work there', async () => {
    await open(`/all/cases/new/edit`, 'admin');
    const organization = await page().findByLabelText(/^Organization/);
    expect(organization).toHaveValue('');
    expect(screen.getByText('Choose the organization first.')).toBeInTheDocument();
    await userEvent.selectOptions(organization, 'Oslo Lab');
    await userEvent.click(await screen.findByRole('checkbox', { name: new RegExp(world.emails.reader) }));
    await userEvent.selectOptions(organization, 'Bergen Lab');
    // Only the administrator (scope All) may work on a Bergen case.
    expect(await screen.findByRole('checkbox', { name: new RegExp(world.emails.admin) })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: new RegExp(world.emails.reader) })).not.toBeInTheDocument();
    await userEvent.selectOptions(organization, 'Oslo Lab');
    expect(await screen.findByRole('checkbox', { name: new RegExp(world.emails.reader) })).not.toBeChecked();
  });

  it('says the record changed when someone else saved the case meanwhile, keeping the input', async () => {
    const record = await addCase(world, '2026-0300');
    await open(`/${world.orgId}/cases/${record.id}/edit`, 'analyst');
    const number = await screen.findByLabelText(/^Case number/);
    await waitFor(() => expect(number).toHaveValue('2026-0300'));
    await call(world, 'admin', 'PUT', `/api/cases/${record.id}`, { caseNumber: '2026-0301', caseTypeId: world.caseTypeId, organizationId: world.orgId, assignedUserIds: [], version: record.version });
    await userEvent.clear(number);
    await userEvent.type(number, '2026-0302');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(STALE_RECORD_MESSAGE);
    expect(screen.getByLabelText(/^Case number/)).toHaveValue('2026-0302');
  });

  it('deletes a case after confirmation, and shows why a case with profiles cannot be deleted', async () => {
    const empty = await addCase(world, '2026-0400');
    const view = await open(`/${world.orgId}/cases/${empty.id}/edit`, 'analyst');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete?' });
    expect(dialog).toHaveTextContent('Delete case 2026-0400? This cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.current()).toBe(`/${world.orgId}/cases`));
    view.unmount();

    const withProfiles = await addCase(world, '2026-0401');
    await addProfileRow(world, withProfiles, 'S-0401-1');
    await open(`/${world.orgId}/cases/${withProfiles.id}/edit`, 'analyst');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Case 2026-0401 cannot be deleted: it has 1 profile. Delete them first.');
    // A refusal, not a stale edit: nothing to reload.
    expect(within(alert).queryByRole('button', { name: 'Load the current version' })).not.toBeInTheDocument();
  });
});
