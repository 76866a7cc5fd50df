import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { logLikelihood, prepareEvidence, prepareHypothesis } from '../../../../../server/genetics/continuous/continuous-likelihood';
import type { ContinuousCase } from '../../../../../server/genetics/continuous/continuous-lr';
import { planContributorSearch, searchContributors } from '../../../../../server/genetics/continuous/contributor-search';
import type { ContinuousEvidence, TypedPerson } from '../../../../../server/genetics/continuous/continuous-types';

// EuroForMix's ESX17 stain (stain80, stain51, stain68 as replicates, heights from the file), Norwegian frequencies, the
// kit's sizes, degradation and both stutters, ref1 the person of interest and no known contributor, cut to five markers
// so that four unknowns under Hd still sum more joint genotypes (FGA alone: 194,481) than a search fitted before
// (150,000, refused then): the search over 1..4 fits the 4-contributor model, from the 3-contributor optimum.
const DATA = path.resolve(import.meta.dirname, '../../../../../../shared/data/formats');
const MARKERS = ['FGA', 'D18S51', 'D2S1338', 'D16S539', 'SE33'];
const rows = (file: string, separator: string) => readFileSync(path.join(DATA, file), 'utf8').trim().split(/\r?\n/).map((l) => l.split(separator));

function esx17Case(): ContinuousCase {
  const [header, ...table] = rows('frequencies-formats/ESX17_NorwayAMEL.csv', ';');
  const frequencies = header!.slice(1).map((m, j) => [m, { sampleSize: null, frequencies: new Map(table.filter((r) => r[j + 1]).map((r) => [r[0]!, Number(r[j + 1])])) }] as const);
  const stains = rows('genemapper/ESX17_evids_LTDNA.csv', ';');
  const stain = (name: string) => new Map(stains.filter((r) => r[0] === name && MARKERS.includes(r[1]!)).map((r) => [r[1]!, r.slice(2, 7).flatMap((allele, i) => (allele ? [{ allele, height: Number(r[7 + i]) }] : []))]));
  const kit = rows('kits/kit.txt', '\t').filter((r) => r[12] === 'ESX17');
  const sizes = (marker: string) => kit.filter((r) => r[1]!.toUpperCase() === marker.toUpperCase());
  const evidence: ContinuousEvidence = {
    replicates: ['stain80', 'stain51', 'stain68'].map(stain),
    population: { name: 'Norway ESX17', minimumAlleleFrequency: 0.001, markers: new Map(frequencies) },
    normalizeFrequencies: false,
    analyticalThreshold: () => 50,
    dropIn: 0.05,
    dropInLambda: 0.01,
    theta: 0.01,
    model: { degradation: true, backwardStutter: true, forwardStutter: true },
    fragmentSize: (marker, allele) => {
      const row = sizes(marker).find((r) => r[2] === allele);
      return row ? Number(row[3]) : undefined;
    },
    qAlleleSize: (marker) => Math.max(...sizes(marker).map((r) => Number(r[3]))),
  };
  const ref1: TypedPerson = new Map(rows('genemapper/ESX17_refs.csv', ',').filter((r) => r[0] === 'ref1' && MARKERS.includes(r[1]!)).map((r) => [r[1]!, [...new Set(r.slice(2, 4))]]));
  return { evidence, contributors: 1, personOfInterest: ref1, knownContributors: [], knownNonContributors: [], personOfInterestTypedUnderHd: true, parameters: { mode: 'fit', starts: 2, seed: 1 }, deconvolution: false, analyticalThreshold: 50, population: { id: null, name: 'Norway ESX17', minimumAlleleFrequency: 0.001 } };
}

describe('the number-of-contributors search on the ESX17 stain', () => {
  it('fits four unknowns under Hd over 1..4 from the 3-contributor optimum, its log-likelihoods the exact sums at the parameters reported', () => {
    const c = esx17Case();
    const plan = planContributorSearch(c, [1, 4], [c.evidence.model], null);
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
