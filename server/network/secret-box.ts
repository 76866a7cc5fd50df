import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { identityKeys } from '../db/schema';

// A fixed id: two processes starting on an empty database insert the same row; one insert is a no-op.
const SECRETS_KEY_ID = 'secrets-initial';
const VERSION = 'v1';

/** The instance's key for secrets it must send elsewhere (the upper instance's client secret), made on first use. */
async function secretsKey(db: Db): Promise<Buffer> {
  const read = async () => (await db.select().from(identityKeys).where(eq(identityKeys.id, SECRETS_KEY_ID)))[0];
  let row = await read();
  if (!row) {
    await db.insert(identityKeys).values({ id: SECRETS_KEY_ID, use: 'secrets', material: { secret: randomBytes(32).toString('base64url') } }).onConflictDoNothing();
    row = await read();
  }
  return Buffer.from((row!.material as { secret: string }).secret, 'base64url');
}

/**
 * AES-256-GCM (NIST SP 800-38D) of a secret this instance must present elsewhere, so it is never plain text in a
 * settings row, a dump of that table or a log. The key sits in identity_keys beside the signing keys: a copy of
 * the whole database holds both, as it holds the provider's private keys.
 */
export async function sealSecret(db: Db, plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await secretsKey(db), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The plain secret sealSecret sealed; throws when the text was altered or sealed under another key. */
export async function openSecret(db: Db, sealed: string): Promise<string> {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', await secretsKey(db), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
