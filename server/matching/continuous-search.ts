import type { ContinuousCandidateFigures, ContinuousSearchSetting } from '../../core/schemas/continuous';
import type { MixtureSetting } from '../../core/schemas/mixtures';
import { candidateTables, hdUnknowns, type ContributorSearchCase } from '../genetics/continuous/candidate-tables';
import { fitSearchHd, reweighCandidate, type SearchHdFit } from '../genetics/continuous/candidate-reweighing';
import { prepareEvidence, type PreparedEvidence } from '../genetics/continuous/continuous-likelihood';
import { continuousCase } from '../genetics/continuous/continuous-request';
import { ContinuousModelError, type Peak } from '../genetics/continuous/continuous-types';
import { MixtureError } from '../genetics/mixture/mixture-lr';
import type { LrDistribution } from '../genetics/statistics';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import { evaluablePopulations, pooledGenotypes, type SkippedPopulation } from './evaluable-populations';
import { genotypeLrPlan, sideScore, type GenotypeLr } from './genotype-lr-plan';
import type { IndexSet } from './index-set';
import { mixtureUnrelatedDistribution } from './mixture-search';
import { ExactWeighing } from './exact-weighing';
import { placementPass } from './placement-pass';
import type { ProfileIndex } from './profile-index';
import { candidateGenotypes, chanceAt, reported, rulePopulations, searchedCount, searchedIndexes, type MatchRule, type RuleChance, type RuleMatch, type RulePopulationResult } from './rule-match';
import type { MatchProfile, StainHeights } from './types';

/** A stain with peak heights as a search takes it (plain data: it crosses to a search thread). */
export interface ContinuousStain {
  /** Per replicate, each marker's peaks (allele, height, size when known). */
  replicates: { marker: string; peaks: Peak[] }[][];
  /** Thresholds of particular markers (the kit's per dye); the others take the setting's. */
  markerThresholds: ReadonlyMap<string, number>;
  /** The kit's allele sizes per marker (degradation); empty without. */
  fragmentSizes: StainHeights['fragmentSizes'];
  knownContributors: readonly ReadonlyMap<string, Genotype>[];
}

/** One population of a continuous search: Hd fitted once, and per unknown of Hd the candidate's tables in its place. */
export interface ContinuousLane {
  populationId: string;
  population: PopulationFrequencies;
  searchCase: ContributorSearchCase;
  evidence: PreparedEvidence;
  hd: SearchHdFit;
  /** [position] → marker → the candidate's LR there, Hd's fit with the candidate in that unknown's place. */
  tables: Map<string, GenotypeLr>[];
}

/** The search case of a stain in one population: the calculator's evidence (continuousCase) with the analysis's drop-in, θ and frequency rule. */
function searchCase(stain: ContinuousStain, setting: MixtureSetting, continuous: ContinuousSearchSetting, population: PopulationFrequencies): ContributorSearchCase {
  const { evidence } = continuousCase({
    contributors: setting.contributors,
    replicates: stain.replicates,
    personOfInterest: new Map(),
    knownContributors: [],
    knownNonContributors: [],
    personOfInterestTypedUnderHd: setting.personOfInterestTypedUnderHd,
    population,
    populationId: null,
    normalizeFrequencies: setting.normalizeFrequencies,
    analyticalThreshold: continuous.analyticalThreshold,
    markerThresholds: new Map(stain.markerThresholds),
    dropIn: setting.dropIn,
    dropInLambda: continuous.dropInLambda,
    theta: setting.theta,
    model: continuous.model,
    fragmentSizes: new Map([...stain.fragmentSizes].map(([m, f]) => [m, { alleles: new Map(f.alleles), longest: f.longest }])),
    parameters: { mode: 'fit', starts: continuous.starts, seed: continuous.seed },
    deconvolution: false,
    contributorSearch: null,
  });
  return { evidence, contributors: setting.contributors, knownContributors: stain.knownContributors, knownNonContributors: [], personOfInterestTypedUnderHd: setting.personOfInterestTypedUnderHd };
}

/** Why a population's Hd fit gives no tables. */
const NO_FIT = 'not evaluated: no continuous-model parameters explain the evidence under Hd';

/**
 * Per population, Hd fitted once (the known contributors conditioned, unknowns only) and one table per marker for each
 * unknown the candidate may replace (GENETICS.md "Continuous model": database search). A population whose evidence the
 * model cannot weigh, or whose Hd fit explains nothing, is skipped with the reason.
 */
export function prepareContinuous(stain: ContinuousStain, setting: MixtureSetting, continuous: ContinuousSearchSetting, populations: readonly { id: string; name: string; frequencies: PopulationFrequencies }[]): { lanes: ContinuousLane[]; skipped: SkippedPopulation[] } {
  if (setting.contributors - stain.knownContributors.length < 1) throw new MixtureError(`Hp holds the candidate and ${stain.knownContributors.length} known contributor(s): the number of contributors must be at least ${stain.knownContributors.length + 1}.`);
  const lanes: ContinuousLane[] = [];
  const skipped: SkippedPopulation[] = [];
  for (const p of populations) {
    const c = searchCase(stain, setting, continuous, p.frequencies);
    let evidence: PreparedEvidence;
    let hd: SearchHdFit;
    try {
      evidence = prepareEvidence(c.evidence);
      hd = fitSearchHd(c, continuous, evidence);
    } catch (error) {
      if (!(error instanceof ContinuousModelError)) throw error;
      skipped.push({ populationId: p.id, populationName: p.name, reason: `not evaluated: ${error.message}` });
      continue;
    }
    if (!hd.parameters) {
      skipped.push({ populationId: p.id, populationName: p.name, reason: NO_FIT });
      continue;
    }
    const parameters = hd.parameters;
    const tables = Array.from({ length: hdUnknowns(c) }, (_, j) => candidateTables(c, parameters, j, evidence) as Map<string, GenotypeLr>);
    lanes.push({ populationId: p.id, population: p.frequencies, searchCase: c, evidence, hd, tables });
  }
  return { lanes, skipped };
}

/**
 * The chance figures of the best placement over the unknowns: P(max over positions ≥ t) ≤ Σ P(position ≥ t) (Boole's
 * inequality) and ≥ the largest of them; each position's distribution is exact (GENETICS.md "Expected chance hits").
 */
export function placementChance(distributions: readonly LrDistribution[], searched: number, thresholdLog10: number, observedLog10: number | null): RuleChance {
  const each = distributions.map((d) => chanceAt(d, searched, thresholdLog10, observedLog10));
  const upper = (xs: number[]) => Math.min(1, xs.reduce((s, x) => s + x, 0));
  const probability = upper(each.map((c) => c.probability));
  const pValues = each.map((c) => c.pValueBracket);
  const pValueBracket = pValues.every((p) => p !== null) ? { lower: Math.max(...pValues.map((p) => p!.lower)), upper: upper(pValues.map((p) => p!.upper)) } : null;
  return {
    searchedProfiles: searched,
    thresholdLog10,
    probability,
    probabilityBracket: { lower: Math.max(...each.map((c) => c.probabilityBracket.lower)), upper: probability },
    expectedChanceHits: searched * probability,
    pValue: pValueBracket?.upper ?? null,
    pValueBracket,
    gridStep: each[0]!.gridStep,
  };
}

/** One candidate weighed in one lane: the scan's best placement and the exact LR of its own Hp fit. */
function weighCandidate(lane: ContinuousLane, continuous: ContinuousSearchSetting, genotypes: ReadonlyMap<string, Genotype>): { scan: { log10: number; markerCount: number; position: number }; figures: ContinuousCandidateFigures } {
  let scan = { log10: -Infinity, markerCount: 0, position: 0 };
  lane.tables.forEach((tables, position) => {
    const s = sideScore(tables, genotypes);
    if (position === 0 || s.log10 > scan.log10) scan = { ...s, position };
  });
  let exact: ReturnType<typeof reweighCandidate>;
  try {
    exact = reweighCandidate(lane.searchCase, continuous, lane.hd, genotypes as ReadonlyMap<string, readonly string[]>, lane.evidence);
  } catch (error) {
    // The calculator refuses this candidate (an allele the frequencies leave no room for): LR 0, as its tables say.
    if (!(error instanceof ContinuousModelError)) throw error;
    exact = { log10Lr: null, hp: null, hpFit: null, logLikelihoodHp: null, logLikelihoodHd: lane.hd.logLikelihood, hd: null };
  }
  return {
    scan,
    figures: { scanLog10Lr: Number.isFinite(scan.log10) ? scan.log10 : null, position: scan.position + 1, log10Lr: exact.log10Lr, hd: exact.hd ?? lane.hd.parameters, hp: exact.hp, hpFit: exact.hpFit, logLikelihoodHp: exact.logLikelihoodHp, logLikelihoodHd: exact.logLikelihoodHd, model: { ...continuous.model } },
  };
}

/** A population's result for a candidate: the exact LR as the hit's number, the chance figures at the scan's LR, both numbers kept. */
function populationResult(lane: ContinuousLane, weighed: ReturnType<typeof weighCandidate>, chance: RuleChance | null): RulePopulationResult {
  const log10 = weighed.figures.log10Lr;
  return { populationId: lane.populationId, combinedIndex: log10 === null ? 0 : 10 ** log10, log10, markerCount: weighed.scan.markerCount, nonExclusionMarkerCount: null, chance, continuous: weighed.figures };
}

/** Every position's plan of a lane over one index, cut at `cut`. */
const lanePlans = (index: ProfileIndex, lane: ContinuousLane, cut: number, minMarkers: number, groups: Uint8Array, excludeId: string) => lane.tables.map((tables) => genotypeLrPlan(index, tables, { cut, minMarkers, groups, excludeId }));

/**
 * One pass over an index's columns once Hd is fitted (issue 31 "Speed"): one read bounds every placement of every lane
 * at once (placement-pass.ts), and only the references whose bound reaches a cut are weighed exactly; `onSlot` gets, in
 * slot order, each slot of the mask whose best placement reaches its lane's cut over ≥ minMarkers markers in every lane.
 */
function reachingSlots(index: ProfileIndex, mask: Uint8Array, plans: readonly ReturnType<typeof lanePlans>[], cuts: readonly number[], minMarkers: number, onSlot: (slot: number) => void): void {
  const placements = plans.flatMap((ps, l) => ps.map((plan) => ({ plans: plan.plans, cut: cuts[l]! })));
  const weighed = new ExactWeighing(plans.map((ps) => ps.length), cuts, minMarkers);
  placementPass(index.size, placements, (byPlacement, from) => {
    for (const slot of weighed.reachedEveryLane(byPlacement, from)) if (index.slotInGroups(slot, mask)) onSlot(slot);
  });
}

/** The references whose best placement reaches its lane's cut in every lane (the column pass, then the side list one by one). */
export function continuousScan(lanes: readonly ContinuousLane[], scoped: readonly { index: ProfileIndex; mask: Uint8Array }[], cuts: readonly number[], minMarkers: number, excludeId: string): string[] {
  const found: string[] = [];
  for (const { index, mask } of scoped) {
    if (index.countInGroups(mask) === 0) continue;
    const plans = lanes.map((lane, l) => lanePlans(index, lane, cuts[l]!, minMarkers, mask, excludeId));
    reachingSlots(index, mask, plans, cuts, minMarkers, (slot) => {
      const id = index.idAt(slot);
      if (id !== excludeId) found.push(id);
    });
    // References the columns cannot hold (more than two alleles somewhere) are weighed one by one.
    const side = plans.map((ps) => new Set(ps.flatMap((plan) => plan.sideMatches().map((m) => m.profileId))));
    for (const id of side[0] ?? []) if (side.every((ids) => ids.has(id))) found.push(id);
  }
  return found;
}

/**
 * A mixture rule run on a stain with peak heights (issue 31 "Quantitative database search"): Hd fitted once per
 * population, one table per marker for each unknown the candidate may replace, one fused pass over the searched
 * references; a candidate is a match when its best placement reaches the rule's LR (or the LR giving at most the allowed
 * expected chance hits) in every population. Each match is then weighed exactly — Hp fitted with the candidate — and
 * keeps both numbers; the chance figures are those of the scan's LR.
 */
export function searchContinuous(rule: MatchRule, profile: MatchProfile, indexes: IndexSet, stain: ContinuousStain, continuous: ContinuousSearchSetting): RuleMatch[] {
  const setting = rule.analysis.mixture;
  if (!setting || profile.kind !== 'Autosomal') return [];
  const limit = rule.threshold.value ?? rule.analysis.threshold;
  if (limit === null) return [];
  const scoped = searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes);
  const searched = searchedCount(scoped, profile, rule.searchedSampleTypes);
  if (searched === 0) return [];
  const { usable, skipped: notEvaluable } = evaluablePopulations(rulePopulations(rule), profile.genotypes);
  const { lanes, skipped } = prepareContinuous(stain, setting, continuous, usable);
  skipped.unshift(...notEvaluable);
  if (lanes.length === 0) return [];
  const from = rule.threshold.kind === 'expected-chance-hits' ? 0 : Math.log10(limit) - 1;
  const distributions = lanes.map((lane) => lane.tables.map((tables) => mixtureUnrelatedDistribution(tables, lane.population, from)));
  // An expected-chance-hits threshold shared over the placements: each gets its share, so their sum stays within it.
  const cuts = distributions.map((ds) => (rule.threshold.kind === 'expected-chance-hits' ? Math.max(...ds.map((d) => d.thresholdFor(limit / searched / ds.length))) : Math.log10(limit)));
  const ids = continuousScan(lanes, scoped, cuts, rule.minMarkers, profile.id);
  const matches: RuleMatch[] = [];
  for (const [candidateId, genotypes] of candidateGenotypes(indexes, ids)) {
    const populations = lanes.map((lane, l) => {
      const weighed = weighCandidate(lane, continuous, genotypes);
      return populationResult(lane, weighed, placementChance(distributions[l]!, searched, cuts[l]!, Math.max(weighed.scan.log10, cuts[l]!)));
    });
    matches.push({ ruleId: rule.id, analysisId: rule.analysis.id, matchKind: 'mixture', queryId: profile.id, candidateId, queryRole: 0, symmetric: false, populations, reportedPopulationId: reported(populations), stringency: null, ...(skipped.length > 0 ? { skippedPopulations: skipped } : {}) });
  }
  return matches;
}

/** Profiles a ranked search weighs one by one to guess its first cut. */
const RANK_SAMPLE = 2048;
/** How many times more references than it keeps a ranked search's first cut aims to let through. */
const RANK_MARGIN = 4;
/** log10 a ranked search lowers its cut by when too few references reach it, before it takes every reference. */
const LOWER_BY = 3;

/** A reference's rank score: per lane its best placement, the smallest over the lanes; null when a lane compares fewer than minMarkers markers (the same in every placement). */
function rankScore(byLane: readonly (readonly { log10: number; markerCount: number }[])[], minMarkers: number): number | null {
  let score = Infinity;
  for (const placed of byLane) {
    if (placed[0]!.markerCount < minMarkers) return null;
    let best = -Infinity;
    for (const s of placed) best = Math.max(best, s.log10);
    score = Math.min(score, best);
  }
  return score;
}

/** A first cut for a ranked search: the score RANK_MARGIN·(limit + 1) of `searched` references would reach, read off a run of the first index's middle; −∞ when that is most of them. */
function sampledCut(indexes: readonly { index: ProfileIndex; plans: readonly ReturnType<typeof lanePlans>[] }[], limit: number, searched: number, minMarkers: number): number {
  const first = indexes.find(({ index }) => index.size > 0);
  if (!first || searched === 0) return -Infinity;
  const { index, plans } = first;
  const n = Math.min(index.size, RANK_SAMPLE);
  const from = (index.size - n) >>> 1;
  const scores: number[] = [];
  for (let slot = from; slot < from + n; slot++) {
    const score = rankScore(plans.map((ps) => ps.map((p) => p.scoreAt(slot))), minMarkers);
    if (score !== null) scores.push(score);
  }
  const at = Math.floor((RANK_MARGIN * (limit + 1) * scores.length) / searched);
  if (at >= scores.length) return -Infinity;
  scores.sort((a, b) => b - a);
  return scores[at]!;
}

/** A continuous mixture search on request: the stain against the searched references. */
export interface ContinuousRanking {
  stain: ContinuousStain;
  setting: MixtureSetting;
  continuous: ContinuousSearchSetting;
  populations: readonly { id: string; frequencies: PopulationFrequencies }[];
  scoped: readonly { index: ProfileIndex; mask: Uint8Array }[];
  excludeIds: ReadonlySet<string>;
  minMarkers: number;
  limit: number;
}

/** One ranked reference: per population its exact LR (the hit's number), both numbers and the chance figures. */
export interface RankedContinuousCandidate {
  profileId: string;
  populations: RulePopulationResult[];
}

/** Hd's fit per population, as the answer states it. */
export interface ContinuousLaneSummary {
  populationId: string;
  hd: SearchHdFit;
  unknowns: number;
}

/**
 * The searched references ranked by their continuous-model LR (issue 31): per population Hd fitted once and the
 * tables of each placement; every reference scored by its best placement, the `limit` best by their smallest score
 * over the populations, each then weighed exactly (its own Hp fit) and listed strongest exact LR first.
 */
export function rankContinuous(r: ContinuousRanking): { candidates: RankedContinuousCandidate[]; lanes: ContinuousLaneSummary[]; searched: number; truncated: boolean; skipped: SkippedPopulation[] } {
  const evidenceGenotypes = pooledGenotypes(r.stain.replicates.map((replicate) => new Map(replicate.map((m) => [m.marker, m.peaks.map((p) => p.allele)] as const))));
  const { usable, skipped: notEvaluable } = evaluablePopulations(r.populations.map((p) => ({ ...p, name: p.frequencies.name, kind: 'Autosomal' as const })), evidenceGenotypes);
  const { lanes, skipped } = prepareContinuous(r.stain, r.setting, r.continuous, usable);
  skipped.unshift(...notEvaluable);
  if (lanes.length === 0) throw new MixtureError(`No chosen population can weigh this evidence with the continuous model: ${skipped.map((s) => `${s.populationName} (${s.reason})`).join('; ')}.`);
  const indexes = r.scoped.map(({ index, mask }) => ({
    index,
    mask,
    plans: lanes.map((lane) => lanePlans(index, lane, -Infinity, r.minMarkers, mask, '')),
    excluded: new Set([...r.excludeIds].map((id) => index.slotOf(id)).filter((slot) => slot >= 0)),
  }));
  // Every reference of the groups but the excluded ones is searched, whatever its markers.
  const searched = indexes.reduce((sum, { index, mask }) => sum + index.countInGroups(mask) - [...r.excludeIds].filter((id) => index.has(id) && index.idInGroups(id, mask)).length, 0);
  /** The references whose score reaches `cut`, in scan order (each index's columns, then its side list), each with its score. */
  const reaching = (cut: number) => {
    const found: { score: number; index: ProfileIndex; slot: number; id?: string }[] = [];
    for (const { index, mask, plans, excluded } of indexes) {
      reachingSlots(index, mask, plans, lanes.map(() => cut), r.minMarkers, (slot) => {
        if (!excluded.has(slot)) found.push({ score: rankScore(plans.map((ps) => ps.map((p) => p.scoreAt(slot))), r.minMarkers)!, index, slot });
      });
      // References the columns cannot hold (more than two alleles somewhere) are weighed one by one.
      for (const [id, genotypes] of index.side) {
        if (!index.sideInGroups(id, mask) || r.excludeIds.has(id)) continue;
        const score = rankScore(lanes.map((lane) => lane.tables.map((tables) => sideScore(tables, genotypes))), r.minMarkers);
        if (score !== null && score >= cut) found.push({ score, index, slot: -1, id });
      }
    }
    return found;
  };
  // A cut more than `limit` references reach holds the `limit` best and their ties (the pass finds every reference at or
  // over it); guessed from a sample, lowered when too few reach it, down to every reference.
  let cut = sampledCut(indexes, r.limit, searched, r.minMarkers);
  let found = reaching(cut);
  for (const lower of [cut - LOWER_BY, -Infinity]) {
    if (found.length > r.limit || cut === -Infinity) break;
    cut = lower;
    found = reaching(cut);
  }
  // Strongest first, ties in scan order (a stable sort), as one-by-one weighing keeps them.
  found.sort((a, b) => b.score - a.score);
  const top = found.slice(0, r.limit).map((s) => ({ score: s.score, id: s.id ?? s.index.idAt(s.slot), index: s.index }));
  const from = top.length === 0 ? 0 : Math.min(...top.map((t) => t.score)) - 1;
  const distributions = lanes.map((lane) => lane.tables.map((tables) => mixtureUnrelatedDistribution(tables, lane.population, Number.isFinite(from) ? from : -Infinity)));
  const candidates = top.map(({ id, index }) => {
    const genotypes = index.genotypesOf(id)!;
    return {
      profileId: id,
      populations: lanes.map((lane, l) => {
        const weighed = weighCandidate(lane, r.continuous, genotypes);
        const at = Math.max(weighed.scan.log10, Number.isFinite(from) ? from + 1 : -Infinity);
        return populationResult(lane, weighed, placementChance(distributions[l]!, searched, at, at));
      }),
    };
  });
  const smallest = (c: RankedContinuousCandidate) => Math.min(...c.populations.map((p) => p.log10 ?? -Infinity));
  candidates.sort((a, b) => smallest(b) - smallest(a));
  return { candidates, lanes: lanes.map((l) => ({ populationId: l.populationId, hd: l.hd, unknowns: l.tables.length })), searched, truncated: found.length > r.limit, skipped };
}
