/**
 * Sign-in on a server reached over plain HTTP by its name or address (`PUBLIC_URL=http://lab-server:8080`): the
 * browser withholds `crypto.subtle` there, and oidc-client-ts could not make the PKCE code challenge, so every
 * sign-in stopped at "Sign-in refused". The SPA gives it SHA-256 (src/auth/digest-outside-secure-contexts.ts).
 */
import { createHash, webcrypto } from 'node:crypto';
import { InMemoryWebStorage, OidcClient, WebStorageStateStore } from 'oidc-client-ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { provideDigestOutsideSecureContexts } from '../../../src/auth/digest-outside-secure-contexts';
import { createUserManager } from '../../../src/auth/user-manager';

const ORIGIN = 'http://192.0.2.2:8080';

/** The `crypto` of a page that is not a secure context: random values, no `subtle`. */
function insecureCrypto(): Crypto {
  return { getRandomValues: <T extends ArrayBufferView | null>(array: T) => webcrypto.getRandomValues(array as never) as T } as unknown as Crypto;
}

function client(): OidcClient {
  return new OidcClient({
    authority: `${ORIGIN}/oidc`,
    client_id: 'locus-spa',
    redirect_uri: `${ORIGIN}/callback`,
    response_type: 'code',
    scope: 'openid',
    metadata: { issuer: `${ORIGIN}/oidc`, authorization_endpoint: `${ORIGIN}/oidc/auth`, token_endpoint: `${ORIGIN}/oidc/token` },
    stateStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sign-in over plain HTTP at the server’s address', () => {
  it('makes the PKCE challenge, the SHA-256 of the verifier as S256 asks (it was refused before)', async () => {
    vi.stubGlobal('crypto', insecureCrypto());
    await expect(client().createSigninRequest({})).rejects.toThrow(/secure contexts/);

    provideDigestOutsideSecureContexts();
    const request = await client().createSigninRequest({});
    const url = new URL(request.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const verifier = request.state.code_verifier!;
    expect(url.searchParams.get('code_challenge')).toBe(createHash('sha256').update(verifier).digest('base64url'));
  });

  it('is what the SPA’s UserManager sets up; a secure context keeps the browser’s own crypto.subtle', async () => {
    const insecure = insecureCrypto();
    vi.stubGlobal('crypto', insecure);
    createUserManager({ authority: `${ORIGIN}/oidc`, clientId: 'locus-spa', scope: '', embeddedProvider: true }, ORIGIN);
    const digest = await insecure.subtle.digest('SHA-256', new TextEncoder().encode('abc'));
    expect(Buffer.from(digest).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    await expect(insecure.subtle.digest('SHA-1', new Uint8Array(1))).rejects.toThrow('Only SHA-256 is available outside a secure context, not SHA-1');

    const secure = { subtle: webcrypto.subtle } as unknown as Crypto;
    provideDigestOutsideSecureContexts(secure);
    expect(secure.subtle).toBe(webcrypto.subtle);
  });
});
