// The LR-ranked mixture search on request (issue 17), apart from the rule searches of mixture-search.ts.
import type { MixtureSetting } from '../../core/schemas/mixtures';
import { MixtureError } from '../genetics/mixture/mixture-lr';
import type { PopulationFrequencies } from '../genetics/types';
import { evaluablePopulations, pooledGenotypes, type SkippedPopulation } from './evaluable-populations';
import { sideScore } from './genotype-lr-plan';
import { markerTables, mixtureUnrelatedDistribution, plan, searchDropouts, weigh, type Evidence, type MixtureSearchParameters } from './mixture-search';
import type { ProfileIndex } from './profile-index';
import { chanceAt, type RulePopulationResult } from './rule-match';

/** Slots a ranked search scores at once: the block's sums stay in the L1 cache. */
const RANK_BLOCK = 4096;

/** One reference of a ranked mixture search, with its LR in every population. */
export interface RankedCandidate {
  profileId: string;
  populations: RulePopulationResult[];
}

/** A mixture search on request: a stain (its replicates, known contributors) against the searched references. */
export interface MixtureRanking {
  evidence: Evidence;
  setting: MixtureSetting;
  populations: readonly { id: string; frequencies: PopulationFrequencies }[];
  scoped: readonly { index: ProfileIndex; mask: Uint8Array }[];
  /** Never listed: the evidence's own profiles. */
  excludeIds: ReadonlySet<string>;
  minMarkers: number;
  limit: number;
}

/**
 * The searched references ranked by their mixture LR (issue 17: the LR-ranked database search, SmartRank's list):
 * per population the drop-out and one table per marker, every reference's log10 LR summed from the tables, the
 * `limit` best by their smallest LR over the populations, each then weighed exactly (the calculator's number, all
 * replicates and known contributors) with its p-value among unrelated candidates.
 */
export function rankMixture(r: MixtureRanking): { candidates: RankedCandidate[]; parameters: Map<string, MixtureSearchParameters>; searched: number; truncated: boolean; skipped: SkippedPopulation[] } {
  // The evidence's markers are every replicate's: a population holding none of them is not evaluated.
  const evidenceGenotypes = pooledGenotypes(r.evidence.replicates);
  const { usable, skipped } = evaluablePopulations(
    r.populations.map((p) => ({ ...p, name: p.frequencies.name, kind: 'Autosomal' as const })),
    evidenceGenotypes,
  );
  if (usable.length === 0 && skipped.length > 0) throw new MixtureError(`No chosen population can weigh this evidence: ${skipped.map((s) => `${s.populationName} (${s.reason})`).join('; ')}.`);
  const estimated = searchDropouts(r.setting, r.evidence, usable.map((p) => p.frequencies));
  const lanes = usable.flatMap((population, i) => {
    const dropouts = estimated[i]!;
    if (!dropouts) throw new MixtureError(`In ${population.frequencies.name} no simulated drop-out reproduced the evidence's allele count; check the number of contributors, or fix the drop-out.`);
    const parameters = { setting: r.setting, ...dropouts };
    const tables = markerTables(parameters, r.evidence, population.frequencies);
    return [{ population, parameters, tables }];
  });
  // Ids are decoded only for the kept: a slot and its index until then.
  const best: { score: number; id: () => string }[] = [];
  let floor = -Infinity;
  let searched = 0;
  const keep = (id: () => string, score: number) => {
    if (best.length >= r.limit && score <= floor) return;
    best.push({ score, id });
    if (best.length >= 2 * r.limit) {
      best.sort((a, b) => b.score - a.score);
      best.length = r.limit;
      floor = best[r.limit - 1]!.score;
    }
  };
  let over = 0;
  const blockSums = lanes.map(() => new Float64Array(RANK_BLOCK));
  const blockCounts = lanes.map(() => new Int32Array(RANK_BLOCK));
  for (const { index, mask } of r.scoped) {
    const plans = lanes.map((lane) => plan(index, lane.tables, -Infinity, r.minMarkers, mask, ''));
    const excluded = new Set([...r.excludeIds].map((id) => index.slotOf(id)));
    // Block by block, every lane's sums at once (the tables' columns read in order, no object per slot).
    for (let start = 0; start < index.size; start += RANK_BLOCK) {
      const end = Math.min(index.size, start + RANK_BLOCK);
      plans.forEach((p, l) => p.scoreBlock(start, end, blockSums[l]!, blockCounts[l]!));
      for (let slot = start; slot < end; slot++) {
        if (!index.slotInGroups(slot, mask) || excluded.has(slot)) continue;
        searched++;
        // Fewer compared markers than asked: not ranked (matchAt says no).
        let score = Infinity;
        for (let l = 0; l < plans.length; l++) {
          if (blockCounts[l]![slot - start]! < r.minMarkers) {
            score = NaN;
            break;
          }
          score = Math.min(score, blockSums[l]![slot - start]!);
        }
        if (Number.isNaN(score)) continue;
        over++;
        keep(() => index.idAt(slot), score);
      }
    }
    for (const [id, genotypes] of index.side) {
      if (!index.sideInGroups(id, mask) || r.excludeIds.has(id)) continue;
      searched++;
      const scores = lanes.map((lane) => {
        const { log10, markerCount } = sideScore(lane.tables, genotypes);
        return markerCount >= r.minMarkers ? log10 : null;
      });
      if (scores.some((s) => s === null)) continue;
      over++;
      keep(() => id, Math.min(...(scores as number[])));
    }
  }
  best.sort((a, b) => b.score - a.score);
  const top = best.slice(0, r.limit).map((b) => ({ score: b.score, id: b.id() }));
  // p-values are asked only at the listed LRs: each population's LR is at least the candidate's score.
  const from = top.length === 0 ? 0 : Math.min(...top.map((t) => t.score)) - 1;
  // None when nothing is listed: no p-value to give.
  const distributions = top.length === 0 ? [] : lanes.map((lane) => mixtureUnrelatedDistribution(lane.tables, lane.population.frequencies, Number.isFinite(from) ? from : -Infinity));
  const genotypesOf = new Map(r.scoped.flatMap(({ index }) => top.flatMap((t) => (index.has(t.id) ? [[t.id, index.genotypesOf(t.id)!] as const] : []))));
  const candidates = top.map(({ id }) => ({
    profileId: id,
    populations: lanes.map((lane, l) => {
      const { lr, markerCount } = weigh(r.setting, r.evidence, genotypesOf.get(id)!, lane.population.frequencies, lane.parameters, lane.tables);
      const log10 = lr > 0 ? Math.log10(lr) : null;
      const at = Math.max(log10 ?? -Infinity, Number.isFinite(from) ? from + 1 : -Infinity);
      return { populationId: lane.population.id, combinedIndex: lr, log10, markerCount, nonExclusionMarkerCount: null, chance: chanceAt(distributions[l]!, searched, at, at) };
    }),
  }));
  return { candidates, parameters: new Map(lanes.map((l) => [l.population.id, l.parameters])), searched, truncated: over > r.limit, skipped };
}
