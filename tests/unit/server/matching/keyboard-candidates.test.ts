/**
 * The keyboard search's scans (server/matching/keyboard-candidates.ts) keep a bounded number of candidates: what they
 * keep must be the head of the unbounded ranking, whatever the bound, and the count must be every profile found.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { IndexSet } from '../../../../server/matching/index-set';
import { keyboardCandidates, type KeyboardCandidatesInput } from '../../../../server/matching/keyboard-candidates';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const population = fbi2015Population('Caucasian');
const matchPopulation: MatchPopulation = { id: 'fbi', kind: 'Autosomal', frequencies: population, haplotypes: [] };
const seeded = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses)
  .filter((a) => a.profileKind === 'Autosomal' && a.roles.length === 2)
  .map((a): MatchAnalysis => ({ id: a.name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) }));
const chosen = seeded.filter((a) => ['Identity', 'Full siblings', 'Half siblings / second degree', 'Parent–child exclusion'].includes(a.id));

const query = profileGenerator(population, 31)();

/** Unrelated profiles, the query's siblings and copies in organization A; copies in B; a mixture copy in A's side list. */
function database() {
  const generate = profileGenerator(population, 37);
  const set = new IndexSet();
  const add = (id: string, genotypes: ReadonlyMap<string, Genotype>, organizationId = 'A') => set.upsert({ id, kind: 'Autosomal', chemistryId: 'kit', organizationId, sampleType: 'Convicted Offender', genotypes });
  for (let i = 0; i < 1500; i++) add(`U${i}`, generate());
  for (let i = 0; i < 6; i++) add(`SIB${i}`, siblingOf(query, population, 40 + i));
  for (let i = 0; i < 7; i++) add(`COPY${i}`, query);
  for (let i = 0; i < 3; i++) add(`B${i}`, query, 'B');
  add('MIXTURE', new Map([...query, ['vWA', ['14', '16', '17']]]));
  return set;
}

const input = (limit: number, organizations: KeyboardCandidatesInput['organizations'] = ['A']): KeyboardCandidatesInput => ({
  kind: 'Autosomal',
  query,
  options: { stringency: 'low', minMarkers: 8, maxMismatches: 5 },
  analyses: chosen,
  populations: [matchPopulation],
  organizations,
  limit,
});

describe('keyboardCandidates', () => {
  it('keeps the head of the unbounded ranking whatever the bound, and counts every profile found', () => {
    const indexes = database();
    const all = keyboardCandidates(indexes, input(100_000));
    // Enough found to cut: copies, the mixture, siblings and low-stringency strangers.
    expect(all.found).toBe(all.candidates.length);
    expect(all.found).toBeGreaterThan(20);
    for (const limit of [1, 5, 8, 13, 20]) {
      const bounded = keyboardCandidates(indexes, input(limit));
      expect(bounded.found, `limit ${limit}`).toBe(all.found);
      expect(bounded.candidates, `limit ${limit}`).toEqual(all.candidates.slice(0, limit));
    }
    // The copies meet the stringency and come first, ties by id; the siblings found by a kinship scan follow the stringency candidates.
    expect(all.candidates.slice(0, 7).map((c) => c.profileId)).toEqual(['COPY0', 'COPY1', 'COPY2', 'COPY3', 'COPY4', 'COPY5', 'COPY6']);
    expect(all.candidates.every((c, i) => i === 0 || all.candidates[i - 1]!.strength >= c.strength)).toBe(true);
  });

  it('searches only the organizations asked, by the index groups, and counts those profiles as searched', () => {
    const indexes = database();
    const inA = keyboardCandidates(indexes, input(300, ['A']));
    expect(inA.candidates.map((c) => c.profileId).filter((id) => id.startsWith('B'))).toEqual([]);
    expect(inA.searchedProfiles).toBe(1500 + 6 + 7 + 1);
    const everywhere = keyboardCandidates(indexes, input(300, 'all'));
    expect(everywhere.found).toBe(inA.found + 3);
    expect(everywhere.searchedProfiles).toBe(inA.searchedProfiles + 3);
  });

  it('weighs only the analyses given', () => {
    const indexes = database();
    const stringencyOnly = keyboardCandidates(indexes, { ...input(300), analyses: [] });
    expect(stringencyOnly.candidates.every((c) => c.results.length === 0 && c.stringencyMet)).toBe(true);
    const identity = keyboardCandidates(indexes, { ...input(300), analyses: chosen.filter((a) => a.id === 'Identity') });
    expect(new Set(identity.candidates.flatMap((c) => c.results.map((r) => r.analysisId)))).toEqual(new Set(['Identity']));
    const copy = identity.candidates.find((c) => c.profileId === 'COPY0')!;
    expect(copy.results).toEqual([expect.objectContaining({ analysisId: 'Identity', populationId: 'fbi', overThreshold: true })]);
  });
});
