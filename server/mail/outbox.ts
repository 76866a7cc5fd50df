import type { Db } from '../db/database';
import { emailOutbox } from '../db/schema';

/** One e-mail to send: rendered, addressed, and named by the template hook it came from. */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  templateKey: string;
}

/**
 * Puts e-mails in the outbox. Call it inside the transaction of the event that sends them, so an
 * e-mail exists exactly when its event happened; the sender delivers it after the commit.
 */
export async function enqueueEmails(tx: Db, emails: readonly OutgoingEmail[], at: Date): Promise<void> {
  if (emails.length === 0) return;
  await tx.insert(emailOutbox).values(emails.map((e) => ({ ...e, createdAt: at })));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** A plain-text body as HTML: escaped (placeholders carry user-typed comments), paragraphs kept. */
export function textToHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
  return escaped
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}
