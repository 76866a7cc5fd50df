/**
 * An organization's four-eyes review switch (issue 18), on the organization's form: read, turned off and on by an
 * administrator (saved with the version read, audited by the server); a change by someone else meanwhile is said and
 * read again.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizations } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let adminToken: string;
let orgId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab', { fourEyesReview: true })).id;
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] })).id);
}, 60_000);
afterAll(() => t.close());

const open = async (token: string) => renderScreen(`/${orgId}/organizations/${orgId}/edit`, { t, token, me: await meOf(t, token) });
const stored = async () => (await t.database.db.select({ on: organizations.fourEyesReview }).from(organizations).where(eq(organizations.id, orgId)))[0]!.on;

describe('the organization’s four-eyes review', () => {
  it('is shown on and turned off and on again by an administrator', async () => {
    await open(adminToken);
    const review = within(await screen.findByRole('region', { name: 'Review' }));
    const box = review.getByRole('checkbox', { name: 'Four-eyes review' });
    await waitFor(() => expect(box).toBeChecked());
    expect(box).toHaveAccessibleDescription(/cannot approve it, nor publish a hit resting on it/);
    await userEvent.click(box);
    expect(await review.findByRole('status')).toHaveTextContent('Saved: four-eyes review is off');
    expect(box).not.toBeChecked();
    expect(await stored()).toBe(false);
    await userEvent.click(box);
    expect(await review.findByText('Saved: four-eyes review is on.')).toBeInTheDocument();
    expect(await stored()).toBe(true);
  });

  it('says so when someone else changed the organization meanwhile, and shows the setting as it now is', async () => {
    await open(adminToken);
    const review = within(await screen.findByRole('region', { name: 'Review' }));
    const box = review.getByRole('checkbox', { name: 'Four-eyes review' });
    await waitFor(() => expect(box).toBeChecked());
    // Another administrator turns it off after this screen read it.
    const [org] = await t.database.db.select().from(organizations).where(eq(organizations.id, orgId));
    const other = await t.app.inject({ method: 'PUT', url: `/api/organizations/${orgId}/review-settings`, headers: { authorization: `Bearer ${adminToken}` }, payload: { fourEyesReview: false, version: org!.version } });
    expect(other.statusCode, other.body).toBe(200);
    await userEvent.click(box);
    expect(await review.findByRole('alert')).toHaveTextContent('Someone else changed this organization meanwhile');
    await waitFor(() => expect(box).not.toBeChecked());
    expect(await stored()).toBe(false);
  });
});
