import { MIXTURES_GROUP, SEED_ANALYSIS_GROUPS, SEED_MIXTURE_ANALYSES } from '../../genetics/seed-analyses';
import type { Db } from '../database';
import { analyses, analysisConstants, analysisFormulae, analysisGroups } from '../schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Writes one seed analysis group with its analyses, their constants, formula tables and pedigrees; nothing when a
 * group of that name exists (a concurrent start-up wrote it). Returns whether it wrote the group.
 */
export async function seedAnalysisGroup(tx: Tx | Db, group: (typeof SEED_ANALYSIS_GROUPS)[number]): Promise<boolean> {
  const [groupRow] = await tx.insert(analysisGroups).values({ name: group.name }).onConflictDoNothing().returning({ id: analysisGroups.id });
  if (!groupRow) return false;
  for (const { constants, formulae, ...analysis } of group.analyses) {
    const [row] = await tx.insert(analyses).values({ ...analysis, analysisGroupId: groupRow!.id, active: true }).returning({ id: analyses.id });
    if (constants.length > 0) await tx.insert(analysisConstants).values(constants.map((c) => ({ ...c, analysisId: row!.id })));
    if (formulae.length > 0) await tx.insert(analysisFormulae).values(formulae.map((f) => ({ ...f, analysisId: row!.id })));
  }
  return true;
}

/** Writes the seed mixture analyses in their group; nothing when a group of that name exists. Returns whether it wrote it. */
export async function seedMixtureAnalyses(tx: Tx | Db): Promise<boolean> {
  const [groupRow] = await tx.insert(analysisGroups).values({ name: MIXTURES_GROUP }).onConflictDoNothing().returning({ id: analysisGroups.id });
  if (!groupRow) return false;
  await tx.insert(analyses).values(SEED_MIXTURE_ANALYSES.map((a) => ({ ...a, roles: [...a.roles], analysisGroupId: groupRow.id, active: true })));
  return true;
}

/** Writes the seed analysis groups of GENETICS.md, with their constants and complete formula tables, and the mixture analyses. */
export async function seedAnalyses(tx: Tx): Promise<void> {
  for (const group of SEED_ANALYSIS_GROUPS) await seedAnalysisGroup(tx, group);
  await seedMixtureAnalyses(tx);
}
