import { describe, expect, it } from 'vitest';
import type { ContinuousCase } from '../../../../../server/genetics/continuous/continuous-lr';
import { searchContributors } from '../../../../../server/genetics/continuous/contributor-search';
import { ContinuousModelError } from '../../../../../server/genetics/continuous/continuous-types';
import { evidence, NO_MODEL, person, population, replicate } from './continuous-fixtures';

// A two-person stain simulated from the model: Mx 0.7/0.3, μ 1000, heights at μ × Σ Mx·copies, perturbed by a few
// percent (a fixed pattern) in two replicates. The search over 1..3 contributors must choose 2.
const MAJOR = { A: ['10', '12'], B: ['14', '15'], C: ['8', '9'], D: ['20', '22'] };
const MINOR = { A: ['11', '13'], B: ['15', '17'], C: ['10', '11'], D: ['21', '21'] };
const TABLE = Object.fromEntries(Object.keys(MAJOR).map((m) => [m, Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`${i + 7}`, 1 / 20]))]));

function simulated(perturbation: number): ReturnType<typeof replicate> {
  let i = 0;
  const markers = Object.fromEntries(
    Object.keys(MAJOR).map((m) => {
      const heights: Record<string, number> = {};
      for (const [genotype, share] of [[MAJOR[m as keyof typeof MAJOR], 0.7], [MINOR[m as keyof typeof MINOR], 0.3]] as const)
        for (const allele of genotype) heights[allele] = (heights[allele] ?? 0) + 1000 * share;
      for (const allele of Object.keys(heights)) heights[allele] = Math.round(heights[allele]! * (1 + perturbation * Math.sin(++i)));
      return [m, heights];
    }),
  );
  return replicate(markers);
}

const CASE: ContinuousCase = {
  evidence: evidence([simulated(0.06), simulated(-0.05)], population(TABLE)),
  contributors: 2,
  personOfInterest: person(MAJOR),
  knownContributors: [],
  knownNonContributors: [],
  personOfInterestTypedUnderHd: true,
  parameters: { mode: 'fit', starts: 2, seed: 7 },
  deconvolution: false,
  analyticalThreshold: 50,
  population: { id: null, name: 'test', minimumAlleleFrequency: 0.001 },
};

describe('the number of contributors search', () => {
  it('chooses the true two contributors of a simulated stain by AIC, the fits side by side, and gives the same answer twice', () => {
    const search = searchContributors(CASE, [1, 3], [NO_MODEL]);
    expect(search.map((s) => s.contributors)).toEqual([1, 2, 3]);
    expect(search.filter((s) => s.best).map((s) => s.contributors)).toEqual([2]);
    expect(search.map((s) => s.parameters)).toEqual([2, 3, 4]);
    const two = search[1]!;
    expect(two.aic).toBeCloseTo(2 * 3 - 2 * two.logLikelihoodHd!, 10);
    // 14 peaks per replicate (4 + 3 + 4 + 3), two replicates.
    expect(two.bic).toBeCloseTo(3 * Math.log(28) - 2 * two.logLikelihoodHd!, 10);
    expect(two.result.hypotheses[1]!.parameters!.mx[0]).toBeCloseTo(0.7, 1);
    // One contributor explains four peaks a marker only by drop-ins: far less likely.
    expect(search[0]!.logLikelihoodHd!).toBeLessThan(two.logLikelihoodHd! - 20);
    expect(JSON.stringify(searchContributors(CASE, [1, 3], [NO_MODEL]))).toBe(JSON.stringify(search));
  });

  it('fits four unknowns under Hd in a search over 1..4 (a model, not a refusal); the true two stay best', () => {
    const search = searchContributors(CASE, [1, 4], [NO_MODEL]);
    expect(search.map((s) => s.contributors)).toEqual([1, 2, 3, 4]);
    const four = search[3]!;
    expect(four.result.hypotheses[1]!.parameters!.mx).toHaveLength(4);
    expect(Number.isFinite(four.logLikelihoodHd)).toBe(true);
    // A third and fourth contributor add parameters but explain nothing more.
    expect(four.logLikelihoodHd!).toBeGreaterThan(search[1]!.logLikelihoodHd! - 0.5);
    expect(search.filter((s) => s.best).map((s) => s.contributors)).toEqual([2]);
  });

  it('refuses, before fitting, a search beyond its bound on work, naming the contributor count', () => {
    expect(() => searchContributors(CASE, [1, 5], [NO_MODEL])).toThrow(ContinuousModelError);
    expect(() => searchContributors(CASE, [1, 5], [NO_MODEL])).toThrow(/up to 5 contributors/);
    expect(() => searchContributors({ ...CASE, parameters: { mode: 'fixed', hp: { mx: [1], mu: 1, sigma: 1, beta: 1, xiB: 0, xiF: 0 }, hd: { mx: [1], mu: 1, sigma: 1, beta: 1, xiB: 0, xiF: 0 } } }, [1, 2], [NO_MODEL])).toThrow(/fit/);
  });
});
