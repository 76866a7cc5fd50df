/**
 * A short list of candidates (the keyboard search's, a rule's matches) is weighed marker by marker for just those
 * profiles (issue 29): every figure must be, to the bit, what the former path gave — the candidates put in a small
 * index of their own and every analysis scanned over it with the threshold lifted — for random profiles of every
 * kind of relation, a mixture, missing markers and parentage inconsistencies, in either role.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import { seededRandom } from '../../../../core/seeded-random';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { scanAnalysis } from '../../../../server/matching/analysis-scan';
import { candidateResults, type CandidateResult } from '../../../../server/matching/candidate-results';
import { ProfileIndex } from '../../../../server/matching/profile-index';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const populations: MatchPopulation[] = ['Caucasian', 'African American', 'SE Hispanic', 'Filipino'].map((name) => ({ id: name, kind: 'Autosomal', frequencies: fbi2015Population(name), haplotypes: [] }));
const analyses = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses)
  .filter((a) => a.profileKind === 'Autosomal' && a.roles.length === 2 && a.threshold !== null)
  .map((a): MatchAnalysis => ({ id: a.name, kind: a.kind, profileKind: a.profileKind, roles: a.roles, threshold: a.threshold, formulae: a.formulae, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) }));

/** The former candidate step, kept here as the reference: a small index of the candidates, each analysis scanned over it with the threshold lifted. */
function scannedResults(query: ReadonlyMap<string, Genotype>, candidates: ReadonlyMap<string, ReadonlyMap<string, Genotype>>, queryRole: 0 | 1): CandidateResult[] {
  const index = new ProfileIndex('candidates', 'Autosomal');
  for (const [id, genotypes] of candidates) index.upsert(id, genotypes);
  return analyses.flatMap((analysis) =>
    (analysis.kind === 'Exclusion' ? [null] : populations).flatMap((population) =>
      scanAnalysis(index, { analysis: { ...analysis, threshold: analysis.kind === 'Exclusion' ? Infinity : 0 }, query, queryRole, population, minMarkers: 0 }).map((m) => ({
        ...m,
        analysisId: analysis.id,
        populationId: population?.id ?? null,
        overThreshold: analysis.kind === 'Exclusion' ? m.markerCount - m.nonExclusionMarkerCount! <= analysis.threshold! : (m.combinedIndex ?? 0) >= analysis.threshold!,
      })),
    ),
  );
}

/** A child of `parent`: one of its alleles and one drawn, at `mutated` markers an allele one repeat off instead. */
function childOf(parent: ReadonlyMap<string, Genotype>, other: ReadonlyMap<string, Genotype>, random: () => number, mutated: number): Map<string, Genotype> {
  let left = mutated;
  return new Map(
    [...parent].map(([marker, g]) => {
      const fromParent = left-- > 0 ? String(Number(g[0]!) + 1) : g[Math.floor(random() * g.length)]!;
      const o = other.get(marker)!;
      const pair = [fromParent, o[Math.floor(random() * o.length)]!].sort((a, b) => Number(a) - Number(b));
      return [marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
    }),
  );
}

const key = (r: CandidateResult) => `${r.profileId}|${r.analysisId}|${r.populationId}`;
const byKey = (results: readonly CandidateResult[]) => new Map(results.map((r) => [key(r), r]));

describe('candidateResults', () => {
  it('weighs each candidate to the bit as the scans over an index of the candidates did, for random profiles in either role', () => {
    const random = seededRandom(2929);
    for (let round = 0; round < 6; round++) {
      const generate = profileGenerator(populations[round % populations.length]!.frequencies, 100 + round);
      const query = generate();
      const candidates = new Map<string, ReadonlyMap<string, Genotype>>();
      for (let i = 0; i < 25; i++) candidates.set(`unrelated-${i}`, generate());
      for (let i = 0; i < 5; i++) candidates.set(`sibling-${i}`, siblingOf(query, populations[0]!.frequencies, 40 + 10 * round + i));
      for (let i = 0; i < 4; i++) candidates.set(`child-${i}`, childOf(query, generate(), random, i));
      candidates.set('copy', query);
      // Some markers missing, a marker with three alleles (the index's side list) and a partial copy.
      candidates.set('partial', new Map([...query].filter(() => random() > 0.4)));
      const [marker, alleles] = [...query][3]!;
      candidates.set('mixture', new Map([...generate(), [marker, [...new Set([...alleles, '5', '40'])]]]));
      for (const queryRole of [0, 1] as const) {
        const weighed = candidateResults('Autosomal', query, candidates, analyses, populations, queryRole);
        const scanned = scannedResults(query, candidates, queryRole);
        expect(weighed.length).toBe(scanned.length);
        expect(byKey(weighed)).toEqual(byKey(scanned));
      }
    }
  });

  it('answers a candidate whose figures are every kind: an exact copy over the Identity threshold, a stranger under it', () => {
    const generate = profileGenerator(populations[0]!.frequencies, 7);
    const query = generate();
    const results = candidateResults('Autosomal', query, new Map([['copy', query], ['stranger', generate()]]), analyses.filter((a) => a.id === 'Identity'), populations);
    expect(results.filter((r) => r.profileId === 'copy').map((r) => r.overThreshold)).toEqual([true, true, true, true]);
    expect(results.filter((r) => r.profileId === 'stranger').every((r) => !r.overThreshold && r.markerCount === 20)).toBe(true);
  });
});
