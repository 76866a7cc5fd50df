/**
 * Issue 30: after a bulk approval of four profiles, two still showed "Pending" on the Review list until the page was
 * reloaded. The stream said profiles changed while the bulk call was under way (each approval announces itself), so
 * the list was being read, half-decided, when the call ended; the reload asked then must still run once that read is
 * shown. The stream and the API are faked at fetch: the real parser, machines, hub and grid run.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import type { OrganizationEventHub } from '../../../src/app/organization-events';
import { CHANGE_BATCH_MS } from '../../../src/app/use-organization-events';
import { fakeApiClient, OSLO, userWith } from '../app/shell-fixtures';
import { renderLiveReview } from './live-review-screen';

vi.setConfig({ testTimeout: 30_000 });

const REVIEWER = userWith({ Profiles: ['Read', 'Edit'] });
const profile = (n: number) =>
  ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, version: 1, organizationId: OSLO, caseId: OSLO, caseNumber: 'CASE-1', profileId: `S-${n}`, status: 'pending', kind: 'Autosomal' }) as unknown as Profile;
const hubs: OrganizationEventHub[] = [];
afterEach(() => hubs.splice(0).forEach((hub) => hub.close()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the profiles Review list after a bulk approval', () => {
  it('shows none of the approved profiles, though the list was being read while they were approved', async () => {
    let pending = [1, 2, 3, 4].map(profile);
    let reads = 0;
    let held: Promise<void> | null = null;
    const changed = () => opened[0]!.write(`data: ${JSON.stringify({ type: 'profiles', organizationId: OSLO })}\n\n`);
    const api = fakeApiClient(async (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/profiles') && request.method === 'GET') {
        reads++;
        const rows = pending;
        // The read the stream started mid-call answers only after the call has ended, with what it read then.
        if (held) await held;
        return Response.json({ items: rows, count: rows.length });
      }
      if (url.pathname.endsWith('/profiles/bulk-review')) {
        const body = (await request.json()) as { items: { id: string }[] };
        let release!: () => void;
        held = new Promise((resolve) => (release = resolve));
        // Two approvals commit and announce themselves; the list starts reading before the other two commit.
        pending = pending.slice(2);
        const before = reads;
        changed();
        await waitFor(() => expect(reads).toBeGreaterThan(before), { timeout: CHANGE_BATCH_MS * 10 });
        pending = [];
        setTimeout(() => {
          held = null;
          release();
        }, 50);
        return Response.json({ done: body.items.length, refused: 0, results: body.items.map((i) => ({ id: i.id, outcome: 'done', status: 200, message: '' })) });
      }
      return Response.json({ error: 'Not found' }, { status: 404 });
    });
    const { opened, open, hub } = renderLiveReview(api, REVIEWER, OSLO);
    hubs.push(hub);
    await screen.findByText(/\bS-4\b/);
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    opened[0]!.write(': connected\n\n');
    await waitFor(() => expect(reads).toBeGreaterThanOrEqual(2));
    await sleep(CHANGE_BATCH_MS);

    for (const n of [1, 2, 3, 4]) await userEvent.click(screen.getByRole('checkbox', { name: `Select S-${n} (CASE-1)` }));
    await userEvent.click(within(screen.getByRole('region', { name: 'Selected profiles' })).getByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Approve 4 profiles?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve 4 profiles' }));

    expect(await screen.findByText('4 approved.', {}, { timeout: 8000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No profile is waiting for review.')).toBeInTheDocument(), { timeout: 5000 });
    expect(screen.queryByText(/\bS-[1-4]\b/)).not.toBeInTheDocument();
  });
});
