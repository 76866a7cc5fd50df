import { and, eq, sql } from 'drizzle-orm';
import { MIXTURES_GROUP, SEED_CONTINUOUS_ANALYSIS } from '../../../genetics/seed-analyses';
import type { Db } from '../../database';
import { analyses, analysisGroups, settings } from '../../schema';

/** The settings key that says this upgrade ran (an administrator may delete what it wrote afterwards). */
const SEEDED = 'seed:continuous-analyses';

/**
 * Start-up step of issue 31, once per database (new or seeded before): the Continuous mixture analysis in the
 * Mixtures group (the group made again if it is gone), unless the group already has an analysis of that name. Later
 * starts change nothing, so what an administrator deletes stays deleted. Returns whether it added the analysis.
 */
export async function addContinuousAnalyses(db: Db): Promise<boolean> {
  const [done] = await db.select({ id: settings.id }).from(settings).where(eq(settings.id, SEEDED));
  if (done) return false;
  await db.insert(analysisGroups).values({ name: MIXTURES_GROUP }).onConflictDoNothing();
  const [group] = await db.select({ id: analysisGroups.id }).from(analysisGroups).where(sql`lower(${analysisGroups.name}) = lower(${MIXTURES_GROUP})`);
  const [present] = await db.select({ id: analyses.id }).from(analyses).where(and(eq(analyses.analysisGroupId, group!.id), eq(analyses.name, SEED_CONTINUOUS_ANALYSIS.name)));
  if (!present) await db.insert(analyses).values({ ...SEED_CONTINUOUS_ANALYSIS, roles: [...SEED_CONTINUOUS_ANALYSIS.roles], analysisGroupId: group!.id, active: true });
  await db.insert(settings).values({ id: SEEDED, text: new Date().toISOString() }).onConflictDoNothing();
  return !present;
}
