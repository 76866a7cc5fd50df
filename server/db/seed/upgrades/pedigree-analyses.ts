import { and, eq, inArray, isNull } from 'drizzle-orm';
import { MISSING_PERSONS_GROUP, SEED_ANALYSIS_GROUPS, SEED_KINSHIP_PEDIGREES } from '../../../genetics/seed-analyses';
import type { Db } from '../../database';
import { analyses, settings } from '../../schema';
import { seedAnalysisGroup } from '../analyses';

/** The settings key that says this upgrade ran (an administrator may delete what it wrote afterwards). */
const SEEDED = 'seed:pedigree-analyses';

/**
 * Start-up upgrade for databases seeded before issue 16, once per database: the seed pairwise and trio analyses get
 * their pedigree where they have none and still have the seed's roles (so a mutation model can be chosen), and the
 * "Missing persons" group with the six family shapes is added unless a group has that name. Later starts change
 * nothing, so what an administrator deletes stays deleted.
 */
export async function addPedigreeAnalyses(db: Db): Promise<{ pedigrees: number; groupAdded: boolean }> {
  const [done] = await db.select({ id: settings.id }).from(settings).where(eq(settings.id, SEEDED));
  if (done) return { pedigrees: 0, groupAdded: false };
  const seedRoles = new Map(SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).map((a) => [a.name, a.roles.join('\n')]));
  const rows = await db
    .select({ id: analyses.id, name: analyses.name, roles: analyses.roles })
    .from(analyses)
    .where(and(inArray(analyses.name, Object.keys(SEED_KINSHIP_PEDIGREES)), isNull(analyses.pedigree)));
  let pedigrees = 0;
  for (const row of rows) {
    if (row.roles.join('\n') !== seedRoles.get(row.name)) continue;
    await db.update(analyses).set({ pedigree: SEED_KINSHIP_PEDIGREES[row.name]! }).where(eq(analyses.id, row.id));
    pedigrees++;
  }
  const groupAdded = await seedAnalysisGroup(db, SEED_ANALYSIS_GROUPS.find((g) => g.name === MISSING_PERSONS_GROUP)!);
  await db.insert(settings).values({ id: SEEDED, text: new Date().toISOString() }).onConflictDoNothing();
  return { pedigrees, groupAdded };
}
