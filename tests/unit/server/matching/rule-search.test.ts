/**
 * The search rules over the index (ARCHITECTURE.md "Search policy", GENETICS.md "Expected chance hits"):
 * what a rule searches, one match per candidate with every population, and the thresholds.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { unrelatedDistribution } from '../../../../server/matching/chance-distribution';
import { IndexSet } from '../../../../server/matching/index-set';
import { MatchingService } from '../../../../server/matching/matching-service';
import type { MatchRule } from '../../../../server/matching/rule-match';
import { IdentityScans, searchRule } from '../../../../server/matching/rule-search';
import type { MatchAnalysis, MatchProfile } from '../../../../server/matching/types';

const seeds = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const analysis = (name: string): MatchAnalysis => {
  const a = seeds.find((s) => s.name === name)!;
  return { id: name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const populations = ['Caucasian', 'African American'].map((name) => ({ id: name, name, synthetic: false, kind: 'Autosomal' as const, frequencies: fbi2015Population(name), haplotypes: [] }));
const rule = (over: Partial<MatchRule>): MatchRule => ({
  id: 'rule',
  name: 'rule',
  analysis: analysis('Identity'),
  stringency: 'moderate',
  minMarkers: 8,
  maxMismatches: 0,
  threshold: { kind: 'likelihood-ratio', value: null },
  searchedSampleTypes: ['Convicted Offender'],
  populations,
  ...over,
});

const generate = profileGenerator(populations[0]!.frequencies, 7);
const profile = (id: string, sampleType: string, genotypes: Map<string, Genotype>, organizationId = 'oslo'): MatchProfile => ({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId, sampleType, genotypes });

function world() {
  const set = new IndexSet();
  const source = generate();
  const add = (p: MatchProfile) => (set.upsert(p), p);
  const offender = add(profile('offender', 'Convicted Offender', source));
  const sameInBergen = add(profile('bergen', 'Convicted Offender', source, 'bergen'));
  const victim = add(profile('victim', 'Victim, Known', source));
  const elimination = add(profile('elimination', 'Elimination, Known', source));
  for (let i = 0; i < 300; i++) add(profile(`other-${i}`, 'Convicted Offender', generate()));
  const stain = add(profile('stain', 'Forensic, Unknown', new Map([...source].slice(0, 15))));
  return { set, source, offender, sameInBergen, victim, elimination, stain };
}

describe('a CODIS identity rule', () => {
  it('searches only the searched sample types of the same organization, never the query, with every population and the chance figures', () => {
    const w = world();
    const matches = searchRule(rule({}), w.stain, w.set);
    expect(matches.map((m) => m.candidateId)).toEqual(['offender']);
    const [m] = matches;
    expect(m).toMatchObject({ matchKind: 'identity', queryId: 'stain', queryRole: 0, reportedPopulationId: expect.any(String) });
    expect(m!.populations.map((p) => p.populationId).sort()).toEqual(['African American', 'Caucasian']);
    const smallest = Math.min(...m!.populations.map((p) => p.combinedIndex!));
    expect(m!.populations.find((p) => p.populationId === m!.reportedPopulationId)!.combinedIndex).toBe(smallest);
    // N: the 301 offenders of Oslo (not Bergen's, not the victim).
    expect(m!.stringency).toMatchObject({ stringency: 'moderate', comparedMarkers: 15, mismatches: 0, searchedProfiles: 301 });
    expect(m!.stringency!.expectedChanceHits).toBeCloseTo(301 * m!.stringency!.probability, 30);
    for (const p of m!.populations) {
      expect(p.chance!.pValue).toBeGreaterThan(0);
      expect(p.chance!.pValue!).toBeLessThanOrEqual(m!.stringency!.probability);
    }
  });

  it('shares one scan between rules with the same options, each keeping its own sample types', () => {
    const w = world();
    const forensic = rule({ id: 'forensic', searchedSampleTypes: ['Convicted Offender', 'Victim, Known'] });
    const contamination = rule({ id: 'contamination', searchedSampleTypes: ['Elimination, Known'] });
    const scans = new IdentityScans(w.stain, w.set, [forensic, contamination]);
    expect(searchRule(forensic, w.stain, w.set, scans).map((m) => m.candidateId)).toEqual(['offender', 'victim']);
    expect(searchRule(contamination, w.stain, w.set, scans).map((m) => m.candidateId)).toEqual(['elimination']);
  });
});

describe('a rule ranked by its analysis', () => {
  const fullSiblings = (over: Partial<MatchRule> = {}) =>
    rule({ analysis: analysis('Full siblings'), stringency: null, searchedSampleTypes: ['Biological Sibling'], ...over });

  function family() {
    // Its own generator: the same family whichever tests ran before.
    const generate = profileGenerator(populations[0]!.frequencies, 11);
    const set = new IndexSet();
    const missing = generate();
    const remains = profile('remains', 'Unidentified Human (Remains)', missing);
    set.upsert(remains);
    set.upsert(profile('sister', 'Biological Sibling', siblingOf(missing, populations[0]!.frequencies, 3)));
    for (let i = 0; i < 200; i++) set.upsert(profile(`unrelated-${i}`, 'Biological Sibling', generate()));
    return { set, remains };
  }

  it('keeps a candidate reaching the threshold in every population, reporting the smallest LR', () => {
    const { set, remains } = family();
    // The sister's LR in each population, read with a threshold everybody reaches.
    const everybody = searchRule(fullSiblings({ threshold: { kind: 'likelihood-ratio', value: 1e-12 } }), remains, set);
    expect(everybody).toHaveLength(201);
    const lrs = everybody.find((m) => m.candidateId === 'sister')!.populations.map((p) => p.combinedIndex!);
    const [low, high] = [Math.min(...lrs), Math.max(...lrs)];
    expect(high).toBeGreaterThan(low);

    const matches = searchRule(fullSiblings({ threshold: { kind: 'likelihood-ratio', value: low * 0.999999 } }), remains, set);
    expect(matches.map((m) => m.candidateId)).toContain('sister');
    const m = matches.find((x) => x.candidateId === 'sister')!;
    expect(m.matchKind).toBe('kinship');
    const reported = m.populations.find((p) => p.populationId === m.reportedPopulationId)!;
    expect(reported.combinedIndex).toBe(low);
    expect(reported.chance!.searchedProfiles).toBe(201);
    expect(reported.chance!.thresholdLog10).toBeCloseTo(Math.log10(low * 0.999999), 12);
    expect(reported.chance!.pValue!).toBeLessThanOrEqual(reported.chance!.probability);
    // Between the two: one population falls short, so it is no match, though the other reaches it.
    const between = Math.sqrt(low * high);
    expect(searchRule(fullSiblings({ threshold: { kind: 'likelihood-ratio', value: between } }), remains, set).map((x) => x.candidateId)).not.toContain('sister');
  });

  it('turns a maximum number of expected chance hits into the LR threshold of each population', () => {
    const { set, remains } = family();
    const matches = searchRule(fullSiblings({ threshold: { kind: 'expected-chance-hits', value: 0.01 } }), remains, set);
    for (const m of matches) {
      for (const p of m.populations) {
        // At most 0.01 chance hits among the 201 searched siblings, conservatively.
        expect(p.chance!.expectedChanceHits).toBeLessThanOrEqual(0.01);
        const population = populations.find((x) => x.id === p.populationId)!;
        const distribution = unrelatedDistribution(analysis('Full siblings'), remains.genotypes, 0, population, { step: 0.001 });
        expect(distribution.tail(p.chance!.thresholdLog10!).upper * 201).toBeLessThanOrEqual(0.01);
        expect(p.log10!).toBeGreaterThanOrEqual(p.chance!.thresholdLog10! - 1e-9);
      }
    }
  });

  it('runs rule after rule, reporting progress', async () => {
    const { set, remains } = family();
    const steps: [number, number][] = [];
    const everybody = { kind: 'likelihood-ratio' as const, value: 1e-12 };
    const found = await new MatchingService(set).searchRules(remains, [fullSiblings({ id: 'a', threshold: everybody }), fullSiblings({ id: 'b', threshold: everybody, searchedSampleTypes: ['Biological Mother'] })], { onProgress: (d, t) => steps.push([d, t]) });
    expect(new Set(found.map((m) => m.ruleId))).toEqual(new Set(['a']));
    expect(found).toHaveLength(201);
    expect(steps).toEqual([[0, 2], [1, 2], [2, 2]]);
  });
});
