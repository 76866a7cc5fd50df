import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/database';
import { serviceClients } from '../db/schema';

/**
 * Service clients (issue 32): OAuth 2 client-credentials clients of the embedded provider. The client id is
 * `locus_svc_` and 12 random bytes; the secret `locus_cs_` and 32, shown once. Only the secret's SHA-256 is kept
 * (a 256-bit random secret needs no slow hash), so a copy of the database gives no usable secret.
 */
export const SERVICE_CLIENT_PREFIX = 'locus_svc_';
const SECRET_PREFIX = 'locus_cs_';

export type ServiceClientRow = typeof serviceClients.$inferSelect;

export const hashClientSecret = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A new client id and secret; the secret is returned here only and its hash is what the caller stores. */
export function newClientCredentials(): { clientId: string; secret: string; secretHash: string } {
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  return { clientId: SERVICE_CLIENT_PREFIX + randomBytes(12).toString('base64url'), secret, secretHash: hashClientSecret(secret) };
}

/** Compares a presented secret with a stored hash in constant time (RFC 6749 §2.3.1 client_secret). */
export function secretMatches(storedHash: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(hashClientSecret(presented));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The live (not revoked) service client with this OAuth client id. */
export async function findLiveServiceClient(db: Db, clientId: string): Promise<ServiceClientRow | undefined> {
  const [row] = await db.select().from(serviceClients).where(eq(serviceClients.clientId, clientId));
  return row && !row.revokedAt ? row : undefined;
}

/**
 * The provider's view of a live client (oidc-provider Client metadata, read through the adapter's 'Client' model):
 * client-credentials only, authenticated with its secret. `client_secret` carries the stored hash, which the
 * provider's compareClientSecret (replaced in provider.ts) compares against the hash of what is presented.
 */
export async function serviceClientMetadata(db: Db, clientId: string): Promise<AdapterPayload | undefined> {
  if (!clientId.startsWith(SERVICE_CLIENT_PREFIX)) return undefined;
  const row = await findLiveServiceClient(db, clientId);
  if (!row?.secretHash) return undefined;
  return {
    client_id: row.clientId,
    client_secret: row.secretHash,
    client_name: row.name,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}
