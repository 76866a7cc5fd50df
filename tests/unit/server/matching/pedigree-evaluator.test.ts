/**
 * Issue 16: a pairwise analysis with a mutation model is searched as the calculator weighs it. The search's
 * per-marker table (one elimination per hypothesis for the query's genotype) equals the pedigree LR of each pair,
 * whichever role the query holds, and a database scan with it gives the calculator's combined index.
 */
import { describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import { evaluatePedigree, modelsFor } from '../../../../server/genetics/evaluate-pedigree';
import { analysisHypotheses, pedigreeLr } from '../../../../server/genetics/pedigree';
import { SEED_ANALYSIS_GROUPS, SEED_KINSHIP_PEDIGREES } from '../../../../server/genetics/seed-analyses';
import type { Genotype } from '../../../../server/genetics/types';
import { unrelatedDistribution } from '../../../../server/matching/chance-distribution';
import { candidateResults } from '../../../../server/matching/candidate-results';
import { pedigreePairLr } from '../../../../server/matching/pedigree-evaluator';
import type { MatchAnalysis, MatchPopulation } from '../../../../server/matching/types';

const population = fbi2015Population();
const mutation = { female: { model: 'stepwise' as const, rate: 0.001, rate2: 0.00001, range: 0.1 }, male: { model: 'stepwise' as const, rate: 0.004, rate2: 0.00001, range: 0.1 }, markers: [] };
const seed = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const weighed = (name: string): MatchAnalysis => {
  const a = seed.find((s) => s.name === name)!;
  return {
    id: name,
    kind: 'Computational',
    profileKind: 'Autosomal',
    roles: a.roles,
    threshold: 0,
    formulae: a.formulae,
    constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])),
    weighing: { hypotheses: analysisHypotheses(SEED_KINSHIP_PEDIGREES[name]!, a.roles), models: modelsFor(mutation), mutation },
  };
};

describe('a pairwise analysis weighed through its pedigree in a search', () => {
  it.each(['Parent–child', 'Full siblings', 'Half siblings / second degree'])('%s: the table of the query genotype gives each pair\'s pedigree LR, in either role', (name) => {
    const analysis = weighed(name);
    const { h1, h2 } = analysis.weighing!.hypotheses;
    const generate = profileGenerator(population, 31);
    for (let i = 0; i < 12; i++) {
      const [a, b] = [generate(), generate()];
      // A rare allele the population lacks, as an OL-free off-ladder designation would be.
      if (i === 3) b.set('TH01', ['5', '13']);
      for (const marker of ['TH01', 'FGA', 'D18S51']) {
        const pair: Genotype[] = [a.get(marker)!, b.get(marker)!];
        const direct = pedigreeLr(h1, h2, new Map([[marker, new Map([[analysis.roles[0]!, pair[0]!], [analysis.roles[1]!, pair[1]!]])]]), population, analysis.weighing!.models).lr;
        for (const fixed of [0, 1] as const) {
          const lr = pedigreePairLr(analysis.weighing!, analysis.roles, marker, population, fixed)(pair)!;
          expect(Math.abs(lr - direct) / direct, `${marker} fixed ${fixed}`).toBeLessThan(1e-12);
        }
      }
    }
  });

  it('a scan with it gives the calculator\'s combined index, and its chance distribution is a distribution', () => {
    const analysis = weighed('Parent–child');
    const matchPopulation: MatchPopulation = { id: 'pop', kind: 'Autosomal', frequencies: population, haplotypes: [] };
    const generate = profileGenerator(population, 47);
    const child = generate();
    const candidates = new Map<string, ReadonlyMap<string, Genotype>>(Array.from({ length: 25 }, (_, i) => [`C${i}`, generate()]));
    for (const queryRole of [0, 1] as const) {
      const results = candidateResults('Autosomal', child, candidates, [analysis], [matchPopulation], queryRole);
      expect(results).toHaveLength(25);
      for (const r of results) {
        const roles = queryRole === 0 ? [child, candidates.get(r.profileId)!] : [candidates.get(r.profileId)!, child];
        const calc = evaluatePedigree(analysis.weighing!.hypotheses, analysis.roles, roles, population, analysis.weighing!.models, [...child.keys()]);
        if (calc.combinedIndex === 0) expect(r.combinedIndex).toBe(0);
        else expect(Math.abs(r.combinedIndex! - calc.combinedIndex!) / calc.combinedIndex!).toBeLessThan(1e-9);
      }
    }
    const distribution = unrelatedDistribution(analysis, child, 0, matchPopulation, { step: 0.01 });
    expect(distribution.tail(-Infinity).upper).toBeCloseTo(1, 12);
    // Mutation: an unrelated candidate is almost never excluded outright (LR 0 needs an impossible step).
    expect(distribution.zeroProbability).toBeLessThan(0.01);
  });
});
