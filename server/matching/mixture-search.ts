import type { MixtureSetting } from '../../core/schemas/mixtures';
import { mixtureCandidateLr, type CandidateLr } from '../genetics/mixture/candidate-lr';
import { CONSERVATIVE_HD_RULE, hypothesisDropouts, SEARCH_MAXIMUM_LIKELIHOOD_HD_RULE } from '../genetics/mixture/hypothesis-dropouts';
import { maximumLikelihoodDropout } from '../genetics/mixture/dropout-estimation';
import { monteCarloDropouts } from '../genetics/mixture/monte-carlo-dropout';
import { checkMixtureCase, evidenceMarkers, mixtureLr, MixtureError, type MixtureCase } from '../genetics/mixture/mixture-lr';
import { lrDistribution, unrelatedGenotypeAtoms, type LrAtom, type LrDistribution } from '../genetics/statistics';
import { withScratch } from '../genetics/statistics/search-scratch';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import { evaluablePopulations, type SkippedPopulation } from './evaluable-populations';
import { fusedScan } from './fused-scan';
import { genotypeLrPlan, type GenotypeLr } from './genotype-lr-plan';
import type { IndexSet } from './index-set';
import type { ProfileIndex } from './profile-index';
import { tableMixtureLr } from './table-mixture-lr';
import { CHANCE_GRID_STEP, chanceAt, candidateGenotypes, reported, rulePopulations, searchedCount, searchedIndexes, type MatchRule, type RuleMatch, type RulePopulationResult } from './rule-match';
import type { MatchProfile } from './types';

/** A mixture search's parameters in one population, drop-out made explicit (a hit's figures are the calculator's with these). */
export interface MixtureSearchParameters {
  setting: MixtureSetting;
  /** One drop-out per contributor under Hp (candidate, known contributors, unknowns). */
  dropout: number[];
  /** One per contributor under Hd (the unknown in the candidate's place, known contributors, unknowns); LRmix's when left out. */
  dropoutHd?: number[];
  /** How Hd's drop-outs were set, in the reader's words (the search's answer states it). */
  hdRule?: string;
}

/** A search's drop-outs in one population: Hp's, Hd's and how Hd's were set. */
type SearchDropouts = { dropout: number[]; dropoutHd: number[]; hdRule: string };

/**
 * The drop-out a search weighs with: the analysis's fixed values, or estimated from the evidence under Hd (which needs
 * no candidate) — the conservative Monte-Carlo 95th percentile, or Hd's maximum-likelihood value, for every contributor.
 * Null when the evidence cannot be explained (no simulated drop-out reproduced it).
 */
export function searchDropout(setting: MixtureSetting, evidence: ReadonlyMap<string, Genotype> | Evidence, population: PopulationFrequencies): SearchDropouts | null {
  return searchDropouts(setting, evidence, [population])[0]!;
}

/**
 * searchDropout in each population, the same values (GENETICS.md "Mixtures": drop-out estimation): the populations'
 * Monte-Carlo estimates read tries kept per (layout, drop-in, population), shared by every stain of the layout.
 */
export function searchDropouts(setting: MixtureSetting, evidence: ReadonlyMap<string, Genotype> | Evidence, populations: readonly PopulationFrequencies[]): (SearchDropouts | null)[] {
  const n = setting.contributors;
  if (setting.dropout.mode === 'fixed') {
    const { hp, hd, hdRule } = hypothesisDropouts(n, asEvidence(evidence).knownContributors.length, setting.dropout.values, setting.dropout.hdValues);
    return populations.map(() => ({ dropout: hp, dropoutHd: hd, hdRule }));
  }
  const cases = populations.map((population) => mixtureCase(setting, evidence, new Map(), population, new Array<number>(n).fill(0)));
  cases.forEach(checkMixtureCase);
  // Only the estimate the setting asks for: the other costs as much (the Monte Carlo most) and is not shown here.
  const conservative = setting.dropout.estimate === 'conservative';
  const estimates = conservative ? monteCarloDropouts(cases, 'Hd').map((e) => e.conservative) : cases.map((c) => maximumLikelihoodDropout(c, 'Hd').d);
  const hdRule = conservative ? CONSERVATIVE_HD_RULE : SEARCH_MAXIMUM_LIKELIHOOD_HD_RULE;
  return estimates.map((d) => (d === null ? null : { dropout: new Array<number>(n).fill(d), dropoutHd: new Array<number>(n).fill(d), hdRule }));
}

/** Why a mixture rule leaves a population out: its drop-out cannot be estimated from the evidence. */
const NO_DROPOUT_REASON = "not evaluated: no simulated drop-out reproduced the evidence's allele count";

/** The evidence of a search: its replicates and the known contributors (under both hypotheses). */
export interface Evidence {
  replicates: readonly ReadonlyMap<string, Genotype>[];
  knownContributors: readonly ReadonlyMap<string, Genotype>[];
}

const asEvidence = (e: ReadonlyMap<string, Genotype> | Evidence): Evidence => (e instanceof Map ? { replicates: [e], knownContributors: [] } : (e as Evidence));

function mixtureCase(setting: MixtureSetting, evidence: ReadonlyMap<string, Genotype> | Evidence, candidate: ReadonlyMap<string, Genotype>, population: PopulationFrequencies, dropout: number[], dropoutHd?: number[]): MixtureCase {
  const { replicates, knownContributors } = asEvidence(evidence);
  return {
    replicates,
    personOfInterest: candidate,
    knownContributors,
    contributors: setting.contributors,
    dropout,
    dropoutHd,
    dropIn: setting.dropIn,
    theta: setting.theta,
    personOfInterestTypedUnderHd: setting.personOfInterestTypedUnderHd,
    population,
    frequencyRule: { normalize: setting.normalizeFrequencies },
  };
}

/**
 * A candidate's figures as the calculator gives them (mixtureLr; LR 0 over no marker when it refuses the case): from
 * the search's tables, which hold the calculator's per-marker LRs, unless only the calculator can say.
 */
export function weigh(setting: MixtureSetting, evidence: ReadonlyMap<string, Genotype> | Evidence, candidate: ReadonlyMap<string, Genotype>, population: PopulationFrequencies, parameters: MixtureSearchParameters, tables: ReadonlyMap<string, GenotypeLr>): { lr: number; markerCount: number } {
  const c = mixtureCase(setting, evidence, candidate, population, parameters.dropout, parameters.dropoutHd);
  try {
    checkMixtureCase(c);
    const fromTables = tableMixtureLr(tables, candidate);
    if (fromTables) return fromTables;
    const result = mixtureLr(c);
    return { lr: result.lr, markerCount: result.markers.length };
  } catch (error) {
    if (!(error instanceof MixtureError)) throw error;
    return { lr: 0, markerCount: 0 };
  }
}

/**
 * Per marker of the evidence (with frequencies), the candidate's LR as a function of its genotype there (exported for the
 * benchmark). `weighed`: class tables another thread made for some of the markers (mixtureClassTables); `only`: the
 * markers to make, when not all.
 */
export function markerTables(parameters: MixtureSearchParameters, evidence: ReadonlyMap<string, Genotype> | Evidence, population: PopulationFrequencies, weighed?: ReadonlyMap<string, Float64Array>, only?: (marker: string, i: number) => boolean): Map<string, CandidateLr> {
  const { setting, dropout, dropoutHd } = parameters;
  const { replicates, knownContributors } = asEvidence(evidence);
  const tables = new Map<string, CandidateLr>();
  for (const [i, marker] of evidenceMarkers(replicates).filter((m) => population.markers.has(m)).entries()) {
    if (only && !only(marker, i)) continue;
    tables.set(
      marker,
      mixtureCandidateLr({
        population,
        marker,
        replicates: replicates.flatMap((r) => (r.has(marker) ? [r.get(marker)!] : [])),
        knownContributors: knownContributors.map((k) => k.get(marker)),
        dropout,
        dropoutHd: dropoutHd ?? hypothesisDropouts(setting.contributors, knownContributors.length, dropout).hd,
        parameters: { dropIn: setting.dropIn, theta: setting.theta },
        personOfInterestTypedUnderHd: setting.personOfInterestTypedUnderHd,
        frequencyRule: { normalize: setting.normalizeFrequencies },
      }, weighed?.get(marker)),
    );
  }
  return tables;
}

/**
 * The probability distribution of log10 LR for an unrelated candidate (GENETICS.md "Expected chance hits"): per
 * marker the candidate's genotype follows Hardy–Weinberg over the population's alleles, and the search's table gives
 * each genotype's LR; the convolution over the markers. `zeroProbability` false: lrDistribution's option (tails only).
 */
export function mixtureUnrelatedDistribution(tables: ReadonlyMap<string, (g: Genotype) => number | undefined>, population: PopulationFrequencies, from = -Infinity, step = CHANCE_GRID_STEP, zeroProbability = true): LrDistribution {
  const atoms: LrAtom[][] = [];
  for (const [marker, lr] of tables) {
    const frequencies = population.markers.get(marker);
    if (!frequencies || frequencies.frequencies.size === 0) continue;
    // The table's merged class stands for every allele never seen, OTHER_ALLELE included.
    // A search's own tables answer by class (byPair): each allele's class looked up once, not once per genotype.
    const byPair = 'byPair' in lr ? (lr as CandidateLr).byPair : undefined;
    atoms.push(unrelatedGenotypeAtoms(frequencies.frequencies, { sampleSize: frequencies.sampleSize, minimumAlleleFrequency: population.minimumAlleleFrequency, lrOf: (g) => lr(g) ?? null, ...(byPair ? { lrOfPair: byPair } : {}) }));
  }
  // Only tails from `from` up are asked for: a single marker can lie far below (two alleles never seen), so a full grid is long.
  return lrDistribution(atoms, { step, from, zeroProbability });
}

/** One population's lane of the fused pass: the per-marker log10 tables over an index's columns, cut at log10 of the limit. */
export const plan = (index: ProfileIndex, tables: ReadonlyMap<string, GenotypeLr>, cut: number, minMarkers: number, groups: Uint8Array, excludeId: string) => genotypeLrPlan(index, tables, { cut, minMarkers, groups, excludeId });

/**
 * A mixture rule (issue 17, GENETICS.md "How the search reaches memory speed"): per population the drop-out (fixed,
 * or estimated from the evidence under Hd), one LR table per marker over the candidate's genotype, and one fused pass
 * over the searched references; a candidate is a match when it reaches the rule's LR (or the LR giving at most the
 * allowed expected chance hits) in every population. Its figures are the calculator's (mixtureLr with that drop-out),
 * with the expected chance hits and p-value among unrelated candidates.
 */
export function searchMixture(rule: MatchRule, profile: MatchProfile, indexes: IndexSet, prepared?: PreparedMixture | null): { matches: RuleMatch[]; parameters: Map<string, MixtureSearchParameters> } {
  // Work prepared here ends with the search: its tables' and distribution's arrays come from the thread's scratch memory.
  if (prepared === undefined) return withScratch(() => searchPrepared(rule, profile, indexes, prepareMixture(rule, profile, indexes)));
  return searchPrepared(rule, profile, indexes, prepared);
}

function searchPrepared(rule: MatchRule, profile: MatchProfile, indexes: IndexSet, prepared: PreparedMixture | null): { matches: RuleMatch[]; parameters: Map<string, MixtureSearchParameters> } {
  const none = { matches: [], parameters: new Map<string, MixtureSearchParameters>() };
  if (!prepared || prepared.lanes.length === 0) return none;
  const { setting, lanes, skipped, searched } = prepared;
  const scoped = searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes);
  const reached = new Map<string, number>();
  for (const { index, mask } of scoped) {
    if (index.countInGroups(mask) === 0) continue;
    const found = fusedScan(lanes.map((lane) => plan(index, lane.tables, lane.cut, rule.minMarkers, mask, profile.id)));
    for (const matches of found) for (const m of matches) reached.set(m.profileId, (reached.get(m.profileId) ?? 0) + 1);
  }
  const ids = [...reached].filter(([, n]) => n === lanes.length).map(([id]) => id);
  const candidates = candidateGenotypes(indexes, ids);
  const matches: RuleMatch[] = [];
  for (const [candidateId, genotypes] of candidates) {
    const populations: RulePopulationResult[] = lanes.map((lane) => {
      const { lr, markerCount } = weigh(setting, profile.genotypes, genotypes, lane.population, lane.parameters, lane.tables);
      const log10 = lr > 0 ? Math.log10(lr) : null;
      // A reference the scan let through weighs, exactly, what its tables summed (to rounding): at or over the cut.
      return { populationId: lane.populationId, combinedIndex: lr, log10, markerCount, nonExclusionMarkerCount: null, chance: chanceAt(lane.distribution, searched, lane.cut, Math.max(log10 ?? -Infinity, lane.cut)) };
    });
    matches.push({
      ruleId: rule.id,
      analysisId: rule.analysis.id,
      matchKind: 'mixture',
      queryId: profile.id,
      candidateId,
      queryRole: 0,
      symmetric: false,
      populations,
      reportedPopulationId: reported(populations),
      stringency: null,
      ...(skipped.length > 0 ? { skippedPopulations: skipped } : {}),
    });
  }
  // Ranked by LR (the reported, smallest population's), the strongest first.
  const smallest = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? 0));
  matches.sort((a, b) => smallest(b) - smallest(a));
  return { matches, parameters: new Map(lanes.map((l) => [l.populationId, l.parameters])) };
}

/** One population of a mixture rule's search: its drop-out, per-marker tables, the unrelated distribution and the cut. */
export interface MixtureLane {
  populationId: string;
  population: PopulationFrequencies;
  parameters: MixtureSearchParameters;
  tables: Map<string, GenotypeLr>;
  /** Its tails (chance figures) only: zeroProbability is not computed (NaN). */
  distribution: LrDistribution;
  cut: number;
}

/** A mixture rule's per-search work: the same whatever the slice of the index it is scanned with (each slice of a split search makes its own). */
export interface PreparedMixture {
  setting: MixtureSetting;
  lanes: MixtureLane[];
  skipped: SkippedPopulation[];
  /** The references the rule searches (every slice's), the N of the chance figures. */
  searched: number;
}

/** Per population id, per marker, every class pair's LR (CandidateLr.everyClass): a share of a split search's tables. */
export type MixtureClassTables = Map<string, Map<string, Float64Array>>;

/** The populations a mixture rule weighs a stain in, each with its drop-outs (null: not estimable), and those it cannot. */
function ruleLanes(rule: MatchRule, profile: MatchProfile, setting: MixtureSetting) {
  // A population holding none of the evidence's markers, or whose drop-out cannot be estimated, is not evaluated.
  const { usable, skipped } = evaluablePopulations(rulePopulations(rule), profile.genotypes);
  const estimated = searchDropouts(setting, profile.genotypes, usable.map((p) => p.frequencies));
  return { usable: usable.map((population, i) => ({ population, dropouts: estimated[i]! })), skipped };
}

/**
 * A share of a mixture rule's per-marker tables, every class pair weighed (issue 29): the `part`-th of `of` shares of
 * each population's evidence markers, so the threads of a split search make the tables at once, each a share, and every
 * slice reads them all (prepareMixture's `weighed`) — the same numbers, made once.
 */
export function mixtureClassTables(rule: MatchRule, profile: MatchProfile, { part, of }: { part: number; of: number }): MixtureClassTables {
  const setting = rule.analysis.mixture;
  const out: MixtureClassTables = new Map();
  if (!setting || profile.kind !== 'Autosomal') return out;
  for (const { population, dropouts } of ruleLanes(rule, profile, setting).usable) {
    if (!dropouts) continue;
    const markers = evidenceMarkers([profile.genotypes]).filter((m) => population.frequencies.markers.has(m)).length;
    const mine = (_: string, i: number) => i >= Math.floor((part * markers) / of) && i < Math.floor(((part + 1) * markers) / of);
    const tables = markerTables({ setting, ...dropouts }, profile.genotypes, population.frequencies, undefined, mine);
    out.set(population.id, new Map([...tables].map(([marker, lr]) => [marker, lr.everyClass()])));
  }
  return out;
}

/**
 * A mixture rule's per-search work (drop-outs, per-marker tables, chance distributions, cuts), null when the rule
 * searches nothing: the first part of {@link searchMixture}. `indexes`: the whole set searched (its N), never a slice;
 * `weighed`: the class tables the threads of a split search made in shares (mixtureClassTables).
 */
export function prepareMixture(rule: MatchRule, profile: MatchProfile, indexes: IndexSet, weighed?: MixtureClassTables): PreparedMixture | null {
  const setting = rule.analysis.mixture;
  if (!setting || profile.kind !== 'Autosomal') return null;
  const limit = rule.threshold.value ?? rule.analysis.threshold;
  if (limit === null) return null;
  const searched = searchedCount(searchedIndexes(indexes, profile.kind, profile.organizationId, rule.searchedSampleTypes), profile, rule.searchedSampleTypes);
  if (searched === 0) return null;
  const lanes: MixtureLane[] = [];
  const { usable, skipped } = ruleLanes(rule, profile, setting);
  for (const { population, dropouts } of usable) {
    if (!dropouts) {
      skipped.push({ populationId: population.id, populationName: population.name, reason: NO_DROPOUT_REASON });
      continue;
    }
    const parameters = { setting, ...dropouts };
    const tables = markerTables(parameters, profile.genotypes, population.frequencies, weighed?.get(population.id));
    // Tails are asked at the cut and at the matches' LRs, raised to it (searchMixture): the cells from the cut up are the
    // same doubles whatever lower `from` pruned the convolution, and a unit lower cost a tenth more of it. An
    // expected-chance-hits threshold is found among LRs of at least 1.
    const from = rule.threshold.kind === 'expected-chance-hits' ? 0 : Math.log10(limit);
    // Computed when first asked for (the same numbers): an LR threshold needs it only for a hit's chance figures, and
    // most stains have none, yet its convolution costs as much as all the tables.
    let distribution: LrDistribution | undefined;
    // A search reads tails only (chanceAt): the mass under `from` is not summed, nor its cells computed (zeroProbability NaN).
    const distributionOf = () => (distribution ??= mixtureUnrelatedDistribution(tables, population.frequencies, from, CHANCE_GRID_STEP, false));
    const cut = rule.threshold.kind === 'expected-chance-hits' ? distributionOf().thresholdFor(limit / searched) : Math.log10(limit);
    lanes.push({
      populationId: population.id,
      population: population.frequencies,
      parameters,
      tables,
      get distribution() {
        return distributionOf();
      },
      cut,
    });
  }
  return { setting, lanes, skipped, searched };
}
