import { inArray } from 'drizzle-orm';
import { SEED_MAX_INCONSISTENCIES } from '../../../genetics/seed-analyses';
import type { Db } from '../../database';
import { analyses, analysisConstants } from '../../schema';

/** The seed analyses that count markers inconsistent with the relationship (GENETICS.md "Parentage with inconsistencies"). */
export const PARENTAGE_ANALYSES = ['Parent–child', 'Paternity trio'] as const;

/**
 * Start-up upgrade for databases seeded before issue 12: gives the analyses named exactly
 * 'Parent–child' or 'Paternity trio' (active or not) the constant `maxInconsistencies` (seed value 1)
 * when they lack it. Idempotent: a constant already there — seeded, or edited by an administrator —
 * is left as it is (the unique analysis/name index makes concurrent start-ups safe). Returns how
 * many constants it added.
 */
export async function addMaxInconsistencies(db: Db): Promise<number> {
  const rows = await db.select({ id: analyses.id }).from(analyses).where(inArray(analyses.name, [...PARENTAGE_ANALYSES]));
  if (rows.length === 0) return 0;
  const added = await db
    .insert(analysisConstants)
    .values(rows.map((r) => ({ ...SEED_MAX_INCONSISTENCIES, analysisId: r.id })))
    .onConflictDoNothing({ target: [analysisConstants.analysisId, analysisConstants.name] })
    .returning({ id: analysisConstants.id });
  return added.length;
}
