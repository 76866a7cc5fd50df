import type { HitFigures } from '../../core/schemas/hit-figures';
import { formatHitProbability } from '../../core/probability-display';
import type { Db } from '../db/database';
import { hitHistory, hitProfiles, hits } from '../db/schema';
import type { FamilyMatch } from '../missing-persons/family-search';
import type { LoadedFamily } from '../missing-persons/load-family';
import type { HitRow } from './record-hits';
import { matchDedupeKey, profileSetOf } from './record-rule-matches';

/** Every population of a family match side by side, the reported (smallest LR) marked, with the markers needing a mutation. */
function familyFigures(match: FamilyMatch): HitFigures {
  return {
    populations: match.results.map((r) => ({
      populationId: r.population.id,
      populationName: r.population.name,
      synthetic: r.population.synthetic,
      combinedIndex: r.evaluation.combinedIndex,
      log10: r.evaluation.log10 === null || r.evaluation.log10 === -Infinity ? null : r.evaluation.log10,
      markerCount: r.markerCount,
      nonExclusionMarkerCount: null,
      probability: formatHitProbability({ combinedIndex: r.evaluation.combinedIndex, markerCount: r.markerCount, nonExclusionMarkerCount: 0 }),
      reported: r === match.reported,
      chance: r.chance,
      markersNeedingMutation: r.evaluation.markersNeedingMutation,
    })),
    stringency: null,
  };
}

/**
 * A family search's matches as pending hits (ARCHITECTURE.md "Hits": one per family and remains profile): the
 * remains in the missing person's role, the relatives in theirs, the pedigree analysis, the reported population's
 * LR and chance figures. Never twice (the analysis and the set of profiles), whatever state the first is in.
 * Returns the hits added. Run it in one transaction.
 */
export async function recordFamilyHits(tx: Db, loaded: LoadedFamily, matches: readonly FamilyMatch[], foundBy: string): Promise<HitRow[]> {
  const { family, analysis, hypotheses } = loaded;
  const added: HitRow[] = [];
  for (const match of matches) {
    const inRoles = analysis.roles.map((role) => ({ role, profileId: role === hypotheses.target ? match.profileId : family.relatives.find((r) => r.role === role)!.profileId }));
    const ids = inRoles.map((p) => p.profileId);
    const [row] = await tx
      .insert(hits)
      .values({
        organizationId: family.organizationId,
        analysisId: analysis.id,
        populationId: match.reported.population.id,
        combinedIndex: match.reported.evaluation.combinedIndex,
        markerCount: match.reported.markerCount,
        nonExclusionMarkerCount: null,
        dedupeKey: matchDedupeKey(analysis.id, ids),
        matchKind: 'kinship',
        profileSet: profileSetOf(ids),
        figures: familyFigures(match),
        expectedChanceHits: match.reported.chance?.expectedChanceHits ?? null,
        pValue: match.reported.chance?.pValue ?? null,
        familyId: family.id,
      })
      .onConflictDoNothing({ target: hits.dedupeKey })
      .returning();
    if (!row) continue;
    await tx.insert(hitProfiles).values(inRoles.map((p, position) => ({ hitId: row.id, role: p.role, position, profileId: p.profileId })));
    await tx.insert(hitHistory).values({ hitId: row.id, fromStatus: null, toStatus: 'pending', userName: foundBy });
    added.push(row);
  }
  return added;
}
