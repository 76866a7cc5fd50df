/**
 * A search's per-marker likelihoods (server/genetics/mixture/candidate-likelihoods.ts) are the calculator's, bit for bit:
 * for every class genotype of the candidate, Pr(E | Hp) and Pr(E | Hd) equal mixtureMarkerLikelihood with the candidate
 * added to the hypothesis — the per-genotype computation the search ran before — and so does the LR of the search's
 * table, on random stains and on EuroForMix's ESX17 low-template stain.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { likelihoodWithContributor, likelihoodWithNonContributor } from '../../../../../server/genetics/mixture/candidate-likelihoods';
import { mixtureCandidateLr } from '../../../../../server/genetics/mixture/candidate-lr';
import { hypothesisDropouts } from '../../../../../server/genetics/mixture/hypothesis-dropouts';
import { mixtureMarkerLikelihood, type ClassCopies, type MixtureHypothesisAtMarker, type MixtureModelParameters } from '../../../../../server/genetics/mixture/mixture-likelihood';
import { prepareMixtureMarker } from '../../../../../server/genetics/mixture/mixture-marker';
import type { Genotype, PopulationFrequencies } from '../../../../../server/genetics/types';

const table = { '8': 0.02, '9': 0.08, '10': 0.15, '11': 0.25, '12': 0.2, '13': 0.18, '14': 0.12 };
const population: PopulationFrequencies = { name: 'p', minimumAlleleFrequency: 0.001, markers: new Map([['M', { frequencies: new Map(Object.entries(table)), sampleSize: null }]]) };
const alleles = [...Object.keys(table), '15'];
const genotype = fc.tuple(fc.constantFrom(...alleles), fc.constantFrom(...alleles)).map(([a, b]): Genotype => (a === b ? [a] : [a, b]));

/** Every class genotype of K classes as copies: each pair of classes, a homozygote as two copies of one. */
function classGenotypes(K: number): ClassCopies[] {
  const all: ClassCopies[] = [];
  for (let a = 0; a < K; a++) {
    for (let b = a; b < K; b++) {
      const copies = new Int32Array(K);
      copies[a]!++;
      copies[b]!++;
      all.push(copies);
    }
  }
  return all;
}

/** Both likelihoods against the per-genotype computation for every class genotype; `equal` counts the genotypes checked. */
function expectPerGenotype(marker: ReturnType<typeof prepareMixtureMarker>, hypothesis: MixtureHypothesisAtMarker, dropout: number, parameters: MixtureModelParameters): number {
  const withContributor = likelihoodWithContributor(marker, hypothesis, dropout, parameters);
  const withNonContributor = likelihoodWithNonContributor(marker, hypothesis, parameters);
  // Every genotype at once (contributor-pairs.ts, pair-sums.ts), at a · K + b.
  const K = marker.frequencies.length;
  const everyWith = withContributor.everyPair();
  const everyWithout = withNonContributor.everyPair();
  expect(everyWith).not.toBeNull();
  expect(everyWithout).not.toBeNull();
  let checked = 0;
  for (const copies of classGenotypes(K)) {
    const hp = mixtureMarkerLikelihood(marker, { ...hypothesis, contributors: [{ copies, dropout }, ...hypothesis.contributors] }, parameters);
    const hd = mixtureMarkerLikelihood(marker, { ...hypothesis, nonContributors: [...hypothesis.nonContributors, copies] }, parameters);
    expect(withContributor(copies)).toBe(hp);
    expect(withNonContributor(copies)).toBe(hd);
    const a = copies.findIndex((c) => c > 0);
    const b = copies[a] === 2 ? a : copies.findIndex((c, k) => k > a && c > 0);
    expect(everyWith![a * K + b]).toBe(hp);
    expect(everyWithout![a * K + b]).toBe(hd);
    checked++;
  }
  return checked;
}

describe('the likelihoods of every candidate genotype at once', () => {
  it('equal the per-genotype likelihoods bit for bit: replicates, known contributors, unknowns of different drop-outs, θ and drop-in', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.constantFrom(...alleles), { maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        fc.array(genotype, { maxLength: 2 }),
        fc.array(fc.constantFrom(0.05, 0.1, 0.3), { minLength: 1, maxLength: 2 }),
        fc.constantFrom(0.1, 0.25),
        fc.constantFrom(0, 0.05),
        fc.constantFrom(0, 0.01, 0.05),
        (replicates, knowns, unknowns, dropout, dropIn, theta) => {
          const marker = prepareMixtureMarker(population, 'M', replicates, knowns, { normalize: false }, true);
          const contributors = knowns.map((k, i) => ({ copies: marker.copies(k), dropout: [0.2, 0.15][i]! }));
          expect(expectPerGenotype(marker, { contributors, nonContributors: [], unknowns }, dropout, { dropIn, theta })).toBeGreaterThan(0);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('equal them for copies of no class or of three and more, after a genotype was weighed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(fc.constantFrom(...alleles), { maxLength: 6 }), { minLength: 1, maxLength: 2 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 8, maxLength: 8 }),
        fc.constantFrom(0.05, 0.3),
        fc.constantFrom(0, 0.05),
        fc.constantFrom(0, 0.01),
        (replicates, counts, dropout, dropIn, theta) => {
          const marker = prepareMixtureMarker(population, 'M', replicates, [], { normalize: false }, true);
          const copies = Int32Array.from(counts.slice(0, marker.frequencies.length));
          const hypothesis = { contributors: [], nonContributors: [], unknowns: [0.1, 0.2] };
          const withContributor = likelihoodWithContributor(marker, hypothesis, dropout, { dropIn, theta });
          // A genotype first, then the copies: each call its own.
          withContributor(classGenotypes(marker.frequencies.length)[0]!);
          expect(withContributor(copies)).toBe(mixtureMarkerLikelihood(marker, { ...hypothesis, contributors: [{ copies, dropout }] }, { dropIn, theta }));
        },
      ),
      { numRuns: 40 },
    );
  });

  const DATA = path.resolve(__dirname, '../../../../../../shared/data/formats');
  const rows = (file: string, separator: string) => readFileSync(path.join(DATA, file), 'utf8').trim().split(/\r?\n/).map((l) => l.split(separator));
  const [header, ...frequencyRows] = rows('frequencies-formats/ESX17_NorwayAMEL.csv', ';');
  const norway: PopulationFrequencies = {
    name: 'Norway ESX17',
    minimumAlleleFrequency: 0.001,
    markers: new Map(header!.slice(1).map((m, j) => [m, { sampleSize: null, frequencies: new Map(frequencyRows.filter((r) => r[j + 1]).map((r) => [r[0]!, Number(r[j + 1])])) }] as const)),
  };
  const evidence = rows('genemapper/ESX17_evids_LTDNA.csv', ';');
  // EuroForMix's three low-template stains as three replicates (more drop-out and drop-in to explain), one of its references a known contributor.
  const replicates = ['stain51', 'stain68', 'stain80'].map((name) => new Map(evidence.filter((r) => r[0] === name).map((r) => [r[1]!, r.slice(2, 7).filter(Boolean)])));
  const known = new Map(rows('genemapper/ESX17_refs.csv', ',').filter((r) => r[0] === 'ref2').map((r) => [r[1]!, [...new Set(r.slice(2, 4))]]));
  const markers = [...replicates[0]!.keys()].filter((m) => norway.markers.has(m));

  it('on the ESX17 stain (three replicates, a known contributor, three and four contributors): every marker, every class genotype', () => {
    expect(markers.length).toBeGreaterThan(10);
    let checked = 0;
    for (const m of markers) {
      const marker = prepareMixtureMarker(norway, m, replicates.map((r) => r.get(m) ?? []), [known.get(m)!], { normalize: false }, true);
      for (const unknowns of [[0.3], [0.3, 0.1]]) checked += expectPerGenotype(marker, { contributors: [{ copies: marker.copies(known.get(m)), dropout: 0.2 }], nonContributors: [], unknowns }, 0.1, { dropIn: 0.05, theta: 0.01 });
    }
    expect(checked).toBeGreaterThan(200);
  });

  it("the search's table on the ESX17 stain gives each population genotype the per-genotype LR, Hp over Hd, bit for bit", () => {
    const dropout = [0.1, 0.2, 0.3];
    const { hd } = hypothesisDropouts(3, 1, dropout);
    const parameters = { dropIn: 0.05, theta: 0.01 };
    for (const m of markers) {
      const seen = replicates.map((r) => r.get(m) ?? []);
      const lr = mixtureCandidateLr({ population: norway, marker: m, replicates: seen, knownContributors: [known.get(m)], dropout, dropoutHd: hd, parameters, personOfInterestTypedUnderHd: true, frequencyRule: { normalize: false } });
      const marker = prepareMixtureMarker(norway, m, seen, [known.get(m)!], { normalize: false }, true);
      const knownAt = { copies: marker.copies(known.get(m)), dropout: 0.2 };
      const names = [...norway.markers.get(m)!.frequencies.keys()];
      for (const [i, a] of names.entries()) {
        for (const b of names.slice(i)) {
          const g = a === b ? [a] : [a, b];
          const copies = marker.copies(g);
          const hpAt = mixtureMarkerLikelihood(marker, { contributors: [{ copies, dropout: 0.1 }, knownAt], nonContributors: [], unknowns: [0.3] }, parameters);
          const hdAt = mixtureMarkerLikelihood(marker, { contributors: [{ copies: knownAt.copies, dropout: hd[1]! }], nonContributors: [copies], unknowns: [hd[0]!, hd[2]!] }, parameters);
          expect(lr(g)).toBe(hdAt > 0 ? hpAt / hdAt : 0);
        }
      }
    }
  });
});
