import { eq } from 'drizzle-orm';
import type { Db } from '../../database';
import { settings } from '../../schema';
import { seedMixtureAnalyses } from '../analyses';
import { insertSeedRules, SEED_MIXTURE_RULES } from '../search-rules';

/** The settings key that says this upgrade ran (an administrator may delete what it wrote afterwards). */
const SEEDED = 'seed:mixture-analyses';

/**
 * Start-up upgrade for databases seeded before issue 17, once per database (and the seeding of a new one): the
 * "Mixtures" group with its analyses, unless a group has that name, and the forensic-mixture search rule. Later starts
 * change nothing, so what an administrator deletes stays deleted.
 */
export async function addMixtureAnalyses(db: Db): Promise<{ groupAdded: boolean; rules: number }> {
  const [done] = await db.select({ id: settings.id }).from(settings).where(eq(settings.id, SEEDED));
  if (done) return { groupAdded: false, rules: 0 };
  const groupAdded = await seedMixtureAnalyses(db);
  const rules = await insertSeedRules(db, SEED_MIXTURE_RULES);
  await db.insert(settings).values({ id: SEEDED, text: new Date().toISOString() }).onConflictDoNothing();
  return { groupAdded, rules };
}
