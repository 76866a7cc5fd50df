/**
 * A familial search (server/matching/familial-search.ts) ranks every profile a rule searches by the
 * smallest LR over the rule's populations and keeps the top N. Held against a brute force in this
 * file: the calculator's engine (evaluateComputational) on every pair, sorted in full.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, seededRandom, siblingOf } from '../../../../bench/synthetic-profiles';
import { evaluateComputational } from '../../../../server/genetics/evaluate-analysis';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { unrelatedDistribution } from '../../../../server/matching/chance-distribution';
import { familialRuleProblem, rankRule, scoreCandidates } from '../../../../server/matching/familial-search';
import { IndexSet } from '../../../../server/matching/index-set';
import { CHANCE_GRID_STEP, type MatchRule } from '../../../../server/matching/rule-match';
import type { MatchAnalysis, MatchProfile } from '../../../../server/matching/types';

const caucasian = fbi2015Population('Caucasian');
const african = fbi2015Population('African American');
const populations: MatchRule['populations'] = [
  { id: 'cau', name: 'FBI 2015 Caucasian', synthetic: false, kind: 'Autosomal', frequencies: caucasian, haplotypes: [] },
  { id: 'afa', name: 'FBI 2015 African American', synthetic: false, kind: 'Autosomal', frequencies: african, haplotypes: [] },
];
const analysisNamed = (name: string): MatchAnalysis => {
  const a = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((s) => s.name === name)!;
  return { id: name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const ruleFor = (analysis: string, overrides: Partial<MatchRule> = {}): MatchRule => ({
  id: 'rule',
  name: `Familial search (${analysis})`,
  analysis: analysisNamed(analysis),
  stringency: null,
  minMarkers: 8,
  maxMismatches: 0,
  threshold: { kind: 'likelihood-ratio', value: null },
  searchedSampleTypes: ['Convicted Offender', 'Arrestee'],
  populations,
  ...overrides,
});

/** A child of `parent`: one allele from the parent, one drawn from the population, at every marker. */
function childOf(parent: ReadonlyMap<string, Genotype>, seed: number): Map<string, Genotype> {
  const random = seededRandom(seed);
  const other = profileGenerator(caucasian, seed + 1)();
  return new Map(
    [...parent].map(([marker, g]) => {
      const pair = [g[random() < 0.5 ? 0 : g.length - 1]!, other.get(marker)![0]!].sort((a, b) => Number(a) - Number(b));
      return [marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
    }),
  );
}

interface Stored extends MatchProfile {
  sampleType: string;
}

/**
 * Organization A's offenders and arrestees (searched) with the query's relatives among them, its
 * forensic profiles and organization B's offenders (not searched, relatives planted there too), a
 * mixture on the side list, and the query itself indexed as an offender.
 */
function database() {
  const query: Stored = { id: 'QUERY', kind: 'Autosomal', chemistryId: 'kit', organizationId: 'A', sampleType: 'Convicted Offender', genotypes: profileGenerator(caucasian, 7)() };
  const stored: Stored[] = [query];
  const add = (id: string, organizationId: string, sampleType: string, genotypes: ReadonlyMap<string, Genotype>) => stored.push({ id, kind: 'Autosomal', chemistryId: id.startsWith('K2') ? 'kit2' : 'kit', organizationId, sampleType, genotypes });
  const generate = profileGenerator(caucasian, 11);
  for (let i = 0; i < 500; i++) add(`U${String(i).padStart(3, '0')}`, 'A', i % 3 === 0 ? 'Arrestee' : 'Convicted Offender', generate());
  // A second chemistry's index is searched too.
  for (let i = 0; i < 60; i++) add(`K2-${i}`, 'A', 'Convicted Offender', generate());
  for (let i = 0; i < 4; i++) add(`SIB${i}`, 'A', 'Convicted Offender', siblingOf(query.genotypes, caucasian, 100 + i));
  add('CHILD', 'A', 'Arrestee', childOf(query.genotypes, 300));
  add('K2-SIB', 'A', 'Arrestee', siblingOf(query.genotypes, caucasian, 400));
  // Not searched: forensic profiles of A, offenders of B — relatives included, they must never appear.
  for (let i = 0; i < 100; i++) add(`F${i}`, 'A', 'Forensic, Unknown', generate());
  add('FORENSIC-SIB', 'A', 'Forensic, Unknown', siblingOf(query.genotypes, caucasian, 500));
  for (let i = 0; i < 100; i++) add(`B${i}`, 'B', 'Convicted Offender', generate());
  add('B-SIB', 'B', 'Convicted Offender', siblingOf(query.genotypes, caucasian, 600));
  // Three alleles at one marker: the side list, scored marker by marker (that marker not evaluated).
  const mixture = siblingOf(query.genotypes, caucasian, 700);
  mixture.set('vWA', ['14', '16', '17']);
  add('MIXTURE-SIB', 'A', 'Convicted Offender', mixture);
  const set = new IndexSet();
  for (const p of stored) set.upsert(p);
  return { set, query, stored };
}

/** The brute force: the calculator's engine on every searched pair, every population, sorted in full. */
function bruteForce(rule: MatchRule, query: Stored, stored: readonly Stored[]) {
  const searched = stored.filter((p) => p.organizationId === query.organizationId && rule.searchedSampleTypes.includes(p.sampleType) && p.id !== query.id);
  const scored = searched.flatMap((p) => {
    const results = rule.populations.map((pop) => ({ populationId: pop.id, ...evaluateComputational(rule.analysis, [query.genotypes, p.genotypes], pop.frequencies, []) }));
    const markerCount = results[0]!.markers.filter((m) => m.value !== null).length;
    const smallest = Math.min(...results.map((r) => r.combinedIndex ?? 0));
    if (markerCount < rule.minMarkers || !(smallest > 0)) return [];
    return [{ id: p.id, smallest, results, markerCount }];
  });
  scored.sort((a, b) => b.smallest - a.smallest || (a.id < b.id ? -1 : 1));
  return { searched: searched.length, scored };
}

describe('rankRule (familial search)', () => {
  const { set, query, stored } = database();

  it('gives the brute force’s top N in the same order with the same figures, in both populations', () => {
    const rule = ruleFor('Full siblings');
    const { searched, scored } = bruteForce(rule, query, stored);
    const ranking = rankRule(rule, query, set, { limit: 25 });
    expect(ranking.searchedProfiles).toBe(searched);
    expect(ranking.candidates.map((c) => c.candidateId)).toEqual(scored.slice(0, 25).map((s) => s.id));
    const distributions = populations.map((pop) => unrelatedDistribution(rule.analysis, query.genotypes, 0, pop, { step: CHANCE_GRID_STEP }));
    for (const [i, c] of ranking.candidates.entries()) {
      const expected = scored[i]!;
      expect(c.rank).toBe(i + 1);
      expect(c.smallestCombinedIndex / expected.smallest).toBeCloseTo(1, 9);
      expect(c.populations.map((p) => p.populationId)).toEqual(['cau', 'afa']);
      for (const [k, p] of c.populations.entries()) {
        const brute = expected.results[k]!;
        // Same products of the same per-marker factors: equal to 1e-9 relative.
        expect(p.combinedIndex! / brute.combinedIndex!).toBeCloseTo(1, 9);
        expect(p.log10).toBeCloseTo(brute.log10!, 9);
        expect(p.markerCount).toBe(expected.markerCount);
        // GENETICS.md "Expected chance hits": p = P(LR ≥ this | unrelated) (upper end of the bracket), E = N × p.
        const tail = distributions[k]!.tail(brute.log10!);
        expect(p.chance!.pValue).toBe(tail.upper);
        expect(p.chance!.expectedChanceHits).toBeCloseTo(searched * tail.upper, 12);
      }
      expect(c.reportedPopulationId).toBe(c.populations.reduce((a, b) => (b.combinedIndex! < a.combinedIndex! ? b : a)).populationId);
    }
    // The relatives rise to the top, and a weaker candidate expects more chance candidates at its rank.
    expect(ranking.candidates.slice(0, 3).every((c) => /SIB|CHILD/.test(c.candidateId))).toBe(true);
    const expectedAt = ranking.candidates.map((c) => Math.max(...c.populations.map((p) => p.chance!.expectedChanceHits)));
    expect(expectedAt.at(-1)!).toBeGreaterThan(expectedAt[0]!);
  });

  it('searches only the rule’s organization and sample types, never the query, the side list included', () => {
    const ranking = rankRule(ruleFor('Full siblings'), query, set, { limit: 500 });
    const ids = ranking.candidates.map((c) => c.candidateId);
    expect(ids).not.toContain('QUERY');
    expect(ids.some((id) => id.startsWith('F') || id.startsWith('B'))).toBe(false);
    expect(ids).toEqual(expect.arrayContaining(['SIB0', 'CHILD', 'K2-SIB', 'MIXTURE-SIB']));
    const { scored } = bruteForce(ruleFor('Full siblings'), query, stored);
    expect(ids).toEqual(scored.slice(0, 500).map((s) => s.id));
  });

  it('keeps exactly `limit` candidates (or all there are)', () => {
    for (const limit of [1, 2, 10, 50]) expect(rankRule(ruleFor('Full siblings'), query, set, { limit }).candidates).toHaveLength(limit);
    expect(rankRule(ruleFor('Full siblings'), query, set, { limit: 0 }).candidates).toEqual([]);
  });

  it('drops the candidates the exact verdict refuses: parent–child with more inconsistent markers than allowed is Excluded, not ranked', () => {
    const rule = ruleFor('Parent–child');
    const { scored } = bruteForce(rule, query, stored);
    const ranking = rankRule(rule, query, set, { limit: 500 });
    expect(ranking.candidates.map((c) => c.candidateId)).toEqual(scored.slice(0, 500).map((s) => s.id));
    expect(ranking.candidates[0]!.candidateId).toBe('CHILD');
    // Most unrelated offenders have two or more markers sharing no allele with the query: Excluded (maxInconsistencies 1).
    expect(ranking.candidates.length).toBeLessThan(ranking.searchedProfiles / 2);
    expect(ranking.candidates.every((c) => c.smallestCombinedIndex > 0)).toBe(true);
  });

  it('reads a table that is not role-symmetric with the query in each role and keeps the stronger reading', () => {
    const fullSiblings = analysisNamed('Full siblings');
    // PQ–PP weighted three times PP–PQ: swapping the roles changes the LR.
    const lopsided = { ...fullSiblings, id: 'Lopsided', formulae: fullSiblings.formulae.map((f) => (f.pattern === 'PQ-PP' ? { ...f, expression: 'kappa0 + 3*kappa1/(2*p)' } : f)) };
    const rule = ruleFor('Full siblings', { analysis: lopsided });
    const searched = stored.filter((p) => p.organizationId === 'A' && rule.searchedSampleTypes.includes(p.sampleType) && p.id !== 'QUERY');
    const brute = searched
      .map((p) => {
        const inRole = (pair: ReadonlyMap<string, Genotype>[]) => Math.min(...populations.map((pop) => evaluateComputational(lopsided, pair, pop.frequencies, []).combinedIndex ?? 0));
        const [first, second] = [inRole([query.genotypes, p.genotypes]), inRole([p.genotypes, query.genotypes])];
        return { id: p.id, smallest: Math.max(first, second), role: second > first ? 1 : 0 };
      })
      .sort((a, b) => b.smallest - a.smallest || (a.id < b.id ? -1 : 1))
      .slice(0, 20);
    const ranking = rankRule(rule, query, set, { limit: 20 });
    expect(ranking.candidates.map((c) => [c.candidateId, c.queryRole])).toEqual(brute.map((b) => [b.id, b.role]));
    for (const [i, c] of ranking.candidates.entries()) expect(c.smallestCombinedIndex / brute[i]!.smallest).toBeCloseTo(1, 9);
    expect(new Set(ranking.candidates.map((c) => c.queryRole))).toEqual(new Set([0, 1]));
  });

  it('needs the rule’s minimum of compared markers', () => {
    const rule = ruleFor('Full siblings', { minMarkers: 21 });
    expect(rankRule(rule, query, set, { limit: 10 }).candidates).toEqual([]);
  });

  it('refuses a rule that does not rank by a kinship LR', () => {
    expect(familialRuleProblem(ruleFor('Full siblings'))).toBeNull();
    expect(familialRuleProblem(ruleFor('Identity', { stringency: 'moderate' }))).toMatch(/CODIS identity rule/);
    expect(familialRuleProblem(ruleFor('Parent–child exclusion'))).toMatch(/counts exclusions/);
    expect(() => rankRule(ruleFor('Identity', { stringency: 'moderate' }), query, set, { limit: 5 })).toThrow(/cannot rank a familial search/);
  });
});

describe('scoreCandidates (promotion recomputes the figures)', () => {
  const { set, query } = database();

  it('gives the chosen candidates the figures rankRule gives them, and says why others cannot be scored', () => {
    const rule = ruleFor('Full siblings');
    const ranking = rankRule(rule, query, set, { limit: 5 });
    const chosen = [ranking.candidates[3]!.candidateId, ranking.candidates[0]!.candidateId];
    const { searchedProfiles, scored } = scoreCandidates(rule, query, set, [...chosen, 'QUERY', 'NOBODY']);
    expect(searchedProfiles).toBe(ranking.searchedProfiles);
    for (const id of chosen) {
      const again = scored.get(id);
      const ranked = ranking.candidates.find((c) => c.candidateId === id)!;
      expect(typeof again).toBe('object');
      expect(again).toMatchObject({ populations: ranked.populations, smallestCombinedIndex: ranked.smallestCombinedIndex, queryRole: ranked.queryRole, reportedPopulationId: ranked.reportedPopulationId });
    }
    expect(scored.get('QUERY')).toBe('query');
    expect(scored.get('NOBODY')).toBe('not-indexed');
  });

  it('refuses an excluded candidate and one with too few markers', () => {
    const rule = ruleFor('Parent–child');
    const { scored: brute } = bruteForce(rule, query, database().stored);
    const excluded = database().stored.find((p) => p.id.startsWith('U') && !brute.some((s) => s.id === p.id))!;
    expect(scoreCandidates(rule, query, set, [excluded.id]).scored.get(excluded.id)).toBe('excluded');
    expect(scoreCandidates(ruleFor('Full siblings', { minMarkers: 21 }), query, set, ['SIB0']).scored.get('SIB0')).toBe('too-few-markers');
  });
});
