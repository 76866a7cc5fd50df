/**
 * The analysis evaluator runs the seed formula tables over real profiles and populations; its numbers
 * must equal the engine's independent statistics (NRC II 4.10, AABB) on the FBI 2015 frequencies.
 */
import { describe, expect, it } from 'vitest';
import { evaluateComputational, evaluateExclusion, type EngineAnalysis } from '../../../../server/genetics/evaluate-analysis';
import { SEED_ANALYSIS_GROUPS } from '../../../../server/genetics/seed-analyses';
import { identityLikelihoodRatio, trioPaternityIndex } from '../../../../server/genetics/statistics';
import { fbi2015, profile } from './statistics/engine-fixtures';

const seed = (name: string): EngineAnalysis => {
  const a = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).find((x) => x.name === name)!;
  return { ...a, constants: Object.fromEntries(a.constants.map((c) => [c.name, c.value])) };
};
const caucasian = fbi2015('Caucasian');
const CORE = ['CSF1PO', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D13S317', 'D16S539', 'D18S51', 'D21S11', 'FGA', 'TH01', 'TPOX', 'vWA', 'D1S1656', 'D2S441', 'D2S1338', 'D10S1248', 'D12S391', 'D19S433', 'D22S1045'];
// A single-source profile on the 20 CODIS core loci (alleles all observed in the FBI 2015 Caucasian data).
const EVIDENCE = profile({
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'], D1S1656: ['12', '15'], D2S441: ['10', '14'],
  D2S1338: ['17', '23'], D10S1248: ['13', '15'], D12S391: ['18', '20'], D19S433: ['13', '14'], D22S1045: ['15', '16'],
  Amelogenin: ['X', 'Y'],
});

describe('evaluating an analysis', () => {
  it('Identity over 20 loci equals the NRC II 4.10 combined LR of the engine (relative 1e-9)', () => {
    const result = evaluateComputational(seed('Identity'), [EVIDENCE, EVIDENCE], caucasian, CORE);
    const engine = identityLikelihoodRatio(EVIDENCE, EVIDENCE, caucasian, 0.01);
    expect(result.markers.filter((m) => m.value !== null)).toHaveLength(20);
    expect(Math.abs(result.log10! - engine.log10)).toBeLessThan(1e-9);
    expect(result.combinedIndex).toBeGreaterThan(1e15);
  });

  it('says why each marker it could not evaluate was left out', () => {
    const reference = new Map(EVIDENCE);
    reference.delete('TPOX');
    reference.set('FGA', ['OL', '24']);
    const result = evaluateComputational(seed('Identity'), [EVIDENCE, reference], caucasian, CORE);
    const why = (marker: string) => result.markers.find((m) => m.marker === marker)!.notEvaluated;
    expect(why('TPOX')).toBe('not typed in Reference');
    expect(why('FGA')).toBe('lab marking OL is not comparable');
    expect(why('Amelogenin')).toBe('no allele frequencies for Amelogenin in Caucasian');
    const partial = { ...seed('Identity'), formulae: seed('Identity').formulae.filter((f) => f.pattern !== 'PQ-PQ') };
    const missing = evaluateComputational(partial, [EVIDENCE, EVIDENCE], caucasian, CORE);
    expect(missing.markers.find((m) => m.marker === 'CSF1PO')).toMatchObject({ pattern: 'PQ-PQ', notEvaluated: 'no formula for PQ-PQ', value: null });
  });

  it('a trio with one excluded locus equals the engine’s paternity index with μ/A (AABB)', () => {
    const mother = profile({ D3S1358: ['15', '17'], vWA: ['16', '18'], TH01: ['6', '7'] });
    const child = profile({ D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'] });
    const father = profile({ D3S1358: ['16', '18'], vWA: ['17'], TH01: ['8', '10'] });
    const result = evaluateComputational(seed('Paternity trio'), [mother, child, father], caucasian, CORE);
    const engine = trioPaternityIndex(mother, child, father, caucasian, { mutationRate: 0.002 });
    expect(engine.exclusions).toEqual(['TH01']);
    expect(Math.abs(result.log10! - engine.log10)).toBeLessThan(1e-9);
  });

  it('counts exclusions and non-exclusions for an exclusion analysis', () => {
    const child = profile({ D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], TPOX: ['8'] });
    const parent = profile({ D3S1358: ['16', '18'], vWA: ['17'], TH01: ['8', '10'] });
    const result = evaluateExclusion(seed('Parent–child exclusion'), [child, parent], CORE);
    expect(result).toMatchObject({ markerCount: 3, nonExclusionMarkerCount: 2 });
    expect(result.markers.find((m) => m.marker === 'TH01')).toMatchObject({ pattern: 'PQ-RS', isExclusion: true });
    expect(result.markers.find((m) => m.marker === 'TPOX')!.notEvaluated).toBe('not typed in Alleged parent');
  });

  it('compares a multi-copy Y-STR marker as a set of copies (SWGDAM 2014): order does not matter, a differing copy excludes', () => {
    const unknown = profile({ DYS385: ['11', '14'], DYS19: ['14'], DYS390: ['24'] });
    const sameLine = profile({ DYS385: ['14', '11'], DYS19: ['14'], DYS390: ['24'] });
    const otherLine = profile({ DYS385: ['11', '15'], DYS19: ['14'], DYS390: ['24'] });
    const order = ['DYS19', 'DYS385', 'DYS390'];
    const same = evaluateExclusion(seed('Y-STR lineage'), [unknown, sameLine], order);
    expect(same).toMatchObject({ markerCount: 3, nonExclusionMarkerCount: 3 });
    expect(same.markers.find((m) => m.marker === 'DYS385')).toMatchObject({ pattern: 'P-P', isExclusion: false, notEvaluated: null });
    const other = evaluateExclusion(seed('Y-STR lineage'), [unknown, otherLine], order);
    expect(other).toMatchObject({ markerCount: 3, nonExclusionMarkerCount: 2 });
    expect(other.markers.find((m) => m.marker === 'DYS385')).toMatchObject({ pattern: 'P-Q', isExclusion: true });
    const haplotype = { name: 'Y', markers: new Map(order.map((m) => [m, { frequencies: new Map([['*', 1]]), sampleSize: null }])) } as unknown as Parameters<typeof evaluateComputational>[2];
    const counted = evaluateComputational(seed('Y-STR haplotype frequency'), [unknown, sameLine], haplotype, order);
    expect(counted.markers.map((m) => [m.marker, m.value])).toEqual([['DYS19', 1], ['DYS385', 1], ['DYS390', 1]]);
    expect(evaluateComputational(seed('Y-STR haplotype frequency'), [unknown, otherLine], haplotype, order).combinedIndex).toBe(0);
  });

  it('leaves an autosomal mixture out with the reason', () => {
    const mixture = profile({ vWA: ['15', '16', '17'] });
    const result = evaluateComputational(seed('Identity'), [mixture, profile({ vWA: ['16', '17'] })], caucasian, CORE);
    expect(result.markers[0]!.notEvaluated).toBe('3 alleles (a mixture) are not evaluated');
  });
});
