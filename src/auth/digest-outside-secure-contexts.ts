/**
 * oidc-client-ts makes the PKCE code challenge with `crypto.subtle.digest`, which browsers expose only in secure
 * contexts (HTTPS, localhost, 127.0.0.1). A laboratory's server reached over plain HTTP by its name or address
 * (`PUBLIC_URL=http://lab-server:8080`, as the README says) is not one, and sign-in stopped at "Sign-in refused:
 * Crypto.subtle is available only in secure contexts (HTTPS)". There SHA-256 comes from @noble/hashes instead. Only
 * `digest` is offered: the library needs nothing else of `crypto.subtle` with DPoP off.
 */
import { sha256 } from '@noble/hashes/sha2.js';

type DigestOnly = Pick<SubtleCrypto, 'digest'>;

function bytesOf(data: BufferSource): Uint8Array {
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

const sha256Digest: DigestOnly = {
  digest(algorithm: AlgorithmIdentifier, data: BufferSource): Promise<ArrayBuffer> {
    const name = typeof algorithm === 'string' ? algorithm : algorithm.name;
    if (name.toUpperCase() !== 'SHA-256') return Promise.reject(new Error(`Only SHA-256 is available outside a secure context, not ${name}`));
    const hashed = sha256(bytesOf(data));
    return Promise.resolve(hashed.buffer.slice(hashed.byteOffset, hashed.byteOffset + hashed.byteLength) as ArrayBuffer);
  },
};

/** Gives `crypto` a SHA-256 `subtle.digest` where the browser withholds `crypto.subtle` (plain HTTP, not localhost). */
export function provideDigestOutsideSecureContexts(crypto: Crypto = globalThis.crypto): void {
  if (crypto.subtle) return;
  Object.defineProperty(crypto, 'subtle', { value: sha256Digest, configurable: true });
}
