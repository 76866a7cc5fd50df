import { describe, expect, it } from 'vitest';
import { logLikelihood, prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import type { ContinuousCase } from '../../../../../server/genetics/continuous/continuous-lr';
import { planContributorSearch, searchContributors } from '../../../../../server/genetics/continuous/contributor-search';
import type { ContinuousEvidence } from '../../../../../server/genetics/continuous/continuous-types';
import { continuousBenchCase } from '../../../../../bench/continuous-bench';

// EuroForMix's ESX17 stain (stain80, stain51, stain68 as replicates, heights from the file), Norwegian frequencies, the
// kit's sizes, degradation and both stutters, ref1 the person of interest and no known contributor, cut to five markers
// so that four unknowns under Hd still sum more joint genotypes (FGA alone: 194,481) than a search fitted before
// (150,000, refused then): the search over 1..4 fits the 4-contributor model, from the 3-contributor optimum.
const MARKERS = ['FGA', 'D18S51', 'D2S1338', 'D16S539', 'SE33'];

function esx17Case(): ContinuousCase {
  const { evidence, ref1 } = continuousBenchCase();
  const kept = <V>(byMarker: ReadonlyMap<string, V>) => new Map([...byMarker].filter(([marker]) => MARKERS.includes(marker)));
  const cut: ContinuousEvidence = { ...evidence, replicates: evidence.replicates.map(kept), population: { ...evidence.population, markers: kept(evidence.population.markers) } };
  return { evidence: cut, contributors: 1, personOfInterest: kept(ref1), knownContributors: [], knownNonContributors: [], personOfInterestTypedUnderHd: true, parameters: { mode: 'fit', starts: 2, seed: 1 }, deconvolution: false, analyticalThreshold: 50, population: { id: null, name: 'Norway ESX17', minimumAlleleFrequency: 0.001 } };
}

describe('the number-of-contributors search on the ESX17 stain', () => {
  it('fits four unknowns under Hd over 1..4 from the 3-contributor optimum, its log-likelihoods the exact sums at the parameters reported', () => {
    const c = esx17Case();
    const plan = planContributorSearch(c, [1, 4], [c.evidence.model]);
    expect(plan.map((p) => p.jointGenotypes > 150_000)).toEqual([false, false, false, true]);
    expect(plan.map((p) => p.fromBelow)).toEqual([false, false, false, true]);

    const search = searchContributors(c, [1, 4], [c.evidence.model]);
    expect(search.map((s) => s.contributors)).toEqual([1, 2, 3, 4]);
    const [three, four] = [search[2]!, search[3]!];
    const [hp, hd] = four.result.hypotheses;
    expect(hd!.parameters!.mx).toHaveLength(4);
    expect(hp!.parameters!.mx).toHaveLength(4);
    expect(hd!.fit).toMatchObject({ starts: 1, agreeing: 1, converged: true });
    expect(hp!.fit).toMatchObject({ starts: 1, agreeing: 1, converged: true });
    // A fourth contributor can do what three do (a share near 0): the fit from there finds at least as much, to the search's precision.
    expect(four.logLikelihoodHd!).toBeGreaterThan(three.logLikelihoodHd! - 0.01);
    expect(four.logLikelihoodHp!).toBeGreaterThan(three.logLikelihoodHp! - 0.01);
    expect(search.filter((s) => s.best)).toHaveLength(1);

    // Exact at the optimum reported: the sum over every joint genotype at those parameters, bit for bit.
    const roles = { contributor: String, nonContributor: String };
    const prepared = prepareEvidence(c.evidence);
    const hdModel = prepareHypothesis(prepared, { contributors: [null, null, null, null], nonContributors: [c.personOfInterest] }, roles);
    expect(logLikelihood(hdModel, hd!.parameters!).total).toBe(four.logLikelihoodHd);
    const hpModel = prepareHypothesis(prepared, { contributors: [c.personOfInterest, null, null, null], nonContributors: [] }, roles);
    expect(logLikelihood(hpModel, hp!.parameters!).total).toBe(four.logLikelihoodHp);
  });
});
