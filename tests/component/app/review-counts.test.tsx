/**
 * Issue 18: what waits for review, beside the navigation's Profiles and Hits entries and on the
 * dashboard. The counts are read from GET organizations/{orgId}/review-counts and read again when the
 * organization's event stream says profiles or hits changed, or when the organization changes.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { OrganizationChange } from '../../../core/schemas/organization-events';
import type { Me } from '../../../core/schemas/me';
import type { ReviewCounts } from '../../../core/schemas/review-counts';
import { chemistries } from '../../../server/db/schema';
import { ApiContext } from '../../../src/app/api-provider';
import { OrganizationEventsContext, type OrganizationEventHub } from '../../../src/app/organization-events';
import { OrgArea } from '../../../src/app/org-area';
import { ShellSessionContext } from '../../../src/app/shell-session';
import { CHANGE_BATCH_MS } from '../../../src/app/use-organization-events';
import { matchingWorld, type MatchingWorld } from '../hits/hit-fixtures';
import { meOf, renderScreen } from '../screen-fixtures';
import { BERGEN, fakeApiClient, OSLO } from './shell-fixtures';

vi.setConfig({ testTimeout: 30_000 });

const reviewer = (permissions: Me['permissions']): Me => ({
  id: '44444444-4444-4444-8444-444444444444',
  email: 'rita.reviewer@lab.example',
  firstName: 'Rita',
  lastName: 'Reviewer',
  roleName: 'Reviewer',
  isAdmin: false,
  scope: 'Organization',
  organizations: [
    { id: OSLO, name: 'Oslo Laboratory' },
    { id: BERGEN, name: 'Bergen Laboratory' },
  ],
  permissions,
  licensesAccepted: true,
});
const REVIEWER = reviewer({ Cases: ['Read'], Profiles: ['Read', 'Edit'], Hits: ['Read', 'Publish'] });

/** A hub whose changes the test sends, as the organization's stream would. */
function fakeHub() {
  const listeners = new Map<string, Set<(change: OrganizationChange) => void>>();
  const hub: OrganizationEventHub = {
    follow(orgId, listener) {
      const set = listeners.get(orgId) ?? new Set();
      listeners.set(orgId, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    status: () => 'live',
    onStatus: () => () => undefined,
    retryNow: () => undefined,
    close: () => undefined,
  };
  const tell = (orgId: string, change: OrganizationChange) => act(() => listeners.get(orgId)?.forEach((l) => l(change)));
  return { hub, tell, following: (orgId: string) => listeners.get(orgId)?.size ?? 0 };
}

/** The shell at `path` over a fake API: the review counts answer what the test says now, every other call stays pending. */
function drawShell(path: string, opts: { counts: (orgId: string) => ReviewCounts; me?: Me }) {
  const reads: string[] = [];
  const api = fakeApiClient(async (request) => {
    const match = /\/api\/organizations\/([^/]+)\/review-counts$/.exec(new URL(request.url).pathname);
    if (!match) return new Promise<Response>(() => undefined);
    reads.push(match[1]!);
    return Response.json(opts.counts(match[1]!));
  });
  const events = fakeHub();
  const location = memoryLocation({ path, record: true });
  render(
    <Router hook={location.hook}>
      <ApiContext.Provider value={api}>
        <ShellSessionContext.Provider value={{ me: opts.me ?? REVIEWER, signOut: vi.fn(), acceptLicences: vi.fn(async () => undefined) }}>
          <OrganizationEventsContext.Provider value={events.hub}>
            <OrgArea />
          </OrganizationEventsContext.Provider>
        </ShellSessionContext.Provider>
      </ApiContext.Provider>
    </Router>,
  );
  return { reads, ...events, navigate: location.navigate };
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));
/** A badge, by what a screen reader reads of it. */
const badge = (text: string | RegExp) => nav().queryByText(text);
const findBadge = (text: string) => nav().findByText(text);

describe('review counts beside the navigation entries', () => {
  it('shows how many profiles and hits wait beside their entries, read out in words', async () => {
    drawShell(`/${OSLO}/cases`, { counts: () => ({ profilesPending: 3, hitsPending: 1 }) });
    const profiles = (await findBadge('3 profiles waiting for review')).parentElement!;
    // The figure is what the eye sees; the sentence is what a screen reader reads.
    expect(profiles).toHaveTextContent(/^33 profiles waiting for review$/);
    expect(within(profiles).getByText('3')).toHaveAttribute('aria-hidden', 'true');
    const hits = badge('1 hit waiting for review')!.parentElement!;
    // Beside the entries, which keep their names and where they lead.
    expect(profiles.closest('li')).toContainElement(nav().getByRole('link', { name: 'Profiles' }));
    expect(hits.closest('li')).toContainElement(nav().getByRole('link', { name: 'Hits' }));
    expect(nav().getByRole('link', { name: 'Hits' })).toHaveAttribute('href', `/${OSLO}/hits`);
  });

  it('reads again when profiles or hits change, once for a burst, and not for a change of searches', async () => {
    let counts: ReviewCounts = { profilesPending: 3, hitsPending: 1 };
    const shell = drawShell(`/${OSLO}/cases`, { counts: () => counts });
    await findBadge('3 profiles waiting for review');
    expect(shell.reads).toEqual([OSLO]);
    await waitFor(() => expect(shell.following(OSLO)).toBeGreaterThan(0));

    // An analyst imports two profiles in another browser.
    counts = { profilesPending: 5, hitsPending: 1 };
    shell.tell(OSLO, 'profiles');
    shell.tell(OSLO, 'profiles');
    expect((await findBadge('5 profiles waiting for review')).parentElement).toHaveTextContent(/^5/);
    expect(shell.reads).toHaveLength(2);

    // A reviewer publishes the hit.
    counts = { profilesPending: 5, hitsPending: 2 };
    shell.tell(OSLO, 'hits');
    expect(await findBadge('2 hits waiting for review')).toBeInTheDocument();

    shell.tell(OSLO, 'searches');
    await new Promise((resolve) => setTimeout(resolve, CHANGE_BATCH_MS * 2));
    expect(shell.reads).toHaveLength(3);
  });

  it('hides a count at 0, and a figure the user may not review', async () => {
    let counts: ReviewCounts = { profilesPending: 1, hitsPending: null };
    const shell = drawShell(`/${OSLO}/cases`, { counts: () => counts });
    await findBadge('1 profile waiting for review');
    expect(badge(/hits? waiting for review/)).not.toBeInTheDocument();

    counts = { profilesPending: 0, hitsPending: null };
    shell.tell(OSLO, 'profiles');
    await waitFor(() => expect(badge(/waiting for review/)).not.toBeInTheDocument());
    expect(nav().getByRole('link', { name: 'Profiles' })).toBeInTheDocument();
  });

  it('reads nothing for a user who may review neither list', async () => {
    const shell = drawShell(`/${OSLO}/cases`, { counts: () => ({ profilesPending: 9, hitsPending: 9 }), me: reviewer({ Cases: ['Read'], Hits: ['Read'] }) });
    await nav().findByRole('link', { name: 'Cases' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(shell.reads).toEqual([]);
    expect(badge(/waiting for review/)).not.toBeInTheDocument();
  });

  it('reads the other organization’s counts when the user switches, never showing the first one’s meanwhile', async () => {
    const shell = drawShell(`/${OSLO}/cases`, { counts: (orgId) => (orgId === OSLO ? { profilesPending: 3, hitsPending: 0 } : { profilesPending: 7, hitsPending: 0 }) });
    await findBadge('3 profiles waiting for review');
    act(() => shell.navigate(`/${BERGEN}/cases`));
    expect(badge('3 profiles waiting for review')).not.toBeInTheDocument();
    await findBadge('7 profiles waiting for review');
    expect(shell.reads).toEqual([OSLO, BERGEN]);
    // Bergen's changes are followed now.
    await waitFor(() => expect(shell.following(BERGEN)).toBeGreaterThan(0));
  });
});

describe('the dashboard’s Waiting for review panel (real server)', () => {
  let world: MatchingWorld;
  let token = '';

  beforeAll(async () => {
    world = await matchingWorld('CASE-REVIEW-COUNTS');
    // Two pending hits, and one pending profile entered by hand.
    await world.identityHit('WAIT-1');
    await world.identityHit('WAIT-2');
    token = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read', 'Add', 'Edit'], Hits: ['Read', 'Publish'] });
    const [chemistry] = await world.t.database.db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
    const added = await world.t.app.inject({
      method: 'POST',
      url: '/api/profiles',
      headers: { authorization: `Bearer ${token}` },
      payload: { caseId: world.caseId, chemistryId: chemistry!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: 'WAITING-1', markerValues: [] }] },
    });
    expect(added.statusCode, added.body).toBe(201);
  }, 120_000);
  afterAll(() => world?.t.close());

  it('shows both counts near the top, each linking to its review list, as the navigation does', async () => {
    const screenApp = renderScreen(`/${world.orgId}`, { t: world.t, token, me: await meOf(world.t, token) });
    const panel = within(await screen.findByRole('region', { name: 'Waiting for review' }));
    const profiles = await panel.findByRole('link', { name: '1 profile waiting for review' });
    expect(profiles).toHaveAttribute('href', `/${world.orgId}/profiles/review`);
    expect(panel.getByRole('link', { name: '2 hits waiting for review' })).toHaveAttribute('href', `/${world.orgId}/hits`);
    // The dashboard's first panel.
    expect(within(screen.getByRole('main')).getAllByRole('region')[0]).toHaveAccessibleName('Waiting for review');
    expect(nav().getByText('2 hits waiting for review')).toBeInTheDocument();

    await userEvent.click(profiles);
    expect(screenApp.current()).toBe(`/${world.orgId}/profiles/review`);
    expect(await screen.findByRole('heading', { name: 'Profile review', level: 1 })).toBeInTheDocument();
  });
});
