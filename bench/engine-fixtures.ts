// What the in-process engine tables share (bench/engine-table.ts and the tables it feeds): the index's chemistry, the
// planted queries, the FBI 2015 Caucasian population, the seed full-sibling analysis, the profiles' ids.
import { SEED_ANALYSIS_GROUPS } from '../server/genetics/seed-analyses';
import { populationFrequencies } from '../server/matching/search-input-shapes';
import type { MatchAnalysis, MatchPopulation } from '../server/matching/types';
import { fbi2015Population } from './synthetic-profiles';

export const CHEMISTRY = 'bench-chemistry';
/** Profiles planted at even intervals of the index, each an identity query. */
export const QUERIES = 41;
export const population = fbi2015Population();
/** Its frequencies in the shape the server loads them (search-input-shapes.ts: the search threads' warm-up makes the same). */
export const matchPopulation: MatchPopulation = { id: 'pop', kind: 'Autosomal', frequencies: populationFrequencies(population.name, population.minimumAlleleFrequency, population.markers), haplotypes: [] };
const seeds = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const asMatch = (name: string): MatchAnalysis => {
  const a = seeds.find((s) => s.name === name)!;
  return { id: name, kind: a.kind as MatchAnalysis['kind'], profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
export const fullSiblings = asMatch('Full siblings');
export const identityAnalysis = asMatch('Identity');
/** Profile ids as the database gives them: UUIDs. */
export const benchId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
