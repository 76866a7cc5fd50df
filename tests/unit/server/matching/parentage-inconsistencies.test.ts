/**
 * The database search refuses what the calculator excludes (GENETICS.md "Parentage with
 * inconsistencies"): a Parent–child candidate with more markers inconsistent with the relationship
 * than `maxInconsistencies` (seed 1) is no hit however large μ/A leaves its product; one within the
 * allowance still is.
 */
import { describe, expect, it } from 'vitest';
import { CODIS_CORE, fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { evaluateComputational } from '../../../../server/genetics/evaluate-analysis';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { scanAnalysis } from '../../../../server/matching/analysis-scan';
import { candidateResults } from '../../../../server/matching/candidate-results';
import { IndexSet } from '../../../../server/matching/index-set';
import { searchProfile } from '../../../../server/matching/search-profile';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const population = fbi2015Population('Caucasian');
const matchPopulation: MatchPopulation = { id: 'fbi', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const seed = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((a) => a.name === 'Parent–child')!;
const parentChild: MatchAnalysis = { id: 'pc', kind: seed.kind, profileKind: seed.profileKind, roles: seed.roles, threshold: seed.threshold, formulae: seed.formulae, constants: Object.fromEntries(seed.constants.map((c) => [c.name, c.value])) };
const { maxInconsistencies: _dropped, ...withoutAllowance } = parentChild.constants;
const unlimited: MatchAnalysis = { ...parentChild, constants: withoutAllowance };
const order = [...CODIS_CORE];

const query = profileGenerator(population, 12)();
/** The query with the given markers replaced by two population alleles it does not carry there (no shared allele: μ/A). */
function inconsistentAt(markers: readonly string[]): Map<string, Genotype> {
  const copy = new Map(query);
  for (const m of markers) {
    const others = [...population.markers.get(m)!.frequencies.keys()].filter((a) => !query.get(m)!.includes(a));
    copy.set(m, [others[0]!, others[1]!]);
  }
  return copy;
}
const TWO = inconsistentAt(['D3S1358', 'vWA']);
const ONE = inconsistentAt(['FGA']);

function indexOf() {
  const set = new IndexSet();
  const generate = profileGenerator(population, 99);
  const add = (id: string, genotypes: ReadonlyMap<string, Genotype>) => set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes });
  for (let i = 0; i < 200; i++) add(`U${i}`, generate());
  add('TWO', TWO);
  add('ONE', ONE);
  add('QUERY', query);
  return set;
}

const found = (hits: { profiles: { profileId: string }[] }[]) => hits.flatMap((h) => h.profiles.map((p) => p.profileId)).filter((id) => id !== 'QUERY' && !id.startsWith('U'));

describe('a Parent–child database search with inconsistent markers', () => {
  const set = indexOf();
  const profile = { id: 'QUERY', kind: 'Autosomal' as const, chemistryId: 'kit', organizationId: 'org', genotypes: query };

  it('both candidates’ products reach the threshold with μ/A alone: the allowance is what tells them apart', () => {
    const two = evaluateComputational(unlimited, [query, TWO], population, order);
    const one = evaluateComputational(parentChild, [query, ONE], population, order);
    expect(two.combinedIndex!).toBeGreaterThan(parentChild.threshold!);
    expect(one).toMatchObject({ excluded: false, inconsistentMarkers: ['FGA'] });
    expect(one.combinedIndex!).toBeGreaterThan(parentChild.threshold!);
    expect(evaluateComputational(parentChild, [query, TWO], population, order)).toMatchObject({ excluded: true, combinedIndex: 0, inconsistentMarkers: ['D3S1358', 'vWA'] });
    // Without the constant the search keeps both, as it did before.
    expect(found(searchProfile(profile, [unlimited], [matchPopulation], set)).sort()).toEqual(['ONE', 'TWO']);
  });

  it('the approval’s fused search returns the 1-inconsistency candidate with the calculator’s index, never the 2-inconsistency one', () => {
    const hits = searchProfile(profile, [parentChild], [matchPopulation], set);
    expect(found(hits)).toEqual(['ONE']);
    const engine = evaluateComputational(parentChild, [query, ONE], population, order);
    expect(Math.abs(Math.log10(hits.find((h) => h.profiles.some((p) => p.profileId === 'ONE'))!.combinedIndex!) - engine.log10!)).toBeLessThan(1e-9);
  });

  it('the exact scan agrees, in the index and in the side list (a profile compared one by one)', () => {
    const request = { analysis: parentChild, query, queryRole: 0 as const, population: matchPopulation, minMarkers: 6, excludeId: 'QUERY' };
    expect(scanAnalysis(set.index('kit', 'Autosomal'), request).map((m) => m.profileId)).toEqual(['ONE']);
    // A mixture at an unrelated marker puts a profile in the side list; the verdict there is the same.
    const side = new IndexSet();
    const mixed = (g: Map<string, Genotype>) => new Map(g).set('D22S1045', ['10', '11', '12']);
    side.upsert({ id: 'TWO', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: mixed(TWO) });
    side.upsert({ id: 'ONE', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', genotypes: mixed(ONE) });
    expect([...side.index('kit', 'Autosomal').side.keys()].sort()).toEqual(['ONE', 'TWO']);
    expect(scanAnalysis(side.index('kit', 'Autosomal'), request).map((m) => m.profileId)).toEqual(['ONE']);
  });

  it('the keyboard search shows the excluded candidate with combined index 0, under the threshold', () => {
    const results = candidateResults('Autosomal', query, new Map([['TWO', TWO], ['ONE', ONE]]), [parentChild], [matchPopulation]);
    expect(results.find((r) => r.profileId === 'TWO')).toMatchObject({ combinedIndex: 0, overThreshold: false });
    expect(results.find((r) => r.profileId === 'ONE')).toMatchObject({ overThreshold: true });
  });
});
