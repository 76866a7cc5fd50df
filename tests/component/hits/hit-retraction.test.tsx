/**
 * The hit review panel (issue 18): resetting a published hit asks for a reason and says why (it is a retraction,
 * e-mailed to whoever the publication notified); a rejected hit resets with optional comments. Under four-eyes review
 * whoever entered one of the hit's profiles is not offered Publish and is told why.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RETRACTION_REASON_REQUIRED } from '../../../core/hit-retraction';
import { emailOutbox, hitProfiles, organizations, profiles } from '../../../server/db/schema';
import { meOf, renderScreen } from '../screen-fixtures';
import { matchingWorld, type MatchingWorld } from './hit-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let world: MatchingWorld;
let token: string;
beforeAll(async () => {
  world = await matchingWorld();
  token = await world.tokenFor({ Cases: ['Read'], Profiles: ['Read'], Analyses: ['Read'], Markers: ['Read'], Hits: ['Read', 'Publish', 'Reset'] });
}, 90_000);
afterAll(() => world.t.close());

const open = async (hitId: string) => renderScreen(`/${world.orgId}/hits/${hitId}`, { t: world.t, token, me: await meOf(world.t, token) });
const api = (method: 'GET' | 'POST', url: string, payload?: object) => world.t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
const panel = async () => within(await screen.findByRole('region', { name: 'Review' }));

describe('retracting a published hit', () => {
  it('asks for the reason and says why; the confirmation says it is retracted; the history and the outbox show the retraction', async () => {
    const id = await world.identityHit('RETRACT');
    expect((await api('POST', `/api/hits/${id}/publish`, { version: 1, comments: 'Same source', notify: true })).statusCode).toBe(200);
    await open(id);
    const review = await panel();
    const reason = review.getByLabelText('Reason for retracting (required)');
    expect(reason).toHaveAccessibleDescription(RETRACTION_REASON_REQUIRED);
    const reset = review.getByRole('button', { name: 'Reset to pending' });
    expect(reset).toBeDisabled();
    await userEvent.type(reason, '   ');
    expect(reset).toBeDisabled();
    await userEvent.type(reason, 'The reference was mislabelled');
    await userEvent.click(reset);
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/It is retracted: whoever its publication notified is e-mailed your reason\./)).toBeInTheDocument();
    expect(dialog.getByText('Reason: The reference was mislabelled')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Reset to pending' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    const history = within(screen.getByRole('region', { name: 'History' }));
    expect(await history.findByText('Retracted: reset to pending, notified users e-mailed')).toBeInTheDocument();
    expect(history.getByText('The reference was mislabelled')).toBeInTheDocument();
    const mail = await world.t.database.db.select().from(emailOutbox).where(eq(emailOutbox.templateKey, 'hit-retracted'));
    expect(mail.map((m) => m.to)).toEqual(['nina@oslo.test']);
    expect(mail[0]!.text).toContain('Reason: The reference was mislabelled');
  });

  it('resets a rejected hit with comments left empty, labelled as comments', async () => {
    const id = await world.identityHit('REJECTED');
    expect((await api('POST', `/api/hits/${id}/reject`, { version: 1, reason: 'Relatives' })).statusCode).toBe(200);
    await open(id);
    const review = await panel();
    expect(review.getByLabelText('Comments')).toBeInTheDocument();
    expect(review.queryByText(RETRACTION_REASON_REQUIRED)).toBeNull();
    expect(review.getByRole('button', { name: 'Reset to pending' })).toBeEnabled();
  });
});

describe('four-eyes review of a hit', () => {
  it('does not offer Publish to who entered one of its profiles and says why; Reject stays', async () => {
    const id = await world.identityHit('OWN');
    const me = await meOf(world.t, token);
    const db = world.t.database.db;
    const [evidence] = await db.select({ profileId: hitProfiles.profileId }).from(hitProfiles).where(and(eq(hitProfiles.hitId, id), eq(hitProfiles.position, 0)));
    await db.update(profiles).set({ enteredBy: me.id }).where(inArray(profiles.id, [evidence!.profileId]));
    await db.update(organizations).set({ fourEyesReview: true }).where(eq(organizations.id, world.orgId));
    try {
      await open(id);
      const review = await panel();
      expect(review.getByRole('note')).toHaveTextContent('Four-eyes review: this hit rests on profile OWN-E, which you entered or imported, so another person must publish it.');
      expect(review.queryByRole('button', { name: 'Publish' })).toBeNull();
      expect(review.getByRole('button', { name: 'Reject' })).toBeInTheDocument();
      // The server agrees.
      const refused = await api('POST', `/api/hits/${id}/publish`, { version: 1, comments: '', notify: false });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe('Four-eyes review: this hit rests on profile OWN-E, which you entered or imported, so another person must publish it.');
    } finally {
      await db.update(organizations).set({ fourEyesReview: false }).where(eq(organizations.id, world.orgId));
    }
  });
});
