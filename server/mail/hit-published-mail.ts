import { and, eq, exists, inArray, isNull, or } from 'drizzle-orm';
import { DEFAULT_EMAIL_TEMPLATES, renderTemplate } from '../../core/schemas/email-templates';
import type { Db } from '../db/database';
import { caseAssignedUsers, cases, emailTemplates, userOrganizations, users } from '../db/schema';
import { enqueueEmails, textToHtml, type OutgoingEmail } from './outbox';

const HOOK = 'hit-published';

/** What the hit-published e-mail says about the hit. */
export interface PublishedHit {
  hitId: string;
  organizationId: string;
  caseIds: readonly string[];
  analysis: string;
  probability: string;
  publishedBy: string;
  comments: string;
}

/** The hook's template as an administrator saved it, else the one a new installation starts with. */
async function loadTemplate(tx: Db): Promise<{ subject: string; body: string }> {
  const [saved] = await tx.select({ subject: emailTemplates.subject, body: emailTemplates.body }).from(emailTemplates).where(eq(emailTemplates.hook, HOOK));
  return saved ?? DEFAULT_EMAIL_TEMPLATES.find((t) => t.hook === HOOK)!;
}

/**
 * Assigned users of the cases who receive notifications, are not locked out and may see the hit's
 * organization (a user of another laboratory assigned to a matched case is not told about a hit
 * they cannot open). One entry per user, with the case numbers they are assigned to.
 */
async function recipients(tx: Db, hit: PublishedHit) {
  if (hit.caseIds.length === 0) return [];
  const member = tx
    .select({ one: userOrganizations.userId })
    .from(userOrganizations)
    .where(and(eq(userOrganizations.userId, users.id), eq(userOrganizations.organizationId, hit.organizationId)));
  const rows = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, caseNumber: cases.caseNumber })
    .from(caseAssignedUsers)
    .innerJoin(users, eq(users.id, caseAssignedUsers.userId))
    .innerJoin(cases, eq(cases.id, caseAssignedUsers.caseId))
    .where(and(inArray(caseAssignedUsers.caseId, [...hit.caseIds]), eq(users.receiveNotifications, true), isNull(users.lockedAt), or(eq(users.scope, 'All'), exists(member))))
    .orderBy(users.email, cases.caseNumber);
  const byUser = new Map<string, { email: string; name: string; caseNumbers: string[] }>();
  for (const r of rows) {
    const entry = byUser.get(r.id) ?? { email: r.email, name: `${r.firstName} ${r.lastName}`.trim() || r.email, caseNumbers: [] };
    entry.caseNumbers.push(r.caseNumber);
    byUser.set(r.id, entry);
  }
  return [...byUser.values()];
}

/**
 * Renders the hit-published template for each recipient and puts the e-mails in the outbox, in the
 * publishing transaction (ARCHITECTURE.md "States": notify). Returns how many were queued.
 */
export async function queueHitPublishedMail(tx: Db, hit: PublishedHit, opts: { publicUrl: string; at: Date }): Promise<number> {
  const template = await loadTemplate(tx);
  const hitUrl = `${opts.publicUrl}/${hit.organizationId}/hits/${hit.hitId}`;
  const emails: OutgoingEmail[] = (await recipients(tx, hit)).map((r) => {
    const values = { recipientName: r.name, caseId: r.caseNumbers.join(', '), hitUrl, analysis: hit.analysis, probability: hit.probability, publishedBy: hit.publishedBy, comments: hit.comments };
    const text = renderTemplate(template.body, values);
    return { to: r.email, subject: renderTemplate(template.subject, values), text, html: textToHtml(text), templateKey: HOOK };
  });
  await enqueueEmails(tx, emails, opts.at);
  return emails.length;
}
