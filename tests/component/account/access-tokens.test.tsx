import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SHOWN_ONCE } from '../../../src/account/access-tokens-page';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// Issue 18: "Scripts and LIMS cannot call the API without a browser": personal access tokens, created by a user,
// shown once, expiring, revocable, listed in their account.
vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let orgId: string;
let userToken: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  // An ordinary user, no administration: every signed-in user has the page.
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read'], Hits: ['Read'] } });
  userToken = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
}, 90_000);
afterAll(() => t.close());

const open = async (path: string) => renderScreen(path, { t, token: userToken, me: await meOf(t, userToken) });
const list = () => within(screen.getByRole('region', { name: 'Your tokens' }));
/** The list's row of the token named `name`. */
const rowOf = (name: string) => within(list().getByRole('rowheader', { name }).closest('tr')!);
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}`));

describe('personal access tokens', () => {
  it('are reached from the header, created once-shown, listed by prefix and revoked after confirming', async () => {
    const first = await open(`/${orgId}`);
    await userEvent.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Access tokens' }));
    expect(first.current()).toBe(`/${orgId}/access-tokens`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Access tokens' })).toBeInTheDocument();
    expect(await list().findByText('You have no access tokens yet.')).toBeInTheDocument();
    expect(field('Expires in (days)')).toHaveValue(90);

    await userEvent.type(field('Name'), 'LIMS nightly');
    await userEvent.clear(field('Expires in (days)'));
    await userEvent.type(field('Expires in (days)'), '30');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));

    // Shown this once, read-only, with Copy, the warning and a curl line for the chosen organization.
    const box = within(await screen.findByRole('region', { name: 'Your new token “LIMS nightly”' }));
    const tokenInput = box.getByLabelText('Token') as HTMLInputElement;
    expect(tokenInput).toHaveAttribute('readonly');
    const token = tokenInput.value;
    expect(token.length).toBeGreaterThan(20);
    expect(box.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(box.getByText(SHOWN_ONCE)).toBeInTheDocument();
    expect(box.getByText(`curl -H "Authorization: Bearer ${token}" ${window.location.origin}/api/organizations/${orgId}/hits`)).toBeInTheDocument();
    // The form is ready for another one.
    expect(field('Name')).toHaveValue('');

    // The token works as the curl line says.
    const hits = await t.app.inject({ method: 'GET', url: `/api/organizations/${orgId}/hits`, headers: { authorization: `Bearer ${token}` } });
    expect(hits.statusCode).toBe(200);

    // Listed with its prefix, Active; the list never holds the token itself.
    await waitFor(() => expect(list().getByRole('rowheader', { name: 'LIMS nightly' })).toBeInTheDocument());
    const [{ prefix, lastUsedAt }] = (await t.app.inject({ method: 'GET', url: '/api/me/access-tokens', headers: { authorization: `Bearer ${userToken}` } })).json().items;
    expect(token.startsWith(prefix)).toBe(true);
    expect(rowOf('LIMS nightly').getByText(`${prefix}…`)).toBeInTheDocument();
    expect(rowOf('LIMS nightly').getByText('Active')).toBeInTheDocument();
    expect(lastUsedAt).not.toBeNull(); // the curl call above was recorded
    expect(list().queryByText(token, { exact: false })).not.toBeInTheDocument();

    // Opened again, the page lists the token but no longer shows it.
    first.unmount();
    await open(`/${orgId}/access-tokens`);
    await waitFor(() => expect(list().getByRole('rowheader', { name: 'LIMS nightly' })).toBeInTheDocument());
    expect(screen.queryByRole('region', { name: /Your new token/ })).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(token);
    expect(screen.queryByDisplayValue(token)).not.toBeInTheDocument();
    expect(rowOf('LIMS nightly').getByText('Active')).toBeInTheDocument();
    expect(rowOf('LIMS nightly').queryByText('Never')).not.toBeInTheDocument(); // last used by the curl call

    // Revoke asks first; Cancel keeps it.
    await userEvent.click(rowOf('LIMS nightly').getByRole('button', { name: 'Revoke' }));
    let dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke access token?' }));
    expect(dialog.getByText(/Scripts that use it stop working at once/)).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(rowOf('LIMS nightly').getByText('Active')).toBeInTheDocument();

    await userEvent.click(rowOf('LIMS nightly').getByRole('button', { name: 'Revoke' }));
    dialog = within(await screen.findByRole('alertdialog', { name: 'Revoke access token?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(rowOf('LIMS nightly').getByText('Revoked')).toBeInTheDocument());
    expect(rowOf('LIMS nightly').queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();

    // And the token no longer works.
    const after = await t.app.inject({ method: 'GET', url: `/api/organizations/${orgId}/hits`, headers: { authorization: `Bearer ${token}` } });
    expect(after.statusCode).toBe(401);
  });

  it('shows the server’s refusal above the form and keeps what was typed', async () => {
    // Signed in with a personal access token, the server refuses to mint another one (403).
    const minted = await t.app.inject({ method: 'POST', url: '/api/me/access-tokens', headers: { authorization: `Bearer ${userToken}` }, payload: { name: 'Script', expiresInDays: 7 } });
    expect(minted.statusCode).toBe(201);
    const pat = minted.json().token as string;
    renderScreen(`/${orgId}/access-tokens`, { t, token: pat, me: await meOf(t, pat) });
    await waitFor(() => expect(list().getByRole('rowheader', { name: 'Script' })).toBeInTheDocument());

    await userEvent.type(field('Name'), 'Another');
    await userEvent.clear(field('Expires in (days)'));
    await userEvent.type(field('Expires in (days)'), '12');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Personal access tokens are created when signed in, not with another access token.');
    expect(field('Name')).toHaveValue('Another');
    expect(field('Expires in (days)')).toHaveValue(12);
    expect(screen.queryByRole('region', { name: /Your new token/ })).not.toBeInTheDocument();
  });

  it('says what is wrong with the name and the days, and keeps what was typed', async () => {
    const post = vi.fn();
    const { api } = await open(`/${orgId}/access-tokens`);
    api.use({ onRequest: ({ request }) => void (request.method === 'POST' && post()) });
    await screen.findByRole('heading', { level: 1, name: 'Access tokens' });
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());

    await userEvent.clear(field('Expires in (days)'));
    await userEvent.type(field('Expires in (days)'), '400');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('At most 365 days')).toBeInTheDocument();
    expect(screen.getByText('Give the token a name, e.g. the script or LIMS that uses it')).toBeInTheDocument();
    expect(field('Expires in (days)')).toHaveAttribute('aria-invalid', 'true');
    expect(field('Expires in (days)')).toHaveValue(400);

    await userEvent.type(field('Name'), 'Backup script');
    await userEvent.clear(field('Expires in (days)'));
    await userEvent.type(field('Expires in (days)'), '0');
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByText('At least 1 day')).toBeInTheDocument();
    expect(field('Name')).toHaveValue('Backup script');
    expect(post).not.toHaveBeenCalled();
    expect(screen.queryByRole('region', { name: /Your new token/ })).not.toBeInTheDocument();
  });
});
