import { eq } from 'drizzle-orm';
import { DEFAULT_EMAIL_TEMPLATES } from '../../../../core/schemas/email-templates';
import type { Db } from '../../database';
import { emailTemplates, settings } from '../../schema';

/** The settings key that says this upgrade ran (an administrator may delete the template afterwards). */
const SEEDED = 'seed:hit-retracted-template';

/**
 * Start-up upgrade for databases seeded before issue 18, once per database: the hit-retracted e-mail template, unless
 * one exists. Later starts change nothing, so a template an administrator deletes stays deleted (the retraction then
 * falls back to the default text). Returns whether it added the template.
 */
export async function addHitRetractedTemplate(db: Db): Promise<boolean> {
  const [done] = await db.select({ id: settings.id }).from(settings).where(eq(settings.id, SEEDED));
  if (done) return false;
  const template = DEFAULT_EMAIL_TEMPLATES.find((t) => t.hook === 'hit-retracted')!;
  const added = await db
    .insert(emailTemplates)
    .values({ hook: template.hook, subject: template.subject, body: template.body })
    .onConflictDoNothing({ target: emailTemplates.hook })
    .returning({ id: emailTemplates.id });
  await db.insert(settings).values({ id: SEEDED, text: new Date().toISOString() }).onConflictDoNothing();
  return added.length > 0;
}
