import { describe, expect, it } from 'vitest';
import { SAMPLE_TYPES_WITHOUT_CMF_CATEGORY, cmfExportObstacles } from '../../../core/cmf-limits';
import { SAMPLE_TYPES } from '../../../core/schemas/profiles';
import { CMF_SPECIMEN_CATEGORY } from '../../../server/exports/profiles/cmf-values';

const alleles = (n: number) => Array.from({ length: n }, (_, i) => `${10 + i}`);

describe('what keeps a profile from CODIS CMF 3.2, said on the profile (issue 30)', () => {
  it('names a Reference, a sample name over 24 characters, more than 64 markers and more than 8 alleles at a locus', () => {
    const markers = Array.from({ length: 65 }, (_, i) => ({ marker: `M${i}`, alleles: ['12'] }));
    markers[0] = { marker: 'D3S1358', alleles: alleles(9) };
    expect(cmfExportObstacles({ profileId: 'REFERENCE-OF-THE-VICTIM-0001', sampleType: 'Reference', markerValues: markers })).toEqual([
      'the sample type Reference has no CODIS specimen category',
      'the sample name has 28 characters, at most 24',
      '65 markers, at most 64',
      '9 alleles at D3S1358, at most 8',
    ]);
    expect(cmfExportObstacles({ profileId: 'S-1', sampleType: 'Suspect, Known', markerValues: [{ marker: 'D3S1358', alleles: alleles(8) }] })).toEqual([]);
  });

  it('knows the same sample types without a CODIS category as the CMF writer', () => {
    expect(SAMPLE_TYPES.filter((t) => CMF_SPECIMEN_CATEGORY[t] === null)).toEqual([...SAMPLE_TYPES_WITHOUT_CMF_CATEGORY]);
  });
});
