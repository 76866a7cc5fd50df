/**
 * Issue 18: the profiles Review list reads again when the organization's event stream says profiles changed (another
 * user imported or decided one), with no reload. The stream is faked at fetch: the real parser, machine and hub run.
 */
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import type { OrganizationEventHub } from '../../../src/app/organization-events';
import { fakeApiClient, OSLO, userWith } from '../app/shell-fixtures';
import { renderLiveReview } from './live-review-screen';

vi.setConfig({ testTimeout: 30_000 });

const REVIEWER = userWith({ Profiles: ['Read', 'Edit'] });

const profile = (n: number) =>
  ({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, organizationId: OSLO, caseId: OSLO, caseNumber: 'CASE-1', profileId: `S-${n}`, status: 'pending', kind: 'Autosomal' }) as unknown as Profile;

afterEach(() => hubs.splice(0).forEach((hub) => hub.close()));
const hubs: OrganizationEventHub[] = [];

describe('the profiles Review list with live updates', () => {
  it('shows a profile another user imported once the stream says profiles changed', async () => {
    let rows = [profile(1)];
    const statuses: (string | null)[] = [];
    const api = fakeApiClient(async (request) => {
      const url = new URL(request.url);
      if (url.pathname.endsWith('/profiles')) {
        statuses.push(url.searchParams.get('status'));
        return Response.json({ items: rows, count: rows.length });
      }
      return Response.json({ error: 'Not found' }, { status: 404 });
    });
    const { opened, open, hub } = renderLiveReview(api, REVIEWER, OSLO);
    hubs.push(hub);
    await screen.findByText(/\bS-1\b/);
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    opened[0]!.write(': connected\n\n');
    const reads = () => statuses.length;
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(2));

    // Another user imports a profile: the list shows it without a reload, still the pending ones only.
    rows = [profile(1), profile(2)];
    opened[0]!.write(`data: ${JSON.stringify({ type: 'profiles', organizationId: OSLO })}\n\n`);
    expect(await screen.findByText(/\bS-2\b/)).toBeInTheDocument();
    expect(statuses.every((s) => s === 'pending')).toBe(true);
  });
});
