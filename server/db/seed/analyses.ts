import { SEED_ANALYSIS_GROUPS } from '../../genetics/seed-analyses';
import type { Db } from '../database';
import { analyses, analysisConstants, analysisFormulae, analysisGroups } from '../schema';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Writes the seed analysis groups of GENETICS.md, with their constants and complete formula tables. */
export async function seedAnalyses(tx: Tx): Promise<void> {
  for (const group of SEED_ANALYSIS_GROUPS) {
    const [groupRow] = await tx.insert(analysisGroups).values({ name: group.name }).returning({ id: analysisGroups.id });
    for (const { constants, formulae, ...analysis } of group.analyses) {
      const [row] = await tx.insert(analyses).values({ ...analysis, analysisGroupId: groupRow!.id, active: true }).returning({ id: analyses.id });
      if (constants.length > 0) await tx.insert(analysisConstants).values(constants.map((c) => ({ ...c, analysisId: row!.id })));
      await tx.insert(analysisFormulae).values(formulae.map((f) => ({ ...f, analysisId: row!.id })));
    }
  }
}
