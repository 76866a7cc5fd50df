import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HitView } from '../../../core/schemas/hits';
import { emailOutbox, hits } from '../../../server/db/schema';
import { meOf, renderScreen } from '../screen-fixtures';
import { matchingWorld, type MatchingWorld } from './hit-fixtures';

// AG Grid's first load can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let world: MatchingWorld;
const tokens = {} as Record<'reviewer' | 'reader', string>;

beforeAll(async () => {
  world = await matchingWorld('CASE-BULK-1');
  tokens.reviewer = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Hits: ['Read', 'Publish'] });
  tokens.reader = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] });
}, 90_000);
afterAll(() => world.t.close());

const open = async (path: string, who: keyof typeof tokens) => renderScreen(path, { t: world.t, token: tokens[who], me: await meOf(world.t, tokens[who]) });
const labelOf = (name: string) => `Identity: ${name}-E (CASE-BULK-1) · ${name}-R (CASE-BULK-1)`;
const select = async (name: string) => userEvent.click(await screen.findByRole('checkbox', { name: `Select ${labelOf(name)}` }, { timeout: 10_000 }));
const bar = () => screen.getByRole('region', { name: 'Selected hits' });
const statusOf = async (id: string) => (await world.t.database.db.select({ status: hits.status }).from(hits).where(eq(hits.id, id)))[0]!.status;

describe('bulk review of hits', () => {
  it('publishes the selected hits with notify after a confirmation, names the one refused, and reads the list again', async () => {
    const [one, two, three] = [await world.identityHit('BA'), await world.identityHit('BB'), await world.identityHit('BC')];
    const view = await open(`/${world.orgId}/hits`, 'reviewer');
    for (const name of ['BA', 'BB', 'BC']) await select(name);
    expect(view.current()).toBe(`/${world.orgId}/hits`);
    expect(within(bar()).getByText('3 selected')).toBeInTheDocument();
    // Another reviewer rejects BC meanwhile.
    const current = (await world.t.app.inject({ method: 'GET', url: `/api/hits/${three}`, headers: { authorization: `Bearer ${tokens.reviewer}` } })).json() as HitView;
    await world.t.app.inject({ method: 'POST', url: `/api/hits/${three}/reject`, headers: { authorization: `Bearer ${tokens.reviewer}` }, payload: { reason: 'Relatives', version: current.hit.version } });

    await userEvent.click(within(bar()).getByRole('button', { name: 'Publish' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Publish 3 hits?' }));
    expect(dialog.getAllByRole('listitem').map((li) => li.textContent)).toEqual([labelOf('BA'), labelOf('BB'), labelOf('BC')]);
    expect(dialog.getByRole('checkbox', { name: 'Notify each case’s assigned users by e-mail' })).toBeChecked();
    await userEvent.type(dialog.getByLabelText('Comments'), 'Confirmed in batch');
    await userEvent.click(dialog.getByRole('button', { name: 'Publish 3 hits' }));

    const outcome = await screen.findByText('2 published; 1 refused.', {}, { timeout: 10_000 });
    expect(outcome.closest('[role="status"]')).toHaveTextContent(`${labelOf('BC')}: This hit is rejected; only a pending hit can be published.`);
    expect([await statusOf(one), await statusOf(two), await statusOf(three)]).toEqual(['published', 'published', 'rejected']);
    const mail = await world.t.database.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'nina@oslo.test'));
    expect(mail).toHaveLength(2);
    await waitFor(() => expect(screen.getByText('No hit is waiting for review.')).toBeInTheDocument(), { timeout: 10_000 });
  });

  it('rejects only with a reason', async () => {
    const id = await world.identityHit('BR');
    await open(`/${world.orgId}/hits`, 'reviewer');
    await select('BR');
    await userEvent.click(within(bar()).getByRole('button', { name: 'Reject' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Reject 1 hit?' }));
    expect(dialog.queryByRole('checkbox')).toBeNull();
    const confirm = dialog.getByRole('button', { name: 'Reject 1 hit' });
    expect(confirm).toBeDisabled();
    await userEvent.type(dialog.getByLabelText('Reason (required)'), 'Same person sampled twice');
    await userEvent.click(confirm);
    expect(await screen.findByText('1 rejected.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(await statusOf(id)).toBe('rejected');
  });

  it('offers no selection without Hits Publish, nor on the other lists', async () => {
    await world.identityHit('BN');
    const reader = await open(`/${world.orgId}/hits/all`, 'reader');
    expect(await screen.findByText(/BN-E \(CASE-BULK-1\)/, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
    reader.unmount();
    await open(`/${world.orgId}/hits/all`, 'reviewer');
    expect(await screen.findByText(/BN-E \(CASE-BULK-1\)/, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });
});
