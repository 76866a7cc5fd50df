import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HitView } from '../../../core/schemas/hits';
import { emailOutbox } from '../../../server/db/schema';
import { meOf, renderScreen } from '../screen-fixtures';
import { CODIS_PROFILE, matchingWorld, type MatchingWorld } from './hit-fixtures';

// AG Grid's first load and KaTeX in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let world: MatchingWorld;
const tokens = {} as Record<'reviewer' | 'reader', string>;

beforeAll(async () => {
  world = await matchingWorld();
  tokens.reviewer = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Analyses: ['Read'], Markers: ['Read'], Hits: ['Read', 'Publish', 'Reset'] });
  tokens.reader = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] });
}, 90_000);
afterAll(() => world.t.close());

const open = async (path: string, who: keyof typeof tokens) => renderScreen(path, { t: world.t, token: tokens[who], me: await meOf(world.t, tokens[who]) });
const labels = (nav: HTMLElement) => within(nav).getAllByRole('link').map((l) => l.textContent);
const api = (who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) =>
  world.t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

/** The grid row showing `text` (AG Grid rows are role="row"). */
async function rowWith(text: string) {
  const grid = await screen.findByRole('grid');
  return (await within(grid).findByText(text, {}, { timeout: 10_000 })).closest('[role="row"]') as HTMLElement;
}

/** Sends a decision from the review panel and confirms it. */
async function decide(button: string, text = '') {
  const panel = within(await screen.findByRole('region', { name: 'Review' }));
  if (text) await userEvent.type(panel.getByLabelText(/^Comments/), text);
  await userEvent.click(panel.getByRole('button', { name: button }));
  const dialog = within(await screen.findByRole('alertdialog'));
  await userEvent.click(dialog.getByRole('button', { name: button }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
}

const statusOf = async () => (await screen.findByText('Status')).nextSibling;

describe('the hit lists', () => {
  it('shows Review, Published, Rejected and All to a publisher, with the spec columns and the probability text', async () => {
    await world.identityHit('LIST');
    await open(`/${world.orgId}/hits`, 'reviewer');
    const tabs = await screen.findByRole('navigation', { name: 'Hit lists' });
    expect(labels(tabs)).toEqual(['Review', 'Published', 'Rejected', 'All']);
    expect(within(tabs).getByRole('link', { name: 'Review' })).toHaveAttribute('aria-current', 'page');
    const row = within(await rowWith('LIST-E (CASE-HITS-1) · LIST-R (CASE-HITS-1)'));
    expect(within(await screen.findByRole('grid')).getAllByRole('columnheader').map((h) => h.textContent?.trim())).toEqual(['Select', 'Date', 'Analysis', 'Probability', 'Population', 'Profiles', 'Chance hits expected', 'Rule', 'Download']);
    expect(row.getByText('Identity')).toBeInTheDocument();
    expect(row.getByText('99.99% (CI 2.50e+15)')).toBeInTheDocument();
    expect(row.getByText('FBI 2015 Caucasian')).toBeInTheDocument();
    expect(row.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  });

  it('downloads a row’s PDF report from the list without opening the hit', async () => {
    await world.identityHit('ROWPDF');
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:hit');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const view = await open(`/${world.orgId}/hits`, 'reviewer');
    const row = within(await rowWith('ROWPDF-E (CASE-HITS-1) · ROWPDF-R (CASE-HITS-1)'));
    await userEvent.click(row.getByRole('button', { name: 'Download PDF' }));
    expect(await row.findByText('Saved Hit_Identity_ROWPDF-E_ROWPDF-R.pdf')).toBeInTheDocument();
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(new TextDecoder().decode((await blob.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    expect(view.current()).toBe(`/${world.orgId}/hits`);
    vi.restoreAllMocks();
  });

  it('shows a user without Hits Publish only All, sending the Review tab there', async () => {
    await world.identityHit('READER');
    const view = await open(`/${world.orgId}/hits`, 'reader');
    await waitFor(() => expect(view.current()).toBe(`/${world.orgId}/hits/all`));
    expect(labels(await screen.findByRole('navigation', { name: 'Hit lists' }))).toEqual(['All']);
    expect(within(await rowWith('READER-E (CASE-HITS-1) · READER-R (CASE-HITS-1)')).getByText('Pending')).toBeInTheDocument();
  });

  it('opens HitView from a row', async () => {
    const id = await world.identityHit('OPEN');
    const view = await open(`/${world.orgId}/hits`, 'reviewer');
    await userEvent.click(within(await rowWith('OPEN-E (CASE-HITS-1) · OPEN-R (CASE-HITS-1)')).getByText('Identity'));
    await waitFor(() => expect(view.current()).toBe(`/${world.orgId}/hits/${id}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Identity: OPEN-E – OPEN-R' })).toBeInTheDocument();
  });

  it('lists the case’s and the profile’s hits with the same list', async () => {
    const id = await world.identityHit('CASE');
    const profileId = ((await api('reviewer', 'GET', `/api/hits/${id}`)).json() as HitView).hit.profiles[0]!.profileId;
    const caseView = await open(`/${world.orgId}/cases/${world.caseId}/hits`, 'reviewer');
    expect(labels(await screen.findByRole('navigation', { name: 'Hit lists' }))).toEqual(['Review', 'Published', 'Rejected', 'All']);
    expect(await rowWith('CASE-E (CASE-HITS-1) · CASE-R (CASE-HITS-1)')).toBeInTheDocument();
    caseView.unmount();
    await open(`/${world.orgId}/cases/${world.caseId}/profiles/${profileId}/hits`, 'reader');
    expect(within(await rowWith('CASE-E (CASE-HITS-1) · CASE-R (CASE-HITS-1)')).getByText('Pending')).toBeInTheDocument();
    expect(screen.queryByText(/REFERENCE|LIST-E/)).toBeNull();
  });
});

describe('the database searches approvals start', () => {
  it('shows each approved profile’s search and how many hits it recorded, and those hits are in Review', async () => {
    // A stain and an offender with the same genotype: the search rules make one identity hit of them.
    await world.approveThroughApi('PROG-1', CODIS_PROFILE, 'Forensic, Unknown');
    // PROG-1's search ends before PROG-2 is approved, so PROG-2's search is the one that finds the pair.
    await waitFor(async () => expect(((await api('reviewer', 'GET', `/api/organizations/${world.orgId}/searches`)).json() as { items: { status: string }[] }).items.every((j) => j.status === 'done')).toBe(true));
    await world.approveThroughApi('PROG-2', CODIS_PROFILE, 'Convicted Offender');
    await open(`/${world.orgId}/hits`, 'reviewer');
    const panel = within(await screen.findByRole('region', { name: 'Database searches' }));
    // PROG-1 was searched alone (nothing to match yet); PROG-2 found PROG-1: one match, one hit.
    await waitFor(() => expect(panel.getByText('PROG-2').nextElementSibling).toHaveTextContent(/^done, 1 new hit/));
    expect(panel.getByText('PROG-1').nextElementSibling).toHaveTextContent('done, 0 new hits');
    const grid = within(await screen.findByRole('grid'));
    await waitFor(() => expect(grid.getAllByText(/PROG-1 \(CASE-HITS-1\)/)).toHaveLength(1), { timeout: 15_000 });
    // AG Grid fills a row's cells over several frames: on a busy machine the analysis cell comes after the profiles'.
    await waitFor(() => expect(grid.getAllByText('Identity').length).toBeGreaterThan(0));
  });

  it('is not shown to a user who may not read profiles', async () => {
    const hitsOnly = await world.tokenFor({ Hits: ['Read', 'Publish'] });
    renderScreen(`/${world.orgId}/hits`, { t: world.t, token: hitsOnly, me: await meOf(world.t, hitsOnly) });
    await screen.findByRole('grid');
    expect(screen.queryByRole('region', { name: 'Database searches' })).toBeNull();
  });
});

describe('HitView and its review', () => {
  it('shows the profiles side by side per marker with pattern, formula and value, the population and the figures', async () => {
    const id = await world.identityHit('VIEW');
    await open(`/${world.orgId}/hits/${id}`, 'reviewer');
    const table = within(await screen.findByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Marker', 'Evidence: VIEW-E', 'Reference: VIEW-R', 'Pattern', 'Formula', 'Value']);
    const th01 = table.getByRole('rowheader', { name: 'TH01' }).closest('tr')!;
    const cells = within(th01).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('6, 9.3');
    expect(cells[1]).toHaveTextContent('6, 9.3');
    expect(th01.querySelector('.katex')).not.toBeNull();
    expect(cells[4]!.textContent).toMatch(/^\d\.\d{2}e[+-]\d+$/);
    expect((await statusOf())).toHaveTextContent('Pending');
    expect(screen.getByText('Population').nextSibling).toHaveTextContent('FBI 2015 Caucasian');
    expect(screen.getByText('Combined index').nextSibling).toHaveTextContent('2.50e+15');
    expect(screen.getByText('Probability').nextSibling).toHaveTextContent('99.99% (CI 2.50e+15)');
    const history = within(screen.getByRole('region', { name: 'History' }));
    expect(history.getByText('Found by the database search')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Download PDF' }).length).toBeGreaterThan(0);
  });

  it('publishes with comments and notify: the assigned user is e-mailed, the history says so and the hit is in Published', async () => {
    const id = await world.identityHit('PUB');
    const view = await open(`/${world.orgId}/hits/${id}`, 'reviewer');
    expect(await screen.findByLabelText('Notify the case’s assigned users by e-mail on publishing')).toBeChecked();
    await decide('Publish', 'Confirmed by a second analyst');
    expect(await screen.findByText('Published.')).toBeInTheDocument();
    expect(await statusOf()).toHaveTextContent('Published');
    const history = within(screen.getByRole('region', { name: 'History' }));
    expect(await history.findByText('Published, assigned users notified')).toBeInTheDocument();
    expect(history.getByText('Confirmed by a second analyst')).toBeInTheDocument();
    const mails = await world.t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'nina@oslo.test'));
    expect(mails.length).toBeGreaterThan(0);
    // Only Reset is offered on a published hit, once a reason is given (a retraction: hit-retraction.test.tsx).
    const panel = within(screen.getByRole('region', { name: 'Review' }));
    expect(panel.getByRole('button', { name: 'Reset to pending' })).toBeDisabled();
    await userEvent.type(panel.getByLabelText('Reason for retracting (required)'), 'Wrong reference');
    expect(panel.getByRole('button', { name: 'Reset to pending' })).toBeEnabled();
    expect(panel.queryByRole('button', { name: 'Publish' })).toBeNull();
    view.unmount();
    await open(`/${world.orgId}/hits/published`, 'reviewer');
    expect(await rowWith('PUB-E (CASE-HITS-1) · PUB-R (CASE-HITS-1)')).toBeInTheDocument();
  });

  it('rejects only with a reason, and a reset brings the hit back to Review', async () => {
    const id = await world.identityHit('REJ');
    const view = await open(`/${world.orgId}/hits/${id}`, 'reviewer');
    const panel = within(await screen.findByRole('region', { name: 'Review' }));
    expect(panel.getByRole('button', { name: 'Reject' })).toBeDisabled();
    await userEvent.type(panel.getByLabelText(/^Comments/), '   ');
    expect(panel.getByRole('button', { name: 'Reject' })).toBeDisabled();
    await userEvent.clear(panel.getByLabelText(/^Comments/));
    await decide('Reject', 'Two samples of the same person');
    expect(await statusOf()).toHaveTextContent('Rejected');
    expect(within(screen.getByRole('region', { name: 'History' })).getByText('Two samples of the same person')).toBeInTheDocument();

    await decide('Reset to pending', 'Reviewed again');
    expect(await screen.findByText('Reset to pending.')).toBeInTheDocument();
    expect(await statusOf()).toHaveTextContent('Pending');
    expect(within(screen.getByRole('region', { name: 'History' })).getByText('Reset to pending (was rejected)')).toBeInTheDocument();
    view.unmount();
    await open(`/${world.orgId}/hits`, 'reviewer');
    expect(await rowWith('REJ-E (CASE-HITS-1) · REJ-R (CASE-HITS-1)')).toBeInTheDocument();
  });

  it('says another reviewer decided first (409) and offers only to reload the hit', async () => {
    const id = await world.identityHit('STALE');
    await open(`/${world.orgId}/hits/${id}`, 'reviewer');
    await screen.findByRole('region', { name: 'Review' });
    // A second reviewer publishes while this screen still shows the hit pending.
    const first = await api('reviewer', 'POST', `/api/hits/${id}/publish`, { version: 1, comments: 'First', notify: false });
    expect(first.statusCode, first.body).toBe(200);

    await decide('Reject', 'Relatives');
    const alert = within(await screen.findByRole('alert'));
    expect(alert.getByText(/another reviewer may have decided it first/)).toBeInTheDocument();
    const panel = within(screen.getByRole('region', { name: 'Review' }));
    expect(panel.queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(panel.queryByRole('button', { name: 'Try again' })).toBeNull();
    await userEvent.click(alert.getByRole('button', { name: 'Reload the hit' }));
    await waitFor(async () => expect(await statusOf()).toHaveTextContent('Published'));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(within(screen.getByRole('region', { name: 'Review' })).getByRole('button', { name: 'Reset to pending' })).toBeEnabled();
  });

  it('offers a reader no decision', async () => {
    const id = await world.identityHit('READONLY');
    await open(`/${world.orgId}/hits/${id}`, 'reader');
    expect(await statusOf()).toHaveTextContent('Pending');
    expect(screen.queryByRole('region', { name: 'Review' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
  });
});
