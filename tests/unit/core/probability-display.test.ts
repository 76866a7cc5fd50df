import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hitProbabilityText } from '../../../core/hit-weighing';
import { formatHitProbability, hitProbabilityPercent } from '../../../core/probability-display';

// Source: product spec section 4 "Hit probability display". Exact text comparisons.
describe('formatHitProbability (spec 4)', () => {
  it('with a combined index: CI/(CI+1) as a percentage with two decimals, then the index in exponential form', () => {
    expect(formatHitProbability({ combinedIndex: 99, nonExclusionMarkerCount: 0, markerCount: 0 })).toBe('99.00% (CI 9.90e+1)');
    expect(formatHitProbability({ combinedIndex: 1, nonExclusionMarkerCount: 0, markerCount: 0 })).toBe('50.00% (CI 1.00e+0)');
    expect(formatHitProbability({ combinedIndex: 0.25, nonExclusionMarkerCount: 0, markerCount: 0 })).toBe('20.00% (CI 2.50e-1)');
  });

  it('caps at 99.99%: a CI of 1.23e21 reads "99.99% (CI 1.23e+21)", and 99.995% does not round up to 100.00%', () => {
    expect(formatHitProbability({ combinedIndex: 1.23e21, nonExclusionMarkerCount: 20, markerCount: 20 })).toBe('99.99% (CI 1.23e+21)');
    expect(formatHitProbability({ combinedIndex: 19999, nonExclusionMarkerCount: 0, markerCount: 0 })).toBe('99.99% (CI 2.00e+4)');
  });

  it('a zero index reads 0.00%; one beyond a double reads "> 1.80e+308"', () => {
    expect(formatHitProbability({ combinedIndex: 0, nonExclusionMarkerCount: 0, markerCount: 0 })).toBe('0.00% (CI 0.00e+0)');
    expect(formatHitProbability({ combinedIndex: Infinity, nonExclusionMarkerCount: 0, markerCount: 0 })).toBe('99.99% (CI > 1.80e+308)');
  });

  it('without a combined index: nonExclusionMarkerCount/markerCount', () => {
    expect(formatHitProbability({ nonExclusionMarkerCount: 17, markerCount: 17 })).toBe('17/17');
    expect(formatHitProbability({ combinedIndex: null, nonExclusionMarkerCount: 16, markerCount: 17 })).toBe('16/17');
  });

  it('an excluded parentage result reads "Excluded" (GENETICS.md "Parentage with inconsistencies"), whatever its index', () => {
    expect(formatHitProbability({ combinedIndex: 0, nonExclusionMarkerCount: 0, markerCount: 0, excluded: true })).toBe('Excluded');
    expect(formatHitProbability({ combinedIndex: 0, nonExclusionMarkerCount: 0, markerCount: 0, excluded: false })).toBe('0.00% (CI 0.00e+0)');
  });

  it('a mixture hit\'s number is a likelihood ratio, named LR, never CI (a paternity combined index)', () => {
    expect(formatHitProbability({ combinedIndex: 6.2e8, nonExclusionMarkerCount: 0, markerCount: 16, indexName: 'LR' })).toBe('99.99% (LR 6.20e+8)');
    const hit = { combinedIndex: 6.2e8, markerCount: 16, nonExclusionMarkerCount: null, figures: null };
    expect(hitProbabilityText({ ...hit, matchKind: 'mixture' })).toBe('99.99% (LR 6.20e+8)');
    expect(hitProbabilityText({ ...hit, matchKind: 'identity' })).toBe('99.99% (CI 6.20e+8)');
  });

  it('refuses a negative or NaN index rather than showing a made-up probability', () => {
    expect(() => hitProbabilityPercent(-1)).toThrow(RangeError);
    expect(() => hitProbabilityPercent(Number.NaN)).toThrow(RangeError);
  });

  it('property: the displayed percentage never exceeds 99.99, for any index ≥ 0', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: 0, noNaN: true }), fc.double({ min: 1e3, max: 1e6, noNaN: true })), (ci) => {
        const shown = Number(/^([\d.]+)%/.exec(formatHitProbability({ combinedIndex: ci, nonExclusionMarkerCount: 0, markerCount: 0 }))![1]);
        return shown <= 99.99;
      }),
    );
  });
});
