import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { RequireSession } from '../../../src/auth/require-session';
import { SessionProvider } from '../../../src/auth/session';
import { analystClaims, fakeSession, me, sessionUser, type FakeSession } from './fake-session';

function renderGuarded(path: string, fakes: FakeSession) {
  const location = memoryLocation({ path, record: true });
  render(
    <SessionProvider logic={fakeSession(fakes)}>
      <Router hook={location.hook} searchHook={location.searchHook}>
        <RequireSession>
          <p>Case list</p>
        </RequireSession>
      </Router>
    </SessionProvider>,
  );
  return location;
}

describe('RequireSession', () => {
  it('sends a visitor who is not signed in to /authentication?redirect= with the full original path and query', async () => {
    const location = renderGuarded('/3f2504e0/cases?tab=open&page=2', { loadUser: async () => null });

    await waitFor(() => expect(location.history.at(-1)).toBe('/authentication?redirect=%2F3f2504e0%2Fcases%3Ftab%3Dopen%26page%3D2'));
    const redirect = new URLSearchParams(location.history.at(-1)?.split('?')[1]).get('redirect');
    expect(redirect).toBe('/3f2504e0/cases?tab=open&page=2');
    expect(screen.queryByText('Case list')).not.toBeInTheDocument();
  });

  it('sends a refused user to Authentication, where the reason is shown', async () => {
    const location = renderGuarded('/all/hits', { loadUser: async () => sessionUser({ claims: { ...analystClaims, permissions: undefined } }) });
    await waitFor(() => expect(location.history.at(-1)).toBe('/authentication?redirect=%2Fall%2Fhits'));
  });

  it('shows a quiet "Signing in…" while the session loads, then the page itself', async () => {
    let finish: (value: typeof me) => void = () => {};
    const fetchMe = vi.fn(() => new Promise<typeof me>((resolve) => (finish = resolve)));
    const location = renderGuarded('/all/hits', { fetchMe });

    expect(screen.getByRole('heading', { name: 'Signing in…' })).toBeInTheDocument();
    await waitFor(() => expect(fetchMe).toHaveBeenCalled());
    expect(screen.queryByText('Case list')).not.toBeInTheDocument();
    finish(me);
    expect(await screen.findByText('Case list')).toBeInTheDocument();
    expect(location.history).toEqual(['/all/hits']);
  });

  it('stays on an Authentication route rather than redirecting it to itself', async () => {
    const startSignIn = vi.fn(() => new Promise<void>(() => {}));
    const location = renderGuarded('/authentication/other', { loadUser: async () => null, startSignIn });
    await waitFor(() => expect(startSignIn).toHaveBeenCalled());
    expect(screen.getByRole('heading', { name: 'Signing in…' })).toBeInTheDocument();
    expect(location.history).toEqual(['/authentication/other']);
  });
});
