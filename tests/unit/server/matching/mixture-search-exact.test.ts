/**
 * The mixture search's numbers do not move when its per-search work is made cheaper (issue 29): on a seeded index the
 * bench's five 3-person stains give, to the bit, the hit lists this test was written against — every LR, log10, marker
 * count and chance figure (bracket, p-value, expected chance hits) — under an LR threshold, under an expected-chance-hits
 * threshold over two populations, and as the ranked search on request. The figures are hashed: a change of the last
 * bit of any of them changes the hash.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { mixtureRule, stainOf } from '../../../../bench/mixture-table';
import type { Genotype } from '../../../../server/genetics/types';
import { IndexSet } from '../../../../server/matching/index-set';
import { rankMixture } from '../../../../server/matching/mixture-ranking';
import { searchMixture } from '../../../../server/matching/mixture-search';
import { searchedIndexes, type MatchRule, type RuleMatch } from '../../../../server/matching/rule-match';
import { runSearch, splitPlan } from '../../../../server/search/search-worker';
import { toWireRule } from '../../../../server/search/search-wire';
import type { MatchProfile } from '../../../../server/matching/types';

const SIZE = 20_500;
const PLANTED = 41;
const caucasian = fbi2015Population('Caucasian');
const twoPopulations = ['Caucasian', 'African American'].map((name) => ({ id: name, name, synthetic: false, kind: 'Autosomal' as const, frequencies: fbi2015Population(name), haplotypes: [] }));

/** The bench's index in small: seeded offenders, one planted every SIZE / 41, whose triples make the stains. */
function database() {
  const generate = profileGenerator(caucasian, 20_240_601);
  const set = new IndexSet();
  const planted: Map<string, Genotype>[] = [];
  for (let i = 0; i < SIZE; i++) {
    const genotypes = generate();
    if (i % Math.floor(SIZE / PLANTED) === 0) planted.push(genotypes);
    set.upsert({ id: `P${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'Convicted Offender', genotypes });
  }
  const stains: MatchProfile[] = Array.from({ length: 5 }, (_, i) => ({ id: `STAIN${i}`, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'org', sampleType: 'Forensic Mixture', genotypes: stainOf(planted.slice(3 * i, 3 * i + 3)) }));
  return { set, stains };
}

/** Every number written so that any change of a bit shows (JSON alone prints −0 as 0 and ±Infinity as null). */
const exact = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : Number.isFinite(v) ? v.toString() : String(v)) : v instanceof Map ? [...v] : v));
/** A hit's LR in its reported (smallest) population: the order of a search's hits. */
const smallest = (m: RuleMatch) => Math.min(...m.populations.map((p) => p.combinedIndex ?? 0));
const hash = (value: unknown) => createHash('sha256').update(exact(value)).digest('hex');

describe('the mixture search, to the bit', () => {
  const { set, stains } = database();

  it("the bench's rule (LR ≥ 10,000): every hit, its LR and chance figures, as before", () => {
    const answers = stains.map((stain) => searchMixture(mixtureRule, stain, set));
    expect(answers.map((a) => a.matches.length)).toEqual(HITS.likelihoodRatio);
    expect(hash(answers)).toBe(HASHES.likelihoodRatio);
  });

  it("the same rule split over two slices, its tables made in two shares of the markers (the pool's split): the same hits to the bit", () => {
    const { snapshots, release } = set.pin('Autosomal');
    try {
      const whole = () => IndexSet.view(snapshots);
      const answers = stains.map((profile) => {
        const plan = splitPlan({ task: 'mixture-rule', rule: toWireRule(mixtureRule), profile }, 2)!;
        const slices = [0, 1].map((part) => runSearch(plan.then(plan.join(plan.prepare.map((share) => structuredClone(runSearch(share, whole()))))), IndexSet.view(snapshots, { part, of: 2 }), whole) as RuleMatch[]);
        return { matches: slices.flat().sort((a, b) => smallest(b) - smallest(a)), parameters: searchMixture(mixtureRule, profile, set).parameters };
      });
      expect(hash(answers)).toBe(HASHES.likelihoodRatio);
    } finally {
      release();
    }
  });

  it('an expected-chance-hits threshold over two populations: the cut found on the chance distribution, every figure as before', () => {
    const rule: MatchRule = { ...mixtureRule, threshold: { kind: 'expected-chance-hits', value: 0.01 }, populations: twoPopulations };
    const answers = stains.map((stain) => searchMixture(rule, stain, set));
    expect(answers.map((a) => a.matches.length)).toEqual(HITS.expectedChanceHits);
    expect(hash(answers)).toBe(HASHES.expectedChanceHits);
  });

  it('the ranked search on request: the 10 best of each stain with their p-values, as before', () => {
    const scoped = searchedIndexes(set, 'Autosomal', 'org', ['Convicted Offender']);
    const answers = stains.map((stain) =>
      rankMixture({ evidence: { replicates: [stain.genotypes], knownContributors: [] }, setting: mixtureRule.analysis.mixture!, populations: twoPopulations, scoped, excludeIds: new Set(), minMarkers: 8, limit: 10 }),
    );
    expect(hash(answers)).toBe(HASHES.ranked);
  });
});

/** Written from the search as it stood at a4d4360, before its per-search work was made cheaper. */
const HITS = { likelihoodRatio: [3, 2, 2, 2, 3], expectedChanceHits: [3, 2, 2, 2, 3] };
const HASHES = {
  likelihoodRatio: '3226674d85974120672e4750a06c67d02f341e43c54697969dfee1c12dc96dd0',
  expectedChanceHits: 'd3d7ff4929c13bddf93bb84593451ff6cac221f25519c4086ddf676207bcd3a9',
  ranked: '8df8fb5e5a90162ee345cedf8f8dc38b92b8707404ed14aa2cb29c6ff135a811',
};
