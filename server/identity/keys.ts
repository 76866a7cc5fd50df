import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/database';
import { identityKeys } from '../db/schema';

/** Algorithm of the embedded provider's ID tokens and JWT access tokens. */
export const SIGNING_ALG = 'RS256';

export interface IdentityKeys {
  /** Private signing JWKs, newest first: the provider signs with the first, verifies with all. */
  signing: JWK[];
  /** Public halves of `signing`, for the token verifier. */
  publicSigning: JWK[];
  /** Cookie-signing secrets, newest first (Keygrip signs with the first). */
  cookie: string[];
}

// Fixed ids: two processes starting at once on an empty database insert the same row and one
// insert is a no-op, so both end up with the same keys. A rotation adds rows with other ids.
const FIRST_SIGNING_KEY = 'signing-initial';
const FIRST_COOKIE_KEY = 'cookie-initial';

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: SIGNING_ALG, use: 'sig' };
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** The public part of a private JWK. */
export function publicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  return copy as JWK;
}

async function rowsOf(db: Db, use: 'signing' | 'cookie') {
  return db.select().from(identityKeys).where(eq(identityKeys.use, use)).orderBy(desc(identityKeys.createdAt));
}

/**
 * Loads the provider's signing and cookie keys from identity_keys, generating them on the first
 * start. Keys never leave the database except to the provider in this process; never log them.
 */
export async function loadIdentityKeys(db: Db): Promise<IdentityKeys> {
  let signingRows = await rowsOf(db, 'signing');
  if (signingRows.length === 0) {
    await db
      .insert(identityKeys)
      .values({ id: FIRST_SIGNING_KEY, use: 'signing', material: await newSigningKey() })
      .onConflictDoNothing();
    signingRows = await rowsOf(db, 'signing');
  }
  let cookieRows = await rowsOf(db, 'cookie');
  if (cookieRows.length === 0) {
    await db
      .insert(identityKeys)
      .values({ id: FIRST_COOKIE_KEY, use: 'cookie', material: { secret: randomBytes(32).toString('base64url') } })
      .onConflictDoNothing();
    cookieRows = await rowsOf(db, 'cookie');
  }
  const signing = signingRows.map((row) => row.material as JWK);
  const cookie = cookieRows.map((row) => (row.material as { secret: string }).secret);
  return { signing, publicSigning: signing.map(publicJwk), cookie };
}
