import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { accessTokens, users } from '../db/schema';

/**
 * Personal access tokens (issue 18): `locus_pat_` and 32 random bytes, shown once when created. The database keeps
 * the SHA-256 only, so a copy of the database gives no usable token; the prefix tells a bearer token of this kind
 * from the provider's signed access tokens without trying to verify it.
 */
export const ACCESS_TOKEN_PREFIX = 'locus_pat_';
const TOKEN_PATTERN = /^locus_pat_[A-Za-z0-9_-]{43}$/;
/** Characters kept to tell tokens apart in the list: the prefix and four of the random part. */
const SHOWN = ACCESS_TOKEN_PREFIX.length + 4;

const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Whether a bearer token is meant as a personal access token (checked by findAccessTokenUser, not by the JWT verifier). */
export const isAccessToken = (bearer: string) => bearer.startsWith(ACCESS_TOKEN_PREFIX);

/** Creates a token for `userId`; the token itself is returned once and never stored. */
export async function createAccessToken(db: Db, clock: Clock, userId: string, name: string, days: number) {
  const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = new Date(clock.now().getTime() + days * 86_400_000);
  const [row] = await db.insert(accessTokens).values({ userId, name, tokenHash: hashToken(token), prefix: token.slice(0, SHOWN), expiresAt }).returning();
  return { token, row: row! };
}

/**
 * The user a personal access token acts for, or why it does not: unknown, revoked or expired. A usable token's
 * last use is recorded (at most once a minute, so a busy script does not write on every call).
 */
export async function findAccessTokenUser(db: Db, clock: Clock, token: string): Promise<{ user: typeof users.$inferSelect } | { refused: string }> {
  if (!TOKEN_PATTERN.test(token)) return { refused: 'This personal access token is not valid' };
  const [found] = await db
    .select({ token: accessTokens, user: users })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(eq(accessTokens.tokenHash, hashToken(token)));
  if (!found) return { refused: 'This personal access token is not valid' };
  const now = clock.now();
  if (found.token.revokedAt) return { refused: 'This personal access token was revoked' };
  if (found.token.expiresAt <= now) return { refused: 'This personal access token has expired' };
  if (!found.token.lastUsedAt || now.getTime() - found.token.lastUsedAt.getTime() > 60_000) {
    await db.update(accessTokens).set({ lastUsedAt: now }).where(and(eq(accessTokens.id, found.token.id), isNull(accessTokens.revokedAt), gt(accessTokens.expiresAt, now)));
  }
  return { user: found.user };
}
