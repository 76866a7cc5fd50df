import { eq } from 'drizzle-orm';
import type { HitFigures } from '../../core/schemas/hit-figures';
import type { Db } from '../../server/db/database';
import { hits, populations, searchRules } from '../../server/db/schema';
import { SYNTHETIC_POPULATION_NAME } from '../../server/db/seed/reference/synthetic-population';

/** The seed identity rule (server/db/seed/search-rules.ts) a rule hit says found it. */
export const FORENSIC_RULE = 'Forensic unknowns against forensic, offender, arrestee and suspect profiles';

/**
 * The figures a moderate-stringency identity rule records for a 13-marker match searched among
 * 1,000,000 profiles: `reported` (LR 2.5e15, the smallest) and the synthetic demo population (LR 3.1e16)
 * side by side. P(stringency met | unrelated) = 3e-10 → 1,000,000 × 3e-10 = 0.0003 chance hits expected.
 */
export function identityRuleFigures(reported: { id: string; name: string }, synthetic: { id: string; name: string }): HitFigures {
  const chance = (probability: number, pValue: number) => ({
    searchedProfiles: 1_000_000,
    thresholdLog10: null,
    probability,
    probabilityBracket: { lower: probability, upper: probability },
    expectedChanceHits: 1_000_000 * probability,
    pValue,
    pValueBracket: { lower: pValue * 0.98, upper: pValue },
    gridStep: 0.001,
  });
  return {
    populations: [
      { populationId: reported.id, populationName: reported.name, synthetic: false, combinedIndex: 2.5e15, log10: Math.log10(2.5e15), markerCount: 13, nonExclusionMarkerCount: null, probability: '99.99% (CI 2.50e+15)', reported: true, chance: chance(3e-10, 1.2e-20) },
      { populationId: synthetic.id, populationName: synthetic.name, synthetic: true, combinedIndex: 3.1e16, log10: Math.log10(3.1e16), markerCount: 13, nonExclusionMarkerCount: null, probability: '99.99% (CI 3.10e+16)', reported: false, chance: chance(2e-10, 4.5e-22) },
    ],
    stringency: { stringency: 'moderate', comparedMarkers: 13, mismatches: 0, minMarkers: 8, maxMismatches: 0, probability: 3e-10, searchedProfiles: 1_000_000, expectedChanceHits: 0.0003 },
  };
}

/**
 * Makes a recorded hit one the seed forensic identity rule found, as record-rule-matches.ts stores it:
 * the rule, the match kind, every population's figures (the reported one and the synthetic demo
 * population) and the reported expected chance hits and p-value.
 */
export async function asIdentityRuleHit(db: Db, hitId: string, reportedPopulationId: string): Promise<HitFigures> {
  const [rule] = await db.select().from(searchRules).where(eq(searchRules.name, FORENSIC_RULE));
  const [reported] = await db.select().from(populations).where(eq(populations.id, reportedPopulationId));
  const [synthetic] = await db.select().from(populations).where(eq(populations.name, SYNTHETIC_POPULATION_NAME));
  const figures = identityRuleFigures(reported!, synthetic!);
  await db
    .update(hits)
    .set({ searchRuleId: rule!.id, matchKind: 'identity', figures, expectedChanceHits: figures.stringency!.expectedChanceHits, pValue: figures.populations[0]!.chance!.pValue })
    .where(eq(hits.id, hitId));
  return figures;
}
