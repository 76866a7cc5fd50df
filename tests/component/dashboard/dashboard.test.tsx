import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Entity, Verb } from '../../../core/permissions';
import { analyses, analysisGroups, cases, caseTypes, hits } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 20_000 });

const ROLES = {
  analyst: { TaskRequests: ['Read', 'Add', 'Edit'], Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] },
  casesOnly: { Cases: ['Read'] },
} satisfies Record<string, Partial<Record<Entity, Verb[]>>>;
type Who = keyof typeof ROLES;

let t: TestApp;
let orgId: string;
let otherOrgId: string;
const tokens = {} as Record<Who | 'otherLab', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  otherOrgId = (await createOrganization(db, 'Bergen Lab')).id;
  const [type] = await db.insert(caseTypes).values({ name: 'Burglary' }).returning();
  await db.insert(cases).values([
    { caseNumber: 'OSL-2026-1', caseTypeId: type!.id, organizationId: orgId, updatedAt: new Date('2026-01-01T10:00:00Z') },
    { caseNumber: 'OSL-2026-2', caseTypeId: type!.id, organizationId: orgId, updatedAt: new Date('2026-02-01T10:00:00Z') },
    { caseNumber: 'BRG-SECRET', caseTypeId: type!.id, organizationId: otherOrgId },
  ]);
  // Issue 18: the published-hits panel's data. One published hit per organization, and a pending one that stays off the panel.
  const [group] = await db.insert(analysisGroups).values({ name: 'Paternity' }).returning();
  const [trio] = await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Trio', kind: 'Computational' }).returning();
  const [duo] = await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Duo', kind: 'Computational' }).returning();
  const [bergenAnalysis] = await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Bergen only', kind: 'Computational' }).returning();
  await db.insert(hits).values([
    { organizationId: orgId, analysisId: trio!.id, markerCount: 20, status: 'published', dedupeKey: 'dashboard-1', createdAt: new Date('2026-03-02T09:00:00Z') },
    { organizationId: orgId, analysisId: duo!.id, markerCount: 20, status: 'pending', dedupeKey: 'dashboard-2' },
    { organizationId: otherOrgId, analysisId: bergenAnalysis!.id, markerCount: 20, status: 'published', dedupeKey: 'dashboard-3' },
  ]);
  for (const [who, grants] of Object.entries(ROLES) as [Who, (typeof ROLES)[Who]][]) {
    const group = await createAccessGroup(db, { grants });
    const user = await createUser(db, { email: `${who}@oslo.test`, accessGroupId: group.id, organizationIds: [orgId] });
    tokens[who] = t.verifier.issue(user.id);
  }
  const analystRole = await createAccessGroup(db, { grants: ROLES.analyst });
  tokens.otherLab = t.verifier.issue((await createUser(db, { email: 'bo@bergen.test', accessGroupId: analystRole.id, organizationIds: [otherOrgId] })).id);
}, 60_000);
afterAll(() => t.close());

const open = async (who: Who | 'otherLab', org = orgId) => renderScreen(`/${org}`, { t, token: tokens[who], me: await meOf(t, tokens[who]) });
const panel = (name: string) => screen.findByRole('region', { name });
/** The hidden table a screen reader reads for a chart, by its caption. */
const countsOf = async (caption: string) => {
  const table = await screen.findByRole('table', { name: caption });
  return Object.fromEntries(within(table).getAllByRole('row').slice(1).flatMap((row) => {
    const cells = within(row).getAllByRole('cell').map((c) => Number(c.textContent));
    const heads = within(table).getAllByRole('columnheader').slice(1).map((h) => h.textContent);
    return heads.map((h, i) => [`${within(row).getByRole('rowheader').textContent} ${h}`, cells[i]]);
  }));
};

describe('the dashboard', () => {
  it('creates a task assigned to a colleague, moves it on, and counts it in the statistics', async () => {
    await open('analyst');
    const tasks = await panel('Task requests');
    expect(await within(tasks).findByText('No open task requests.')).toBeInTheDocument();
    expect(await countsOf('Task requests by status')).toMatchObject({ 'Task requests Open': 0, 'Task requests In progress': 0 });

    await userEvent.click(within(tasks).getByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task request' });
    // Add task waits for the organization's users and cases to choose from.
    const add = within(dialog).getByRole('button', { name: 'Add task' });
    await waitFor(() => expect(add).toBeEnabled());
    await userEvent.click(add);
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Title/), 'Re-run sample 7');
    await userEvent.selectOptions(within(dialog).getByLabelText('Assigned to'), 'Test User (analyst@oslo.test)');
    await userEvent.selectOptions(within(dialog).getByLabelText('Case'), 'OSL-2026-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add task' }));

    const row = (await within(tasks).findByRole('rowheader', { name: /Re-run sample 7/ })).closest('tr')!;
    expect(within(row).getByText('Test User')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'OSL-2026-1' })).toBeInTheDocument();
    expect(within(row).getByText('Open')).toBeInTheDocument();
    await waitFor(async () => expect(await countsOf('Task requests by status')).toMatchObject({ 'Task requests Open': 1 }));

    // Open → in progress; a finished task leaves the list and the counts say so.
    await userEvent.click(within(row).getByRole('button', { name: 'Start: Re-run sample 7' }));
    await waitFor(() => expect(within(tasks).getByText('In progress')).toBeInTheDocument());
    await waitFor(async () => expect(await countsOf('Task requests by status')).toMatchObject({ 'Task requests Open': 0, 'Task requests In progress': 1 }));
    await userEvent.click(within(tasks).getByRole('button', { name: 'Mark done: Re-run sample 7' }));
    expect(await within(tasks).findByText('No open task requests.')).toBeInTheDocument();
    await waitFor(async () => expect(await countsOf('Task requests by status')).toMatchObject({ 'Task requests Done': 1, 'Task requests In progress': 0 }));
  });

  it('shows the server’s reason beside the field when the assignee is not one of the organization’s users', async () => {
    await open('analyst');
    const tasks = await panel('Task requests');
    await userEvent.click(within(tasks).getByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task request' });
    await userEvent.type(await within(dialog).findByLabelText(/Title/), 'Sneaky');
    // A user of another organization, as a tampered form would send.
    const select = within(dialog).getByLabelText('Assigned to') as HTMLSelectElement;
    const foreign = document.createElement('option');
    foreign.value = (await meOf(t, tokens.otherLab)).id;
    foreign.textContent = 'Bo';
    select.append(foreign);
    await userEvent.selectOptions(select, 'Bo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add task' }));
    expect(await within(dialog).findByText('Choose a user of the task’s organization')).toBeInTheDocument();
    expect(select).toHaveAttribute('aria-invalid', 'true');
  });

  it('lists the last cases changed, newest first, each leading to its case, and the organization’s users', async () => {
    await open('analyst');
    const recent = await panel('Recent cases');
    const links = await within(recent).findAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['OSL-2026-2', 'OSL-2026-1']);
    expect(links[0]).toHaveAttribute('href', expect.stringMatching(new RegExp(`^/${orgId}/cases/[0-9a-f-]{36}$`)));
    const users = await panel('Organization users');
    expect(await within(users).findByText('analyst@oslo.test', { exact: false })).toBeInTheDocument();
    expect(within(users).queryByText('bo@bergen.test', { exact: false })).not.toBeInTheDocument();
    expect(await countsOf('Profiles by kind and status')).toMatchObject({ 'Autosomal Pending': 0 });
  });

  it('lists the organization’s published hits, each downloadable (issue 18: the panel never received its data)', async () => {
    await open('analyst');
    const published = await panel('Published hits');
    expect(await within(published).findByText('Trio')).toBeInTheDocument();
    expect(within(published).getByRole('button', { name: /^Download the Trio hit of/ })).toBeInTheDocument();
    // Pending hits and other organizations' hits stay off it.
    expect(within(published).queryByText('Duo')).not.toBeInTheDocument();
    expect(within(published).queryByText('Bergen only')).not.toBeInTheDocument();
    expect(within(published).getAllByRole('listitem')).toHaveLength(1);
  });

  it('keeps another organization’s cases and tasks off its users’ dashboard', async () => {
    await open('otherLab', otherOrgId);
    const recent = await panel('Recent cases');
    expect((await within(recent).findAllByRole('link')).map((l) => l.textContent)).toEqual(['BRG-SECRET']);
    expect(await countsOf('Cases by status')).toEqual({ 'Cases Open': 1, 'Cases Closed': 0 });
  });

  it('shows only the panels the user has rights for', async () => {
    await open('casesOnly');
    expect(await panel('Recent cases')).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Cases by status' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Task requests' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Organization users' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Task requests by status' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Profiles by kind and status' })).not.toBeInTheDocument();
  });
});
