import { distributionOnGrid, type DistributionGrid } from '../genetics/statistics';
import type { Genotype } from '../genetics/types';
import type { GenotypeLr } from './genotype-lr-plan';
import type { IndexSet } from './index-set';
import { markerTables, type MixtureSearchParameters, type PreparedMixture } from './mixture-search';
import { genotypeAt } from './profile-index';
import { rulePopulations, type MatchRule } from './rule-match';
import type { MatchProfile } from './types';

/**
 * A mixture rule's per-search work as plain data (issue 29), computed once by one search thread and read by every
 * slice of the split search: per population the drop-out, each marker's LR for every genotype the indexes hold, the
 * chance distribution's grid and the cut. The slices weigh with the very numbers the tables gave, so the split answer
 * is the single-thread one, bit for bit.
 */
export interface WireMixture {
  lanes: { populationId: string; parameters: MixtureSearchParameters; values: Map<string, Map<string, number | undefined>>; grid: DistributionGrid; cut: number }[];
  skipped: PreparedMixture['skipped'];
  searched: number;
}

const keyOf = (genotype: Genotype) => genotype.join('\u0000');

/** Every genotype the indexes hold, per marker: each pair of a column's dictionary (as a scan decodes it) and the side lists'. */
function heldGenotypes(indexes: IndexSet): Map<string, Genotype[]> {
  const held = new Map<string, Genotype[]>();
  const add = (marker: string, genotype: Genotype) => held.get(marker)?.push(genotype) ?? held.set(marker, [genotype]);
  for (const index of indexes.indexes('Autosomal')) {
    for (const column of index.markerColumns()) {
      for (let lo = 1; lo < column.alleles.length; lo++) for (let hi = lo; hi < column.alleles.length; hi++) add(column.name, genotypeAt(column, lo, hi));
    }
    for (const genotypes of index.side.values()) for (const [marker, genotype] of genotypes) add(marker, genotype);
  }
  return held;
}

/** The prepared work of a mixture rule over `indexes` (the whole snapshot the slices are cut from), to send. */
export function toWireMixture(prepared: PreparedMixture, indexes: IndexSet): WireMixture {
  const held = heldGenotypes(indexes);
  return {
    lanes: prepared.lanes.map((lane) => ({
      populationId: lane.populationId,
      parameters: lane.parameters,
      // In the tables' order: a candidate's LR is summed over the markers in it.
      values: new Map([...lane.tables].map(([marker, lr]) => [marker, new Map((held.get(marker) ?? []).map((g) => [keyOf(g), lr(g)]))])),
      grid: lane.distribution.grid,
      cut: lane.cut,
    })),
    skipped: prepared.skipped,
    searched: prepared.searched,
  };
}

/** The prepared work again, in a slice's thread: the tables answer from the values sent (a genotype not among them is weighed here, as the table would). */
export function fromWireMixture(wire: WireMixture, rule: MatchRule, profile: MatchProfile): PreparedMixture {
  const populations = new Map(rulePopulations(rule).map((p) => [p.id, p.frequencies]));
  const lanes = wire.lanes.map((lane) => {
    const population = populations.get(lane.populationId)!;
    let computed: Map<string, GenotypeLr> | undefined;
    const weigh = (marker: string, genotype: Genotype) => (computed ??= markerTables(lane.parameters, profile.genotypes, population)).get(marker)!(genotype);
    const tables = new Map<string, GenotypeLr>([...lane.values].map(([marker, values]) => [marker, (g: Genotype) => {
      const key = keyOf(g);
      return values.has(key) ? values.get(key) : weigh(marker, g);
    }]));
    return { populationId: lane.populationId, population, parameters: lane.parameters, tables, distribution: distributionOnGrid(lane.grid), cut: lane.cut };
  });
  return { setting: rule.analysis.mixture!, lanes, skipped: wire.skipped, searched: wire.searched };
}
