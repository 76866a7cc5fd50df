import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ApprovalRefusal, ProfileDraft } from '../../core/schemas/profiles';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { identityKeys } from '../db/schema';
import { canonicalJson } from '../audit/canonical-json';

/** How long the user has to confirm an import (ARCHITECTURE.md "Calls": the token carries an expiry). */
export const APPROVAL_TTL_SECONDS = 60 * 60;

const VERSION = 'v1';
// A fixed id: processes starting together on an empty database end up with the same secret.
const APPROVAL_KEY_ID = 'approval-initial';

/** The secret that signs approval tokens: in the database, so every API process accepts every other's tokens. */
export async function loadApprovalSecret(db: Db): Promise<Buffer> {
  await db
    .insert(identityKeys)
    .values({ id: APPROVAL_KEY_ID, use: 'approval', material: { secret: randomBytes(32).toString('base64url') } })
    .onConflictDoNothing();
  const [row] = await db.select().from(identityKeys).where(eq(identityKeys.id, APPROVAL_KEY_ID));
  return Buffer.from((row!.material as { secret: string }).secret, 'base64url');
}

/** Digest of parsed profiles: sample names and marker values in order, nothing the user assigns afterwards. */
export function profilesDigest(profiles: readonly Pick<ProfileDraft, 'profileId' | 'markerValues'>[]): string {
  const content = profiles.map((p) => [p.profileId, p.markerValues.map((m) => [m.markerId, m.alleles])]);
  return createHash('sha256').update(canonicalJson(content)).digest('base64url');
}

export interface ApprovalTokens {
  /** A token binding these profiles to the user, valid for APPROVAL_TTL_SECONDS. */
  issue(userId: string, profiles: readonly Pick<ProfileDraft, 'profileId' | 'markerValues'>[]): { token: string; expiresAt: Date };
  /** Why the token does not approve adding these profiles for this user, or null when it does. */
  refusal(token: string, userId: string, profiles: readonly Pick<ProfileDraft, 'profileId' | 'markerValues'>[]): ApprovalRefusal | null;
}

/** Server-signed (HMAC-SHA256) approval tokens: `v1.<user>.<expiry>.<digest>.<signature>` (ARCHITECTURE.md "Calls"). */
export function approvalTokens(secret: Buffer, clock: Clock, ttlSeconds = APPROVAL_TTL_SECONDS): ApprovalTokens {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  return {
    issue(userId, profiles) {
      const expiresAt = new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + ttlSeconds * 1000);
      const payload = [VERSION, userId, String(expiresAt.getTime() / 1000), profilesDigest(profiles)].join('.');
      return { token: `${payload}.${sign(payload)}`, expiresAt };
    },
    refusal(token, userId, profiles) {
      const parts = token.split('.');
      if (parts.length !== 5 || parts[0] !== VERSION) return 'invalid';
      const [, tokenUser, expiry, digest, signature] = parts as [string, string, string, string, string];
      const expected = Buffer.from(sign(parts.slice(0, 4).join('.')));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      if (tokenUser !== userId) return 'foreign';
      if (Number(expiry) * 1000 <= clock.now().getTime()) return 'expired';
      if (digest !== profilesDigest(profiles)) return 'mismatch';
      return null;
    },
  };
}
