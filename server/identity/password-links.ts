import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { passwordLinks, users } from '../db/schema';

/**
 * One-time set-password links of the embedded provider. The token (32 random bytes) exists only in
 * the link the administrator hands over; the database keeps its SHA-256, so a copy of the
 * database does not let anyone set a password.
 */

/** How long a link stays valid: long enough to span a weekend. */
export const PASSWORD_LINK_HOURS = 72;
/** Where the page is, under the provider's mount (/oidc). */
export const SET_PASSWORD_PATH = '/set-password';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Issues a link for `userId`, replacing any unused link issued before (only the newest works). */
export async function issuePasswordLink(db: Db, clock: Clock, userId: string, issuer: string): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(clock.now().getTime() + PASSWORD_LINK_HOURS * 3600_000);
  await db.transaction(async (tx) => {
    await tx.delete(passwordLinks).where(and(eq(passwordLinks.userId, userId), isNull(passwordLinks.usedAt)));
    await tx.insert(passwordLinks).values({ tokenHash: hashToken(token), userId, expiresAt });
  });
  return { url: `${issuer}${SET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`, expiresAt };
}

const usable = (token: string, clock: Clock) =>
  and(eq(passwordLinks.tokenHash, hashToken(token)), isNull(passwordLinks.usedAt), gt(passwordLinks.expiresAt, clock.now()));

/** The e-mail of the account a still-usable link is for, or undefined (unknown, used or expired). */
export async function passwordLinkAccount(db: Db, clock: Clock, token: string): Promise<string | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const [row] = await db
    .select({ email: users.email })
    .from(passwordLinks)
    .innerJoin(users, eq(users.id, passwordLinks.userId))
    .where(usable(token, clock));
  return row?.email;
}

/**
 * Uses the link once: marks it used and stores the new password hash together, so two tabs
 * cannot both use it. False when the link is unknown, used or expired.
 */
export async function usePasswordLink(db: Db, clock: Clock, token: string, passwordHash: string): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  return db.transaction(async (tx) => {
    const [link] = await tx.update(passwordLinks).set({ usedAt: clock.now() }).where(usable(token, clock)).returning({ userId: passwordLinks.userId });
    if (!link) return false;
    await tx.update(users).set({ passwordHash, failedSignIns: 0 }).where(eq(users.id, link.userId));
    return true;
  });
}
