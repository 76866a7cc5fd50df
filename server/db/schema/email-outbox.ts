import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/**
 * Every e-mail Locus sends, written in the transaction of the event that sends it (ARCHITECTURE.md:
 * the outbox in embedded mode, SMTP when configured). The sender stamps `sentAt` or `error`.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** The template's hook (e.g. hit-published). */
    templateKey: text('template_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The last delivery failure; the sender tries again later. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** A sender claims a row until then (a lease, so two processes never send it twice); a failed row is retried after it. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
  },
  (t) => [
    // The sender's query: unsent rows whose lease has run out, oldest first.
    index('email_outbox_unsent_idx').on(t.nextAttemptAt, t.createdAt).where(sql`${t.sentAt} is null`),
    // The outbox list, newest first.
    index('email_outbox_created_idx').on(t.createdAt),
  ],
);
