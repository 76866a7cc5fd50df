/**
 * GENETICS.md "Parentage with inconsistencies" (AABB): μ/A applies at no more markers than the
 * analysis's constant `maxInconsistencies`; above it the result is Excluded (combined index 0) and the
 * inconsistent markers are named. Every figure below is worked by hand (relative tolerance 1e-12).
 *
 * One population at every marker: alleles 10, 11, 12, 13 with p = 0.1, 0.2, 0.3, 0.4.
 * Duo exclusion power A = Σ p²(1−p)² + Σᵢ<ⱼ 2pᵢpⱼ(1−pᵢ−pⱼ)² = 0.1354 + 0.1384 = 0.2738, so μ/A = 0.002/0.2738.
 * Trio exclusion power A = 1 − 2a₂ + a₃ + 2a₄ − 3a₅ − 2a₂² + 3a₂a₃ with a₂ = 0.3, a₃ = 0.1, a₄ = 0.0354,
 * a₅ = 0.013: A = 0.4418, so μ/A = 0.002/0.4418.
 */
import { describe, expect, it } from 'vitest';
import { evaluateComputational, type EngineAnalysis } from '../../../../server/genetics/evaluate-analysis';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import { population, profile } from './statistics/engine-fixtures';

const seed = (name: string): EngineAnalysis => {
  const a = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((x) => x.name === name)!;
  return { ...a, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const MARKERS = ['D3S1358', 'vWA', 'FGA', 'TH01', 'TPOX'];
const FREQUENCIES = { '10': 0.1, '11': 0.2, '12': 0.3, '13': 0.4 };
const pop = population(Object.fromEntries(MARKERS.map((m) => [m, FREQUENCIES])));
const DUO_MU_A = 0.002 / 0.2738;
const TRIO_MU_A = 0.002 / 0.4418;

const close = (actual: number | null, expected: number) => expect(Math.abs(actual! / expected - 1)).toBeLessThan(1e-12);

// A true full-sibling pair: D3S1358 and vWA share no allele (PQ-RS), the other three share one (PQ-PR).
const SIBLING_1 = profile({ D3S1358: ['10', '11'], vWA: ['12', '13'], FGA: ['10', '12'], TH01: ['11', '13'], TPOX: ['10', '13'] });
const SIBLING_2 = profile({ D3S1358: ['12', '13'], vWA: ['10', '11'], FGA: ['10', '13'], TH01: ['11', '12'], TPOX: ['13', '12'] });
// The shared-allele markers as parent–child X1 = 1/(4p): FGA 1/(4·0.1) = 2.5, TH01 1/(4·0.2) = 1.25, TPOX 1/(4·0.4) = 0.625.
const SHARED = 2.5 * 1.25 * 0.625;

describe('Parent–child with inconsistent markers (seed maxInconsistencies = 1)', () => {
  it('the seed table holds maxInconsistencies = 1 for Parent–child and Paternity trio only', () => {
    const holders = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).filter((a) => a.constants.some((c) => c.name === 'maxInconsistencies'));
    expect(holders.map((a) => [a.name, a.constants.find((c) => c.name === 'maxInconsistencies')!.value])).toEqual([
      ['Parent–child', 1],
      ['Paternity trio', 1],
    ]);
  });

  it('a true full-sibling pair (2 markers without a shared allele) is Excluded: combined index 0, both markers named', () => {
    const result = evaluateComputational(seed('Parent–child'), [SIBLING_1, SIBLING_2], pop, MARKERS);
    expect(result.excluded).toBe(true);
    expect(result.inconsistentMarkers).toEqual(['D3S1358', 'vWA']);
    expect(result.combinedIndex).toBe(0);
    expect(result.log10).toBe(-Infinity);
    // The per-marker values stay the formulae's: μ/A at the two inconsistent markers.
    expect(result.markers.find((m) => m.marker === 'vWA')).toMatchObject({ pattern: 'PQ-RS', expression: 'mu/A' });
    close(result.markers.find((m) => m.marker === 'D3S1358')!.value, DUO_MU_A);
  });

  it('one inconsistent marker stays within the allowance: μ/A there, not excluded', () => {
    // vWA now shares 12 (PQ-PR, X1 = 1/(4·0.3)); D3S1358 alone shares nothing.
    const parent = new Map(SIBLING_2).set('vWA', ['12', '10']);
    const result = evaluateComputational(seed('Parent–child'), [SIBLING_1, parent], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: ['D3S1358'] });
    close(result.combinedIndex, DUO_MU_A * (1 / 1.2) * SHARED); // 0.0118890004869734…
    close(result.log10, Math.log10(0.011889000486973458));
  });

  it('with maxInconsistencies = 2 the sibling pair is not excluded: (μ/A)² times the shared markers', () => {
    const lenient = { ...seed('Parent–child'), constants: { ...seed('Parent–child').constants, maxInconsistencies: 2 } };
    const result = evaluateComputational(lenient, [SIBLING_1, SIBLING_2], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: ['D3S1358', 'vWA'] });
    close(result.combinedIndex, DUO_MU_A ** 2 * SHARED); // 1.04213298644…e-4
  });

  it('without the constant the analysis behaves as before: μ/A at every inconsistent marker, nothing counted', () => {
    const { maxInconsistencies: _dropped, ...constants } = seed('Parent–child').constants;
    const result = evaluateComputational({ ...seed('Parent–child'), constants }, [SIBLING_1, SIBLING_2], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: [] });
    close(result.combinedIndex, 1.0421329864403322e-4);
  });

  it('only evaluated markers count: a marker missing in one profile is not an inconsistency', () => {
    const parent = new Map(SIBLING_2);
    parent.delete('vWA');
    const result = evaluateComputational(seed('Parent–child'), [SIBLING_1, parent], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: ['D3S1358'] });
    close(result.combinedIndex, DUO_MU_A * SHARED);
  });

  it('other analyses count nothing (Full siblings has no maxInconsistencies)', () => {
    const result = evaluateComputational(seed('Full siblings'), [SIBLING_1, SIBLING_2], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: [] });
    // κ0 = ¼ where nothing is shared, ¼ + ½·X1 where one allele is: ¼² · (¼+1.25)(¼+0.625)(¼+0.3125).
    close(result.combinedIndex, 0.0625 * 1.5 * 0.875 * 0.5625);
  });
});

describe('Paternity trio with inconsistent markers', () => {
  // Mother 10/11, child 10/12: the paternal allele is 12. An alleged father with 12 gives PI = 0.5/0.3.
  const MOTHER = profile({ D3S1358: ['10', '11'], vWA: ['10', '11'], FGA: ['10', '11'], TH01: ['10', '11'] });
  const CHILD = profile({ D3S1358: ['10', '12'], vWA: ['10', '12'], FGA: ['10', '12'], TH01: ['10', '12'] });
  const consistent = ['12', '13'];
  const excluded = ['11', '13'];
  const father = (d3: string[], vwa: string[]) => profile({ D3S1358: d3, vWA: vwa, FGA: consistent, TH01: consistent });

  it('an alleged father without the paternal allele at 2 markers is Excluded, both named', () => {
    const result = evaluateComputational(seed('Paternity trio'), [MOTHER, CHILD, father(excluded, excluded)], pop, MARKERS);
    expect(result).toMatchObject({ excluded: true, inconsistentMarkers: ['D3S1358', 'vWA'], combinedIndex: 0 });
    expect(result.markers.find((m) => m.marker === 'vWA')).toMatchObject({ expression: 'mu/A' });
  });

  it('one exclusion: μ/A (trio A = 0.4418) times the consistent markers’ 0.5/0.3 each', () => {
    const result = evaluateComputational(seed('Paternity trio'), [MOTHER, CHILD, father(consistent, excluded)], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: ['vWA'] });
    close(result.combinedIndex, TRIO_MU_A * (0.5 / 0.3) ** 3); // 0.0209580336334…
  });

  it('with maxInconsistencies = 2 the two exclusions give (μ/A)² · (0.5/0.3)²', () => {
    const lenient = { ...seed('Paternity trio'), constants: { ...seed('Paternity trio').constants, maxInconsistencies: 2 } };
    const result = evaluateComputational(lenient, [MOTHER, CHILD, father(excluded, excluded)], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: ['D3S1358', 'vWA'] });
    close(result.combinedIndex, TRIO_MU_A ** 2 * (0.5 / 0.3) ** 2);
  });

  it('a mother inconsistent with the child is read as a duo (no μ): not counted against the alleged father', () => {
    // Mother 11/13 shares nothing with child 10/12; the father 12/13 is read as child–father X1 = 1/(4·0.3).
    const mother = new Map(MOTHER).set('D3S1358', ['11', '13']).set('vWA', ['11', '13']);
    const result = evaluateComputational(seed('Paternity trio'), [mother, CHILD, father(consistent, consistent)], pop, MARKERS);
    expect(result).toMatchObject({ excluded: false, inconsistentMarkers: [] });
    close(result.combinedIndex, (1 / 1.2) ** 2 * (0.5 / 0.3) ** 2);
  });
});
