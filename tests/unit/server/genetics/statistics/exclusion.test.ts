import { describe, expect, it } from 'vitest';
import { isExclusionHit, parentChildExclusion, yLineageExclusion } from '../../../../../server/genetics/statistics';
import { profile } from './engine-fixtures';

// Source: GENETICS.md "Exclusion analyses" (AABB parent–child; SWGDAM 2014 Y-STR lineage). Exact counts.
describe('parent–child exclusion (AABB)', () => {
  it('a marker with no shared allele is an Exclusion; the hit reads non-exclusions / markers compared', () => {
    const parent = profile({ D3S1358: ['15', '16'], vWA: ['17'], TH01: ['6', '9.3'], FGA: ['OL', '21'], CSF1PO: ['10'] });
    const child = profile({ D3S1358: ['16', '18'], vWA: ['14', '15'], TH01: ['9.3'], FGA: ['21'] });
    const result = parentChildExclusion(parent, child);
    expect(result.decisions).toEqual([
      { marker: 'D3S1358', decision: 'Non Exclusion' },
      { marker: 'vWA', decision: 'Exclusion' },
      { marker: 'TH01', decision: 'Non Exclusion' },
    ]);
    expect(result.skipped).toEqual([
      { marker: 'FGA', reason: 'lab marking' },
      { marker: 'CSF1PO', reason: 'missing' },
    ]);
    expect([result.nonExclusionMarkerCount, result.markerCount]).toEqual([2, 3]);
  });
});

describe('Y-STR lineage exclusion (SWGDAM 2014)', () => {
  const a = profile({ DYS19: ['14'], DYS390: ['24'], DYS385: ['11', '14'], DYF387S1: ['35', '36'], DYS439: ['12'] });

  it('multi-copy markers compare as unordered sets: 14,11 equals 11,14', () => {
    const b = profile({ DYS19: ['14'], DYS390: ['24'], DYS385: ['14', '11'], DYF387S1: ['36', '35'], DYS439: ['12'] });
    const result = yLineageExclusion(a, b);
    expect(result.decisions.every((d) => d.decision === 'Non Exclusion')).toBe(true);
    expect([result.nonExclusionMarkerCount, result.markerCount]).toEqual([5, 5]);
  });

  it('a differing allele, or a differing multi-copy set, is an Exclusion', () => {
    const b = profile({ DYS19: ['15'], DYS390: ['24'], DYS385: ['11', '13'], DYF387S1: ['35', '36'], DYS439: ['12'] });
    const result = yLineageExclusion(a, b);
    expect(result.decisions.filter((d) => d.decision === 'Exclusion').map((d) => d.marker)).toEqual(['DYS19', 'DYS385']);
    expect([result.nonExclusionMarkerCount, result.markerCount]).toEqual([3, 5]);
  });

  it('the threshold decides the hit: ≤ 1 exclusion over ≥ 17 markers (GENETICS.md example)', () => {
    const markers = Array.from({ length: 17 }, (_, i) => `DYS${500 + i}`);
    const base = profile(Object.fromEntries(markers.map((m) => [m, ['12']])));
    const oneOff = new Map(base).set('DYS500', ['13']);
    const twoOff = new Map(oneOff).set('DYS501', ['13']);
    const threshold = { maxExclusions: 1, minMarkers: 17 };
    expect(isExclusionHit(yLineageExclusion(base, oneOff), threshold)).toBe(true);
    expect(isExclusionHit(yLineageExclusion(base, twoOff), threshold)).toBe(false);
    const sixteen = new Map(base);
    sixteen.delete('DYS516');
    expect(isExclusionHit(yLineageExclusion(base, sixteen), threshold)).toBe(false);
  });
});
