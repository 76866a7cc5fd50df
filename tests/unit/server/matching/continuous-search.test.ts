/**
 * Issue 31 "Quantitative database search": a stain with peak heights searched with the continuous model — Hd fitted
 * once, one table per marker and placement, one pass — ranks its planted contributors above every non-contributor,
 * finds them as rule matches with both numbers (the scan's and the exact re-weighed one), and the chance figures.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { ContinuousSearchSetting } from '../../../../core/schemas/continuous';
import type { MixtureSetting } from '../../../../core/schemas/mixtures';
import type { Genotype } from '../../../../server/genetics/types';
import { SEED_MIXTURE_ANALYSES } from '../../../../server/genetics/seed-analyses';
import { IndexSet } from '../../../../server/matching/index-set';
import { prepareContinuous, rankContinuous, searchContinuous, type ContinuousStain } from '../../../../server/matching/continuous-search';
import { genotypeLrPlan } from '../../../../server/matching/genotype-lr-plan';
import type { MatchRule } from '../../../../server/matching/rule-match';
import type { MatchProfile } from '../../../../server/matching/types';

const caucasian = fbi2015Population('Caucasian');
const populations = [{ id: 'Caucasian', name: 'Caucasian', synthetic: false, kind: 'Autosomal' as const, frequencies: caucasian, haplotypes: [] }];
const MARKERS = ['D3S1358', 'vWA', 'FGA', 'D8S1179', 'D21S11', 'D18S51', 'D5S818', 'D13S317', 'D7S820', 'TH01'];
const generate = profileGenerator(caucasian, 3131);
const cut = (g: Map<string, Genotype>) => new Map(MARKERS.map((m) => [m, g.get(m)!]));
const profile = (id: string, sampleType: string, genotypes: ReadonlyMap<string, Genotype>): MatchProfile => ({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId: 'oslo', sampleType, genotypes });
const setting: MixtureSetting = { contributors: 2, dropout: { mode: 'fixed', values: [0.1, 0.1] }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false } as MixtureSetting;
const continuous = ContinuousSearchSetting.parse({ starts: 2 });
const seeded = SEED_MIXTURE_ANALYSES.find((a) => a.name === 'Mixture, 2 contributors')!;

/** Two contributors (Mx 0.7 and 0.3, μ 1500 RFU) with a deterministic ±15% spread, 300 unrelated references. */
function world() {
  const set = new IndexSet();
  const contributors = [cut(generate()), cut(generate())];
  let n = 0;
  const replicate = MARKERS.map((marker) => {
    const heights = new Map<string, number>();
    contributors.forEach((c, k) => {
      for (const allele of c.get(marker)!) heights.set(allele, (heights.get(allele) ?? 0) + 1500 * [0.7, 0.3][k]!);
    });
    return { marker, peaks: [...heights].map(([allele, h]) => ({ allele, height: Math.round(h * (1 + 0.15 * Math.sin(++n))) })) };
  });
  const stain: ContinuousStain = { replicates: [replicate], markerThresholds: new Map(), fragmentSizes: new Map(), knownContributors: [] };
  contributors.forEach((c, i) => set.upsert(profile(`contributor-${i}`, 'Convicted Offender', c)));
  for (let i = 0; i < 300; i++) set.upsert(profile(`other-${i}`, 'Convicted Offender', cut(generate())));
  const genotypes = new Map(replicate.map((m) => [m.marker, m.peaks.map((p) => p.allele)]));
  const query = profile('stain', 'Forensic Mixture', genotypes);
  set.upsert(query);
  return { set, stain, query };
}

describe('the continuous-model database search', () => {
  const w = world();

  it('ranks both contributors above every non-contributor, each with the scan\'s number, the exact one and its p-value', () => {
    const scoped = w.set.indexes('Autosomal').map((index) => ({ index, mask: index.groupMask((g) => g.sampleType === 'Convicted Offender') }));
    const r = rankContinuous({ stain: w.stain, setting, continuous, populations: [{ id: 'Caucasian', frequencies: caucasian }], scoped, excludeIds: new Set(['stain']), minMarkers: 8, limit: 5 });
    expect(r.searched).toBe(302);
    expect(r.truncated).toBe(true);
    expect(r.candidates.slice(0, 2).map((c) => c.profileId).sort()).toEqual(['contributor-0', 'contributor-1']);
    const [major, minor] = r.candidates;
    const third = r.candidates[2]!.populations[0]!;
    for (const c of [major!, minor!]) {
      const p = c.populations[0]!;
      expect(p.continuous!.scanLog10Lr!).toBeGreaterThan(third.continuous!.scanLog10Lr!);
      expect(p.log10!).toBeGreaterThan(third.log10!);
      expect(p.combinedIndex).toBeCloseTo(10 ** p.log10!, 6);
      expect(p.chance!.pValue!).toBeLessThan(1e-4);
      expect(p.continuous!.hp!.mx).toHaveLength(2);
    }
    // The major takes Hd's first (larger) unknown's place, the minor the second's.
    const byId = new Map(r.candidates.map((c) => [c.profileId, c.populations[0]!.continuous!]));
    expect(byId.get('contributor-0')!.position).toBe(1);
    expect(byId.get('contributor-1')!.position).toBe(2);
    expect(r.lanes[0]!.hd.parameters!.mx[0]!).toBeCloseTo(0.7, 1);
  });

  it('ranks as one-by-one weighing does over 3,000 references: the same best, and of references tied at the last place kept, the first searched', () => {
    const set = new IndexSet();
    const others = profileGenerator(caucasian, 4242);
    const add = (id: string, genotypes: ReadonlyMap<string, Genotype>) => set.upsert(profile(id, 'Convicted Offender', genotypes));
    for (let i = 0; i < 3000; i++) add(`other-${i}`, cut(others()));
    const [index] = set.indexes('Autosomal');
    const { lanes } = prepareContinuous(w.stain, setting, continuous, [{ id: 'Caucasian', name: 'Caucasian', frequencies: caucasian }]);
    const plans = lanes[0]!.tables.map((tables) => genotypeLrPlan(index!, tables, { cut: 0, minMarkers: 0 }));
    const scoreOf = (slot: number) => Math.max(...plans.map((p) => p.scoreAt(slot).log10));
    const byScore = Array.from({ length: index!.size }, (_, slot) => slot).sort((a, b) => scoreOf(b) - scoreOf(a) || a - b);
    // Two copies of the fifth best searched after it: with six kept, the fifth best and its first copy tie for fifth
    // and sixth; the second copy, as strong, is left out.
    const fifth = index!.idAt(byScore[4]!);
    add('copy-0', index!.genotypesOf(fifth)!);
    add('copy-1', index!.genotypesOf(fifth)!);
    const expected = [...byScore.slice(0, 5).map((slot) => index!.idAt(slot)), 'copy-0'];
    expect(scoreOf(byScore[5]!)).toBeLessThan(scoreOf(byScore[4]!));
    const scoped = [{ index: index!, mask: index!.groupMask(() => true) }];
    const r = rankContinuous({ stain: w.stain, setting, continuous, populations: [{ id: 'Caucasian', frequencies: caucasian }], scoped, excludeIds: new Set(['stain']), minMarkers: 8, limit: 6 });
    expect(r.searched).toBe(3002);
    expect(r.truncated).toBe(true);
    expect(r.candidates.map((c) => c.profileId).sort()).toEqual([...expected].sort());
    for (const c of r.candidates) expect(c.populations[0]!.continuous!.scanLog10Lr!).toBeCloseTo(scoreOf(index!.slotOf(c.profileId)), 9);
  });

  it('fills the list when the sample guesses too high a cut: lowered by 3 log10, then to every reference, the list is the exhaustive ranking', () => {
    // 12,000 references, the 2,048 the first cut is guessed from (the index's middle) holding five copies of the major
    // contributor and nothing else strong: the guess aims at 4·(6 + 1) of 12,000, so the fifth copy's score; only the
    // copies reach it, and nobody else reaches 3 log10 under it, so the list of six is filled only at the last cut.
    const set = new IndexSet();
    const others = profileGenerator(caucasian, 5353);
    const add = (id: string, genotypes: ReadonlyMap<string, Genotype>) => set.upsert(profile(id, 'Convicted Offender', genotypes));
    const major = w.set.find('contributor-0')!.genotypes;
    for (let i = 0; i < 12_000; i++) {
      if (i >= 6000 && i < 6005) add(`copy-${i - 6000}`, major);
      else add(`other-${i}`, cut(others()));
    }
    const [index] = set.indexes('Autosomal');
    const { lanes } = prepareContinuous(w.stain, setting, continuous, [{ id: 'Caucasian', name: 'Caucasian', frequencies: caucasian }]);
    const plans = lanes[0]!.tables.map((tables) => genotypeLrPlan(index!, tables, { cut: 0, minMarkers: 0 }));
    const scoreOf = (slot: number) => Math.max(...plans.map((p) => p.scoreAt(slot).log10));
    // The exhaustive ranking, every reference weighed: strongest first, ties in slot order.
    const byScore = Array.from({ length: index!.size }, (_, slot) => slot).sort((a, b) => scoreOf(b) - scoreOf(a) || a - b);
    const copyScore = scoreOf(index!.slotOf('copy-0'));
    expect(byScore.slice(0, 5).map((slot) => index!.idAt(slot))).toEqual(['copy-0', 'copy-1', 'copy-2', 'copy-3', 'copy-4']);
    // The premise: the first and the lowered cut hold fewer than the list's six, so the list is filled at the last.
    expect(byScore.filter((slot) => scoreOf(slot) >= copyScore - 3)).toHaveLength(5);
    const scoped = [{ index: index!, mask: index!.groupMask(() => true) }];
    const r = rankContinuous({ stain: w.stain, setting, continuous, populations: [{ id: 'Caucasian', frequencies: caucasian }], scoped, excludeIds: new Set(), minMarkers: 8, limit: 6 });
    expect(r.searched).toBe(12_000);
    expect(r.truncated).toBe(true);
    expect(r.candidates.map((c) => c.profileId).sort()).toEqual(byScore.slice(0, 6).map((slot) => index!.idAt(slot)).sort());
    for (const c of r.candidates) expect(c.populations[0]!.continuous!.scanLog10Lr).toBe(scoreOf(index!.slotOf(c.profileId)));
  });

  it('finds the contributors as rule matches over the LR threshold, weighed exactly, with the expected chance hits', () => {
    const rule: MatchRule = { id: 'rule', name: 'mixtures', analysis: { id: 'mix', kind: 'Mixture', profileKind: 'Autosomal', roles: seeded.roles, threshold: 1e6, formulae: [], constants: {}, mixture: setting }, stringency: null, minMarkers: 8, maxMismatches: 0, threshold: { kind: 'likelihood-ratio', value: null }, searchedSampleTypes: ['Convicted Offender'], populations };
    const matches = searchContinuous(rule, w.query, w.set, w.stain, continuous);
    expect(matches.map((m) => m.candidateId).sort()).toEqual(['contributor-0', 'contributor-1']);
    for (const m of matches) {
      const p = m.populations[0]!;
      expect(m).toMatchObject({ matchKind: 'mixture', queryId: 'stain', reportedPopulationId: 'Caucasian' });
      expect(p.continuous!.scanLog10Lr!).toBeGreaterThanOrEqual(6);
      expect(p.chance!.expectedChanceHits).toBeLessThan(1);
      expect(p.chance!.searchedProfiles).toBe(302);
      // The two fits' maximised ln L are kept with the match: their difference is the exact LR.
      const { logLikelihoodHp, logLikelihoodHd, log10Lr } = p.continuous!;
      expect(logLikelihoodHp!).toBeLessThan(0);
      expect((logLikelihoodHp! - logLikelihoodHd!) / Math.LN10).toBeCloseTo(log10Lr!, 12);
    }
  });
});
