/**
 * Issue 32: the token a laboratory signs in to its upper instance with is reused until a minute before it expires.
 * One per batch ran into the upper level's token throttle (60 a minute per client and address): a large upload then
 * stalled on too_many_requests, and a test's own token request was refused.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { forgetUpperToken, testUpperConnection, upperToken } from '../../../../server/network/upper-instance';

/** A fake upper instance: its client configuration, discovery and token endpoint; counts the token requests. */
function fakeUpper(expiresIn: number) {
  const state = { issued: 0 };
  const fetcher = (async (input: string | URL | Request) => {
    const url = String(input);
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    if (url.endsWith('/api/client-config')) return json({ authority: 'https://sdis.example/oidc' });
    if (url.endsWith('/.well-known/openid-configuration')) return json({ token_endpoint: 'https://sdis.example/oidc/token' });
    if (url.endsWith('/oidc/token')) return json({ access_token: `token-${++state.issued}`, expires_in: expiresIn, token_type: 'Bearer' });
    if (url.endsWith('/api/network/instance')) return json({ name: 'State index', level: 'State' });
    return new Response('{}', { status: 404 });
  }) as typeof fetch;
  return { state, fetcher };
}

const credentials = () => ({ url: 'https://sdis.example', clientId: `lab-${randomUUID()}`, clientSecret: randomUUID() });

describe('the upper instance’s token', () => {
  it('is asked for once and reused by every call until a minute before it expires, then asked for again', async () => {
    const { state, fetcher } = fakeUpper(600);
    const mine = credentials();
    let now = 1_000_000;
    const clock = () => now;
    for (let batch = 0; batch < 100; batch++) expect(await upperToken(mine, fetcher, clock)).toBe('token-1');
    expect(state.issued).toBe(1);
    now += 539_000;
    expect(await upperToken(mine, fetcher, clock)).toBe('token-1');
    now += 2_000; // 541 s: within the last minute of its 600
    expect(await upperToken(mine, fetcher, clock)).toBe('token-2');
    expect(state.issued).toBe(2);
  });

  it('is asked for anew once forgotten (the upper instance answered 401), and per credentials: another secret gets its own', async () => {
    const { state, fetcher } = fakeUpper(600);
    const mine = credentials();
    expect(await upperToken(mine, fetcher)).toBe('token-1');
    forgetUpperToken(mine);
    expect(await upperToken(mine, fetcher)).toBe('token-2');
    expect(await upperToken({ ...mine, clientSecret: randomUUID() }, fetcher)).toBe('token-3');
    expect(state.issued).toBe(3);
  });

  it('is not kept when it lives a minute or less, and Test connection always asks for a new one', async () => {
    const short = fakeUpper(60);
    const mine = credentials();
    await upperToken(mine, short.fetcher);
    await upperToken(mine, short.fetcher);
    expect(short.state.issued).toBe(2);
    const { state, fetcher } = fakeUpper(600);
    await upperToken(mine, fetcher);
    expect(await testUpperConnection(mine, fetcher)).toMatchObject({ ok: true });
    expect(state.issued).toBe(2);
  });
});
