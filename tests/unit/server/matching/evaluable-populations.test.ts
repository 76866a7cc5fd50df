/**
 * Issue 30: a population holding none of a profile's markers (a one-marker table beside the FBI one) is "not
 * evaluated" — it never counts as LR 1, never blocks a rule, never becomes the reported population — and the rule
 * names it with why. The three symptoms found: no mixture hit, no Parent–child hits for a remains profile, and
 * identity hits reported as "CI 1 (0 markers)".
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS, SEED_MIXTURE_ANALYSES } from '../../../../server/genetics/seed-analyses';
import type { Genotype, PopulationFrequencies } from '../../../../server/genetics/types';
import { evaluablePopulations } from '../../../../server/matching/evaluable-populations';
import { rankRule } from '../../../../server/matching/familial-search';
import { IndexSet } from '../../../../server/matching/index-set';
import { rankMixture } from '../../../../server/matching/mixture-ranking';
import type { MatchRule } from '../../../../server/matching/rule-match';
import { searchRule } from '../../../../server/matching/rule-search';
import type { MatchAnalysis, MatchProfile } from '../../../../server/matching/types';

const fbi = { id: 'fbi', name: 'FBI Caucasian', synthetic: false, kind: 'Autosomal' as const, frequencies: fbi2015Population('Caucasian'), haplotypes: [] };
const l6Frequencies: PopulationFrequencies = { name: 'L6 only', minimumAlleleFrequency: 0.001, markers: new Map([['L6', { sampleSize: null, frequencies: new Map([['1', 0.5], ['2', 0.5]]) }]]) };
const l6 = { id: 'l6', name: 'L6 only', synthetic: false, kind: 'Autosomal' as const, frequencies: l6Frequencies, haplotypes: [] };

const seeds = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const analysis = (name: string): MatchAnalysis => {
  const a = seeds.find((s) => s.name === name)!;
  return { id: name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const rule = (over: Partial<MatchRule>): MatchRule => ({ id: 'rule', name: 'rule', analysis: analysis('Identity'), stringency: 'moderate', minMarkers: 8, maxMismatches: 0, threshold: { kind: 'likelihood-ratio', value: null }, searchedSampleTypes: ['Convicted Offender'], populations: [fbi, l6], ...over });
const profile = (id: string, sampleType: string, genotypes: ReadonlyMap<string, Genotype>): MatchProfile => ({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'oslo', sampleType, genotypes });
const generate = profileGenerator(fbi.frequencies, 23);

/** A child of `parent` and an unrelated other parent: one allele from each, per marker. */
function childOf(parent: ReadonlyMap<string, Genotype>, other: ReadonlyMap<string, Genotype>, seed: number): Map<string, Genotype> {
  let k = seed;
  return new Map([...parent].map(([m, g]) => {
    const a = g[k++ % g.length]!;
    const o = other.get(m)!;
    const b = o[k++ % o.length]!;
    return [m, a === b ? [a] : [a, b].sort((x, y) => Number(x) - Number(y))];
  }));
}

describe('a population that holds none of the profile\'s markers', () => {
  it('is not evaluated, with why', () => {
    const { usable, skipped } = evaluablePopulations([fbi, l6], generate());
    expect(usable.map((p) => p.id)).toEqual(['fbi']);
    expect(skipped).toEqual([{ populationId: 'l6', populationName: 'L6 only', reason: "not evaluated: it holds frequencies for none of the profile's 20 markers" }]);
  });

  it('identity hits report the FBI figures, not CI 1 over 0 markers', () => {
    const set = new IndexSet();
    const source = generate();
    set.upsert(profile('offender', 'Convicted Offender', source));
    for (let i = 0; i < 50; i++) set.upsert(profile(`other-${i}`, 'Convicted Offender', generate()));
    const stain = profile('stain', 'Forensic, Unknown', source);
    const [m] = searchRule(rule({}), stain, set);
    expect(m!.candidateId).toBe('offender');
    expect(m!.reportedPopulationId).toBe('fbi');
    expect(m!.populations.map((p) => p.populationId)).toEqual(['fbi']);
    expect(m!.populations[0]!.combinedIndex).toBeGreaterThan(1e20);
    expect(m!.populations[0]!.markerCount).toBe(20);
    expect(m!.skippedPopulations).toEqual([{ populationId: 'l6', populationName: 'L6 only', reason: expect.stringMatching(/none of the profile's 20 markers/) }]);
  });

  it('a remains profile still gets its Parent–child hits', () => {
    const set = new IndexSet();
    const mother = generate();
    const remains = childOf(mother, generate(), 1);
    set.upsert(profile('mother', 'Biological Mother', mother));
    for (let i = 0; i < 100; i++) set.upsert(profile(`unrelated-${i}`, 'Biological Mother', generate()));
    const query = profile('remains', 'Unidentified Human (Remains)', remains);
    const parentChild = (populations: MatchRule['populations']) => rule({ analysis: analysis('Parent–child'), stringency: null, searchedSampleTypes: ['Biological Mother'], threshold: { kind: 'likelihood-ratio', value: 1000 }, populations });
    const alone = searchRule(parentChild([fbi]), query, set);
    expect(alone.map((m) => m.candidateId)).toContain('mother');
    const beside = searchRule(parentChild([fbi, l6]), query, set);
    expect(beside.map((m) => m.candidateId)).toEqual(alone.map((m) => m.candidateId));
    const hit = beside.find((m) => m.candidateId === 'mother')!;
    expect(hit.reportedPopulationId).toBe('fbi');
    expect(hit.populations[0]!.combinedIndex).toBe(alone.find((m) => m.candidateId === 'mother')!.populations[0]!.combinedIndex);
    expect(hit.skippedPopulations!.map((s) => s.populationId)).toEqual(['l6']);
  });

  it('a 3-person forensic mixture still gets its mixture hits; the ranked search names the population it left out', () => {
    const seeded = SEED_MIXTURE_ANALYSES.find((a) => a.name === 'Mixture, 3 contributors')!;
    const mixture = { ...seeded.mixture, dropout: { mode: 'fixed' as const, values: [0.1] } };
    const mixtureAnalysis: MatchAnalysis = { id: 'mix', kind: 'Mixture', profileKind: 'Autosomal', roles: seeded.roles, threshold: 10_000, formulae: [], constants: {}, mixture };
    const set = new IndexSet();
    const contributors = [generate(), generate(), generate()];
    const stain = new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...c.get(m)!]))]]));
    contributors.forEach((c, i) => set.upsert(profile(`contributor-${i}`, 'Convicted Offender', c)));
    for (let i = 0; i < 100; i++) set.upsert(profile(`other-${i}`, 'Convicted Offender', generate()));
    const query = profile('stain', 'Forensic Mixture', stain);
    const mixtureRule = (populations: MatchRule['populations']) => rule({ analysis: mixtureAnalysis, stringency: null, populations });
    const alone = searchRule(mixtureRule([fbi]), query, set);
    expect(alone.length).toBeGreaterThan(0);
    const beside = searchRule(mixtureRule([fbi, l6]), query, set);
    expect(beside.map((m) => m.candidateId)).toEqual(alone.map((m) => m.candidateId));
    expect(beside.every((m) => m.reportedPopulationId === 'fbi' && m.skippedPopulations?.[0]?.populationId === 'l6')).toBe(true);

    const scoped = set.indexes('Autosomal').map((index) => ({ index, mask: index.groupMask((g) => g.sampleType === 'Convicted Offender') }));
    const ranked = rankMixture({ evidence: { replicates: [stain], knownContributors: [] }, setting: mixture, populations: [fbi, l6].map((p) => ({ id: p.id, frequencies: p.frequencies })), scoped, excludeIds: new Set(), minMarkers: 8, limit: 5 });
    expect(ranked.skipped.map((s) => s.populationName)).toEqual(['L6 only']);
    expect(ranked.candidates[0]!.populations.map((p) => p.populationId)).toEqual(['fbi']);
    expect(ranked.candidates.slice(0, 3).map((c) => c.profileId).sort()).toEqual(['contributor-0', 'contributor-1', 'contributor-2']);
  });

  it('a replicate that shows no allele (a failed run) does not hide the other replicate\'s markers from the ranked search', () => {
    const seeded = SEED_MIXTURE_ANALYSES.find((a) => a.name === 'Mixture, 3 contributors')!;
    const mixture = { ...seeded.mixture, dropout: { mode: 'fixed' as const, values: [0.1] } };
    const set = new IndexSet();
    const contributors = [generate(), generate(), generate()];
    const stain = new Map([...contributors[0]!.keys()].map((m) => [m, [...new Set(contributors.flatMap((c) => [...c.get(m)!]))]]));
    const failedRun = new Map([...stain.keys()].map((m) => [m, [] as Genotype]));
    contributors.forEach((c, i) => set.upsert(profile(`contributor-${i}`, 'Convicted Offender', c)));
    for (let i = 0; i < 100; i++) set.upsert(profile(`other-${i}`, 'Convicted Offender', generate()));
    const scoped = set.indexes('Autosomal').map((index) => ({ index, mask: index.groupMask((g) => g.sampleType === 'Convicted Offender') }));
    const ranked = rankMixture({ evidence: { replicates: [stain, failedRun], knownContributors: [] }, setting: mixture, populations: [{ id: fbi.id, frequencies: fbi.frequencies }], scoped, excludeIds: new Set(), minMarkers: 8, limit: 5 });
    expect(ranked.skipped).toEqual([]);
    expect(ranked.candidates[0]!.populations[0]!.markerCount).toBe(stain.size);
    // Two runs with nothing in common but the failed one: still refused, with the reason.
    expect(() => rankMixture({ evidence: { replicates: [failedRun, failedRun], knownContributors: [] }, setting: mixture, populations: [{ id: fbi.id, frequencies: fbi.frequencies }], scoped, excludeIds: new Set(), minMarkers: 8, limit: 5 })).toThrow(/No chosen population can weigh this evidence: FBI 2015 Caucasian \(not evaluated: it holds frequencies for none of the profile's 0 markers\)/);
  });

  it('a familial search ranks as without it, and names it', () => {
    const set = new IndexSet();
    const missing = generate();
    set.upsert(profile('sister', 'Biological Sibling', siblingOf(missing, fbi.frequencies, 5)));
    for (let i = 0; i < 100; i++) set.upsert(profile(`unrelated-${i}`, 'Biological Sibling', generate()));
    const query = profile('remains', 'Unidentified Human (Remains)', missing);
    const siblings = (populations: MatchRule['populations']) => rule({ analysis: analysis('Full siblings'), stringency: null, searchedSampleTypes: ['Biological Sibling'], populations });
    const alone = rankRule(siblings([fbi]), query, set, { limit: 10 });
    const beside = rankRule(siblings([fbi, l6]), query, set, { limit: 10 });
    expect(beside.candidates.map((c) => [c.candidateId, c.populations.map((p) => p.combinedIndex)])).toEqual(alone.candidates.map((c) => [c.candidateId, c.populations.map((p) => p.combinedIndex)]));
    expect(beside.candidates[0]!.candidateId).toBe('sister');
    expect(beside.skipped!.map((s) => s.populationName)).toEqual(['L6 only']);
  });
});
