/**
 * The mixture search (issue 17): every searched reference weighed as a contributor to the evidence by one table per
 * marker and one pass; the contributors rank above every non-contributor, the scan finds exactly the references the
 * calculator puts over the threshold, and each hit carries the calculator's LR and the expected chance hits.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { SEED_MIXTURE_ANALYSES } from '../../../../server/genetics/seed-analyses';
import { mixtureLr } from '../../../../server/genetics/mixture/mixture-lr';
import type { Genotype } from '../../../../server/genetics/types';
import { IndexSet } from '../../../../server/matching/index-set';
import { searchDropout, searchMixture } from '../../../../server/matching/mixture-search';
import type { MatchRule } from '../../../../server/matching/rule-match';
import { searchRule } from '../../../../server/matching/rule-search';
import type { MatchAnalysis, MatchProfile } from '../../../../server/matching/types';
import type { MixtureSetting } from '../../../../core/schemas/mixtures';

const populations = ['Caucasian', 'African American'].map((name) => ({ id: name, name, synthetic: false, kind: 'Autosomal' as const, frequencies: fbi2015Population(name), haplotypes: [] }));
const seeded = SEED_MIXTURE_ANALYSES.find((a) => a.name === 'Mixture, 3 contributors')!;
const analysis = (mixture: MixtureSetting, threshold = 10_000): MatchAnalysis => ({ id: 'mix', kind: 'Mixture', profileKind: 'Autosomal', roles: seeded.roles, threshold, formulae: [], constants: {}, mixture });
const rule = (over: Partial<MatchRule>): MatchRule => ({
  id: 'rule',
  name: 'mixtures',
  analysis: analysis(seeded.mixture),
  stringency: null,
  minMarkers: 8,
  maxMismatches: 0,
  threshold: { kind: 'likelihood-ratio', value: null },
  searchedSampleTypes: ['Convicted Offender'],
  populations,
  ...over,
});
const generate = profileGenerator(populations[0]!.frequencies, 17);
const profile = (id: string, sampleType: string, genotypes: ReadonlyMap<string, Genotype>, organizationId = 'oslo'): MatchProfile => ({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId, sampleType, genotypes });

/** Three contributors, their stain with every fifth allele dropped, 400 unrelated offenders, one contributor in another organization. */
function world() {
  const set = new IndexSet();
  const contributors = [generate(), generate(), generate()];
  let k = 0;
  const stain = new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...c.get(m)!]))].filter(() => k++ % 5 !== 0)]));
  contributors.forEach((c, i) => set.upsert(profile(`contributor-${i}`, 'Convicted Offender', c)));
  set.upsert(profile('bergen', 'Convicted Offender', contributors[0]!, 'bergen'));
  for (let i = 0; i < 400; i++) set.upsert(profile(`other-${i}`, 'Convicted Offender', generate()));
  const query = profile('stain', 'Forensic Mixture', stain);
  set.upsert(query);
  return { set, contributors, stain, query };
}

describe('the mixture search', () => {
  it('ranks the three contributors above every non-contributor, with the calculator\'s LR, the drop-out used and the chance figures', () => {
    const w = world();
    const r = rule({ threshold: { kind: 'likelihood-ratio', value: 1e-30 } });
    const { matches, parameters } = searchMixture(r, w.query, w.set);
    const ranked = matches.map((m) => m.candidateId);
    expect(ranked.slice(0, 3).sort()).toEqual(['contributor-0', 'contributor-1', 'contributor-2']);
    expect(ranked).not.toContain('bergen');
    expect(ranked).not.toContain('stain');
    // The conservative drop-out under Hd, the same for every contributor, made explicit per population.
    const d = parameters.get('Caucasian')!.dropout;
    // Estimated for both populations at once, each the value it has alone; the populations' values differ.
    for (const pop of populations) expect(parameters.get(pop.id)!.dropout).toEqual(searchDropout(seeded.mixture, w.stain, pop.frequencies)!.dropout);
    expect(parameters.get('African American')!.dropout[0]).not.toBe(d[0]);
    expect(new Set(d).size).toBe(1);
    expect(d[0]!).toBeGreaterThan(0);
    const top = matches[0]!;
    expect(top).toMatchObject({ matchKind: 'mixture', queryId: 'stain', queryRole: 0, stringency: null });
    for (const p of top.populations) {
      const pop = populations.find((x) => x.id === p.populationId)!;
      const expected = mixtureLr({ replicates: [w.stain], personOfInterest: w.set.find(top.candidateId)!.genotypes, knownContributors: [], contributors: 3, dropout: parameters.get(pop.id)!.dropout, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, population: pop.frequencies, frequencyRule: { normalize: false } });
      expect(p.combinedIndex).toBe(expected.lr);
      expect(p.chance!.searchedProfiles).toBe(403);
      expect(p.chance!.pValue!).toBeLessThan(1e-3);
    }
    const smallest = Math.min(...top.populations.map((p) => p.combinedIndex!));
    expect(top.populations.find((p) => p.populationId === top.reportedPopulationId)!.combinedIndex).toBe(smallest);
  });

  it('finds exactly the references whose LR reaches the threshold in every population (checked one by one)', () => {
    const w = world();
    const setting: MixtureSetting = { ...seeded.mixture, dropout: { mode: 'fixed', values: [0.2] } };
    const limit = 10;
    const found = new Set(searchRule(rule({ analysis: analysis(setting), threshold: { kind: 'likelihood-ratio', value: limit } }), w.query, w.set).map((m) => m.candidateId));
    const expected = new Set<string>();
    for (const id of ['contributor-0', 'contributor-1', 'contributor-2', ...Array.from({ length: 400 }, (_, i) => `other-${i}`)]) {
      const genotypes = w.set.find(id)!.genotypes;
      const lrs = populations.map((pop) => mixtureLr({ replicates: [w.stain], personOfInterest: genotypes, knownContributors: [], contributors: 3, dropout: [0.2, 0.2, 0.2], dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, population: pop.frequencies, frequencyRule: { normalize: false } }).lr);
      if (lrs.every((lr) => lr >= limit)) expected.add(id);
    }
    expect(found).toEqual(expected);
    expect([...found].filter((id) => id.startsWith('contributor')).length).toBeGreaterThanOrEqual(2);
  });

  it('with an expected-chance-hits threshold, keeps the LR that gives at most that many unrelated hits', () => {
    const w = world();
    const matches = searchRule(rule({ threshold: { kind: 'expected-chance-hits', value: 0.01 } }), w.query, w.set);
    for (const m of matches) for (const p of m.populations) expect(p.chance!.expectedChanceHits).toBeLessThanOrEqual(0.01 * (1 + 1e-9));
    expect(matches.map((m) => m.candidateId)).toContain('contributor-0');
  });
});
