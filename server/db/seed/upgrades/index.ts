import type { Db } from '../../database';
import { seedSearchRules } from '../search-rules';
import { seedUploadEligibility } from '../upload-eligibility';
import { addContinuousAnalyses } from './continuous-analyses';
import { addHitRetractedTemplate } from './hit-retracted-template';
import { addKitBins } from './kit-bins';
import { addMaxInconsistencies } from './max-inconsistencies';
import { addMixtureAnalyses } from './mixture-analyses';
import { addPedigreeAnalyses } from './pedigree-analyses';

/**
 * Seed data that later releases add to databases created before them, applied at every start
 * (each step is idempotent): the search rules (issue 12) and the parentage analyses'
 * `maxInconsistencies` constant, the pedigrees and family shapes of issue 16, the mixture analyses of issue 17, the
 * hit-retracted e-mail template of issue 18, the kits' allele bins and the Continuous mixture analysis of issue 31,
 * the upload eligibility rules of issue 32.
 */
export async function applySeedUpgrades(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await seedSearchRules(tx as unknown as Db);
    await addMaxInconsistencies(tx as unknown as Db);
    await addPedigreeAnalyses(tx as unknown as Db);
    await addMixtureAnalyses(tx as unknown as Db);
    await addHitRetractedTemplate(tx as unknown as Db);
    await addKitBins(tx as unknown as Db);
    await addContinuousAnalyses(tx as unknown as Db);
    await seedUploadEligibility(tx as unknown as Db);
  });
}
