/** The search's per-marker table (server/genetics/mixture/candidate-lr.ts) equals the calculator's mixture LR candidate by candidate. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mixtureCandidateLr } from '../../../../../server/genetics/mixture/candidate-lr';
import { hypothesisDropouts } from '../../../../../server/genetics/mixture/hypothesis-dropouts';
import { mixtureLr } from '../../../../../server/genetics/mixture/mixture-lr';
import type { Genotype, PopulationFrequencies } from '../../../../../server/genetics/types';

const table = { '8': 0.02, '9': 0.08, '10': 0.15, '11': 0.25, '12': 0.2, '13': 0.18, '14': 0.12 };
const population: PopulationFrequencies = { name: 'p', minimumAlleleFrequency: 0.001, markers: new Map([['M', { frequencies: new Map(Object.entries(table)), sampleSize: null }]]) };
const alleles = [...Object.keys(table), '15', '7.3'];
const genotype = fc.tuple(fc.constantFrom(...alleles), fc.constantFrom(...alleles)).map(([a, b]): Genotype => (a === b ? [a] : [a, b]));

describe('the mixture search table', () => {
  it('gives every candidate genotype the calculator\'s LR, known contributors, θ, drop-in and normalization included', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...alleles), { minLength: 1, maxLength: 5 }),
        fc.array(genotype, { maxLength: 1 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom(0, 0.05),
        fc.constantFrom(0, 0.02),
        fc.boolean(),
        fc.boolean(),
        fc.array(genotype, { minLength: 5, maxLength: 5 }),
        (seen, knowns, extra, dropIn, theta, poiUnderHd, normalize, candidates) => {
          const contributors = 1 + knowns.length + extra;
          const dropout = [0.15, 0.3, 0.05, 0.2].slice(0, contributors);
          const lrOf = mixtureCandidateLr({ population, marker: 'M', replicates: [seen], knownContributors: knowns, dropout, dropoutHd: hypothesisDropouts(contributors, knowns.length, dropout).hd, parameters: { dropIn, theta }, personOfInterestTypedUnderHd: poiUnderHd, frequencyRule: { normalize } });
          for (const candidate of candidates) {
            let expected: number;
            try {
              expected = mixtureLr({ replicates: [new Map([['M', seen]])], personOfInterest: new Map([['M', candidate]]), knownContributors: knowns.map((k) => new Map([['M', k]])), contributors, dropout, dropIn, theta, personOfInterestTypedUnderHd: poiUnderHd, population, frequencyRule: { normalize } }).lr;
            } catch {
              // Hd cannot explain the stain: the table gives 0 (never a hit).
              expect(lrOf(candidate)).toBe(0);
              continue;
            }
            const actual = lrOf(candidate)!;
            expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-12 * Math.max(expected, 1e-300));
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});
