import { eq } from 'drizzle-orm';
import type { Db } from '../../database';
import { settings } from '../../schema';
import { seedMixtureAnalyses } from '../analyses';

/** The settings key that says this upgrade ran (an administrator may delete what it wrote afterwards). */
const SEEDED = 'seed:mixture-analyses';

/**
 * Start-up upgrade for databases seeded before issue 17, once per database: the "Mixtures" group with its analyses,
 * unless a group has that name. Later starts change nothing, so what an administrator deletes stays deleted.
 */
export async function addMixtureAnalyses(db: Db): Promise<{ groupAdded: boolean }> {
  const [done] = await db.select({ id: settings.id }).from(settings).where(eq(settings.id, SEEDED));
  if (done) return { groupAdded: false };
  const groupAdded = await seedMixtureAnalyses(db);
  await db.insert(settings).values({ id: SEEDED, text: new Date().toISOString() }).onConflictDoNothing();
  return { groupAdded };
}
