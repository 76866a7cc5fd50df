import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { emailOutbox } from '../db/schema';
import { serialRounds } from '../jobs/serial-rounds';

/** What delivers one e-mail (nodemailer's transporter; tests pass a fake). */
export interface MailTransport {
  sendMail(message: { from: string; to: string; subject: string; text: string; html?: string }): Promise<unknown>;
}

/** How long a sender holds a claimed row before another may try it; also the wait before a retry. */
export const LEASE_MS = 5 * 60_000;
/** Attempts before a row is left for an operator to look at (its error stays in the outbox list). */
export const MAX_ATTEMPTS = 10;
/** Rows claimed per round. */
const BATCH = 20;

export interface OutboxSender {
  /** Delivers what is due; resolves with how many were sent. Without SMTP it sends nothing. */
  deliverPending(): Promise<number>;
  /** Delivers in the background, now and every `intervalMs` (retries), until stopped. */
  start(intervalMs?: number): void;
  stop(): Promise<void>;
}

/** The SMTP transport of the configuration, or null in embedded mode (e-mails stay in the outbox). */
export function smtpTransport(config: Config): MailTransport | null {
  return config.mail.smtpUrl ? nodemailer.createTransport(config.mail.smtpUrl) : null;
}

/**
 * Delivers outbox rows. Each round claims due rows in one statement (a lease: `next_attempt_at`
 * moves ahead and `attempts` counts up), so several processes never send a row twice, then sends
 * each and stamps `sent_at`, or keeps the error for the next round after the lease.
 */
export function createOutboxSender(deps: { db: Db; clock: Clock; transport: MailTransport | null; from: string; onError?: (err: unknown) => void }): OutboxSender {
  const { db, clock, transport, from } = deps;

  async function claim(): Promise<(typeof emailOutbox.$inferSelect)[]> {
    const now = clock.now();
    const due = db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(isNull(emailOutbox.sentAt), lt(emailOutbox.attempts, MAX_ATTEMPTS), or(isNull(emailOutbox.nextAttemptAt), lte(emailOutbox.nextAttemptAt, now))))
      .orderBy(asc(emailOutbox.createdAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    return db
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(inArray(emailOutbox.id, due))
      .returning();
  }

  async function round(): Promise<number> {
    if (!transport) return 0;
    let sent = 0;
    for (let rows = await claim(); rows.length > 0; rows = await claim()) {
      for (const row of rows) {
        try {
          await transport.sendMail({ from, to: row.to, subject: row.subject, text: row.text, ...(row.html ? { html: row.html } : {}) });
          await db.update(emailOutbox).set({ sentAt: clock.now(), error: null }).where(eq(emailOutbox.id, row.id));
          sent++;
        } catch (err) {
          await db.update(emailOutbox).set({ error: err instanceof Error ? err.message : String(err) }).where(eq(emailOutbox.id, row.id));
        }
      }
    }
    return sent;
  }

  const rounds = serialRounds(round, deps.onError);
  return {
    deliverPending: rounds.run,
    start(intervalMs = 60_000) {
      if (transport) rounds.start(intervalMs);
    },
    stop: rounds.stop,
  };
}
