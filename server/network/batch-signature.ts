import { CompactSign, compactVerify, errors } from 'jose';
import { BatchContent } from '../../core/schemas/network-delivery';
import { hashClientSecret } from '../identity/service-clients';

/**
 * How a batch is signed (issue 32): a JWS (RFC 7515) with HS256 (RFC 7518 §3.2), keyed by the SHA-256 of the client
 * secret the lower instance signs in with, its client id as `kid`. Both sides hold that key without a third setting to
 * exchange: the lower instance keeps the secret (sealed), the upper its SHA-256 (service_clients.secret_hash). The
 * token already authenticates the caller; the signature binds the batch's content to the same credentials, so a batch
 * altered on the way (a proxy, a replay with other entries) is refused and the stored batch is evidence of its sender.
 * Revoking or replacing the client's secret retires the key with it. A client issued by an external provider has no
 * secret here and cannot send batches.
 */
const ALG = 'HS256';

const keyOf = (secretHash: string) => new Uint8Array(Buffer.from(secretHash, 'base64url'));

/** The batch as a compact JWS signed with the lower instance's client credentials. */
export async function signBatch(content: BatchContent, clientId: string, clientSecret: string): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(content))).setProtectedHeader({ alg: ALG, kid: clientId }).sign(keyOf(hashClientSecret(clientSecret)));
}

export class BatchRejected extends Error {}

/** The batch's content when its signature verifies under the client's stored secret hash; else BatchRejected saying why. */
export async function verifyBatch(jws: string, clientId: string, secretHash: string | null): Promise<BatchContent> {
  if (!secretHash) throw new BatchRejected('This service client is issued by an external identity provider: batches are signed with the secret of a client this instance issued');
  let payload: Uint8Array;
  try {
    const verified = await compactVerify(jws, keyOf(secretHash), { algorithms: [ALG] });
    if (verified.protectedHeader.kid !== clientId) throw new BatchRejected(`The batch names client ${String(verified.protectedHeader.kid)} but was sent by ${clientId}`);
    payload = verified.payload;
  } catch (err) {
    if (err instanceof BatchRejected) throw err;
    if (err instanceof errors.JOSEError) throw new BatchRejected('The batch’s signature does not verify: it was altered, or not signed with this client’s credentials');
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    throw new BatchRejected('The signed batch is not JSON');
  }
  const content = BatchContent.safeParse(parsed);
  if (!content.success) throw new BatchRejected(`The signed batch is malformed: ${content.error.issues.map((i) => `${i.path.join('.') || 'batch'}: ${i.message}`).join('; ')}`);
  return content.data;
}
