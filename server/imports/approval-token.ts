import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ApprovalRefusal, ProfileDraft } from '../../core/schemas/profiles';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { identityKeys } from '../db/schema';
import { canonicalJson } from '../audit/canonical-json';

/** How long the user has to confirm an import (ARCHITECTURE.md "Calls": the token carries an expiry). */
export const APPROVAL_TTL_SECONDS = 60 * 60;

const VERSION = 'v2';
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

/** What an approval covers (issue 13): one import's parsed content, read by one user for one case. */
export interface ApprovalSubject {
  importId: string;
  userId: string;
  /** The case the file was read for; null when the parse named none (the first add then binds it). */
  caseId: string | null;
  digest: string;
}

/** A token that checks out: what it approves. */
export type ApprovalCheck = { refusal: ApprovalRefusal } | { refusal: null; subject: ApprovalSubject };

export interface ApprovalTokens {
  /** A token approving this import for the user (and case), valid for APPROVAL_TTL_SECONDS. */
  issue(subject: ApprovalSubject, expiresAt?: Date): { token: string; expiresAt: Date };
  /** Why the token does not approve an add by this user, or what it approves. The caller checks the case, content and single use against the import. */
  check(token: string, userId: string): ApprovalCheck;
}

/** Server-signed (HMAC-SHA256) approval tokens: `v2.<import>.<user>.<case|->.<expiry>.<digest>.<signature>` (ARCHITECTURE.md "Calls"). */
export function approvalTokens(secret: Buffer, clock: Clock, ttlSeconds = APPROVAL_TTL_SECONDS): ApprovalTokens {
  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  return {
    issue({ importId, userId, caseId, digest }, at) {
      // Given the expiry stored with the import, the same token is issued again (the screen may reload).
      const expiresAt = at ?? new Date(Math.floor(clock.now().getTime() / 1000) * 1000 + ttlSeconds * 1000);
      const payload = [VERSION, importId, userId, caseId ?? '-', String(expiresAt.getTime() / 1000), digest].join('.');
      return { token: `${payload}.${sign(payload)}`, expiresAt };
    },
    check(token, userId) {
      const parts = token.split('.');
      if (parts.length !== 7 || parts[0] !== VERSION) return { refusal: 'invalid' };
      const [, importId, tokenUser, caseId, expiry, digest, signature] = parts as [string, string, string, string, string, string, string];
      const expected = Buffer.from(sign(parts.slice(0, 6).join('.')));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { refusal: 'invalid' };
      if (tokenUser !== userId) return { refusal: 'foreign' };
      if (Number(expiry) * 1000 <= clock.now().getTime()) return { refusal: 'expired' };
      return { refusal: null, subject: { importId, userId: tokenUser, caseId: caseId === '-' ? null : caseId, digest } };
    },
  };
}
