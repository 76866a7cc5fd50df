import { and, eq, exists, inArray, isNull, or } from 'drizzle-orm';
import { DEFAULT_EMAIL_TEMPLATES, renderTemplate, type EmailHook } from '../../core/schemas/email-templates';
import type { Db } from '../db/database';
import { caseAssignedUsers, cases, emailTemplates, userOrganizations, users } from '../db/schema';
import { enqueueEmails, textToHtml, type OutgoingEmail } from './outbox';

/** Someone a hit e-mail goes to, with the case numbers it names for them. */
export interface HitMailRecipient {
  email: string;
  name: string;
  caseNumbers: string[];
}

/** The hook's template as an administrator saved it, else the one a new installation starts with. */
async function loadTemplate(tx: Db, hook: EmailHook): Promise<{ subject: string; body: string }> {
  const [saved] = await tx.select({ subject: emailTemplates.subject, body: emailTemplates.body }).from(emailTemplates).where(eq(emailTemplates.hook, hook));
  return saved ?? DEFAULT_EMAIL_TEMPLATES.find((t) => t.hook === hook)!;
}

/** A user's name as e-mails address them: first and last name, else the address. */
export const mailName = (u: { email: string; firstName: string; lastName: string }): string => `${u.firstName} ${u.lastName}`.trim() || u.email;

/** The link to a hit in Locus. */
export const hitUrl = (publicUrl: string, hit: { organizationId: string; hitId: string }): string => `${publicUrl}/${hit.organizationId}/hits/${hit.hitId}`;

/**
 * Assigned users of the cases who receive notifications, are not locked out and may see the hit's
 * organization (a user of another laboratory assigned to a matched case is not told about a hit
 * they cannot open). One entry per user, with the case numbers they are assigned to.
 */
export async function assignedRecipients(tx: Db, hit: { organizationId: string; caseIds: readonly string[] }): Promise<HitMailRecipient[]> {
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
  const byUser = new Map<string, HitMailRecipient>();
  for (const r of rows) {
    const entry = byUser.get(r.id) ?? { email: r.email, name: mailName(r), caseNumbers: [] };
    entry.caseNumbers.push(r.caseNumber);
    byUser.set(r.id, entry);
  }
  return [...byUser.values()];
}

/**
 * Renders the hook's template for each recipient (their name and case numbers, then `values`) and puts the e-mails
 * in the outbox, in the transaction of the event that sends them. Returns how many were queued.
 */
export async function queueHitMail(tx: Db, hook: EmailHook, recipients: readonly HitMailRecipient[], values: Readonly<Record<string, string>>, at: Date): Promise<number> {
  const template = await loadTemplate(tx, hook);
  const emails: OutgoingEmail[] = recipients.map((r) => {
    const filled = { recipientName: r.name, caseId: r.caseNumbers.join(', '), ...values };
    const text = renderTemplate(template.body, filled);
    return { to: r.email, subject: renderTemplate(template.subject, filled), text, html: textToHtml(text), templateKey: hook };
  });
  await enqueueEmails(tx, emails, at);
  return emails.length;
}
