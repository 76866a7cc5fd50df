import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { users } from '../../../server/db/schema';
import { hashPassword, verifyPassword } from '../../../server/identity/password';
import { ChangePasswordButton } from '../../../src/account/change-password-button';
import { createApiClient } from '../../../src/api/client';
import { ApiContext } from '../../../src/app/api-provider';
import { createUser } from '../../helpers/factories';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app';
import { injectFetch } from '../screen-fixtures';

const CURRENT = 'the current passphrase';

/** The button as the header shows it, against the in-process server; `answered` counts finished calls. */
function renderButton(t: TestApp, token: string) {
  const fetch = injectFetch(t);
  const answered = vi.fn();
  const api = createApiClient({
    baseUrl: 'http://locus.test',
    getAccessToken: () => token,
    onUnauthorized: vi.fn(),
    notify: vi.fn(),
    fetch: async (request) => {
      const response = await fetch(request);
      answered();
      return response;
    },
  });
  render(
    <ApiContext.Provider value={api}>
      <ChangePasswordButton />
    </ApiContext.Provider>,
  );
  return { answered };
}

describe('changing one’s own password (embedded provider)', () => {
  let t: TestApp;
  let userId: string;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    userId = (await createUser(t.database.db, { scope: 'All', passwordHash: await hashPassword(CURRENT) })).id;
    token = t.verifier.issue(userId);
  }, 60_000);
  afterAll(() => t.close());

  it('asks for the current password, checks the repeat, and changes it', async () => {
    renderButton(t, token);
    await userEvent.click(await screen.findByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    const field = (label: string) => within(dialog).getByLabelText(new RegExp(`^${label}`));

    await userEvent.type(field('Current password'), 'not the password');
    await userEvent.type(field('New password'), 'a brand new passphrase');
    await userEvent.type(field('Repeat the new password'), 'a brand new passphrase!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText('The two passwords do not match.')).toBeInTheDocument();

    await userEvent.clear(field('Repeat the new password'));
    await userEvent.type(field('Repeat the new password'), 'a brand new passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    // Checking a password costs a deliberate scrypt hash: allow it time.
    expect(await within(dialog).findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent('The current password is incorrect.');

    await userEvent.clear(field('Current password'));
    await userEvent.type(field('Current password'), CURRENT);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));
    expect(await within(dialog).findByText(/Your password is changed/, {}, { timeout: 15_000 })).toBeInTheDocument();
    const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
    expect(await verifyPassword('a brand new passphrase', row!.passwordHash)).toBe(true);
  }, 60_000);
});

describe('changing one’s own password under an external provider', () => {
  it('is not offered', async () => {
    const t = await createTestApp({ config: testConfig({ OIDC_ISSUER: 'https://id.example.org/realms/lab', OIDC_CLIENT_ID: 'locus', OIDC_AUDIENCE: 'locus-api' }) });
    try {
      const { answered } = renderButton(t, 'no-token-needed');
      await waitFor(() => expect(answered).toHaveBeenCalled());
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(screen.queryByRole('button', { name: 'Change password' })).not.toBeInTheDocument();
    } finally {
      await t.close();
    }
  }, 60_000);
});
