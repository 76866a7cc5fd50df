/**
 * Four-eyes review in the profile view (issue 18): whoever entered a profile is not offered Approve and is told why
 * (the server's own words, core/four-eyes.ts); another reviewer approves it and the view names both.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import { organizations, users } from '../../../server/db/schema';
import { meOf } from '../screen-fixtures';
import { call, createProfileWorld, openAs, type ProfileWorld, type Who } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let w: ProfileWorld;
beforeAll(async () => {
  w = await createProfileWorld();
  const db = w.t.database.db;
  await db.update(organizations).set({ fourEyesReview: true }).where(eq(organizations.id, w.orgId));
  for (const [who, firstName, lastName] of [['analyst', 'Ana', 'Lyst'], ['reviewer', 'Rita', 'Reviewer']] as const) {
    const me = await meOf(w.t, w.tokens[who]);
    await db.update(users).set({ firstName, lastName }).where(eq(users.id, me.id));
  }
}, 60_000);
afterAll(() => w.t.close());

/** A profile the analyst enters by hand, with marker values. */
async function entered(profileId: string): Promise<Profile> {
  const { markerIds: m } = w;
  const added = await call<{ items: Profile[] }>(w, 'analyst', 'POST', '/api/profiles', {
    caseId: w.caseId,
    chemistryId: w.globalFiler,
    sampleType: 'Reference',
    sampleSourceId: null,
    physicalItemId: null,
    laboratoryId: w.laboratoryId,
    comments: '',
    profiles: [{ profileId, markerValues: [{ markerId: m.D3S1358, alleles: ['15', '16'] }, { markerId: m.Amelogenin, alleles: ['X', 'Y'] }] }],
  });
  return added.items[0]!;
}

const viewOf = (who: Who, profile: Profile) => openAs(w, who, `/${w.orgId}/cases/${profile.caseId}/profiles/${profile.id}`);
const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;

describe('four-eyes review in the profile view', () => {
  it('does not offer Approve to who entered the profile and says why; the reviewer approves it and the view names both', async () => {
    const profile = await entered('FOUR-EYES-1');
    const analyst = await viewOf('analyst', profile);
    const panel = within(await screen.findByRole('region', { name: 'Review' }));
    expect(panel.getByRole('note')).toHaveTextContent('Four-eyes review: you entered or imported profile FOUR-EYES-1, so another person must approve it.');
    expect(panel.getAllByRole('button').map((b) => b.textContent)).toEqual(['Reject']);
    expect(fact('Entered by')).toHaveTextContent('Ana Lyst');
    analyst.unmount();

    await viewOf('reviewer', profile);
    const reviewer = within(await screen.findByRole('region', { name: 'Review' }));
    expect(reviewer.queryByRole('note')).toBeNull();
    await userEvent.click(reviewer.getByRole('button', { name: 'Approve' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Approve' }));
    expect(await reviewer.findByText('Approved.')).toBeInTheDocument();
    expect(fact('Approved by')).toHaveTextContent(/^Rita Reviewer, /);
    expect(fact('Entered by')).toHaveTextContent('Ana Lyst');
  });

  it('offers Approve to who entered the profile where the organization turned four-eyes review off', async () => {
    await w.t.database.db.update(organizations).set({ fourEyesReview: false }).where(eq(organizations.id, w.orgId));
    try {
      const profile = await entered('FOUR-EYES-OFF');
      await viewOf('analyst', profile);
      const panel = within(await screen.findByRole('region', { name: 'Review' }));
      expect(panel.getAllByRole('button').map((b) => b.textContent)).toEqual(['Approve', 'Reject']);
      expect(panel.queryByRole('note')).toBeNull();
    } finally {
      await w.t.database.db.update(organizations).set({ fourEyesReview: true }).where(eq(organizations.id, w.orgId));
    }
  });
});
