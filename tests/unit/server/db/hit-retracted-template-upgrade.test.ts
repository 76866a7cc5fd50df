import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_TEMPLATES } from '../../../../core/schemas/email-templates';
import type { Database } from '../../../../server/db/database';
import { emailTemplates, settings } from '../../../../server/db/schema';
import { applySeedUpgrades } from '../../../../server/db/seed/upgrades';
import { addHitRetractedTemplate } from '../../../../server/db/seed/upgrades/hit-retracted-template';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();
const hooks = async (database: Database) => (await database.db.select({ hook: emailTemplates.hook }).from(emailTemplates)).map((t) => t.hook).sort();

describe.each(engines)('the hit-retracted template upgrade (issue 18) on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('adds the hit-retracted template to a database seeded before issue 18, once; a deleted template stays deleted', async () => {
    database = await open();
    const db = database.db;
    // As seeded before issue 18: the hit-published and password-link templates, an administrator's wording kept.
    await db.insert(emailTemplates).values(DEFAULT_EMAIL_TEMPLATES.filter((t) => t.hook !== 'hit-retracted').map((t) => ({ ...t, subject: `Ours: ${t.subject}` })));

    await applySeedUpgrades(db);
    expect(await hooks(database)).toEqual(['hit-published', 'hit-retracted', 'password-link']);
    const [retracted] = await db.select().from(emailTemplates).where(eq(emailTemplates.hook, 'hit-retracted'));
    expect(retracted).toMatchObject({ subject: 'Hit retracted in case {caseId}' });
    expect(retracted!.body).toContain('{retractedBy} retracted a hit in case {caseId}');
    const [published] = await db.select().from(emailTemplates).where(eq(emailTemplates.hook, 'hit-published'));
    expect(published!.subject).toBe('Ours: Hit published in case {caseId}');

    await db.delete(emailTemplates).where(eq(emailTemplates.hook, 'hit-retracted'));
    await applySeedUpgrades(db);
    expect(await hooks(database)).toEqual(['hit-published', 'password-link']);
  });

  it('leaves a hit-retracted template an administrator added before the upgrade as it is', async () => {
    database = await open();
    const db = database.db;
    await db.insert(emailTemplates).values({ hook: 'hit-retracted', subject: 'Retraction {caseId}', body: '{reason}' });
    expect(await addHitRetractedTemplate(db)).toBe(false);
    expect(await db.select({ subject: emailTemplates.subject }).from(emailTemplates)).toEqual([{ subject: 'Retraction {caseId}' }]);
    expect(await db.select({ id: settings.id }).from(settings).where(eq(settings.id, 'seed:hit-retracted-template'))).toHaveLength(1);
  });
});
