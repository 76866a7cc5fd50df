import { describe, expect, it } from 'vitest';
import { ImportedProfile } from '../../../../../core/schemas/profiles';
import { messages, parseShared, parseUpload, profileNamed } from './profile-files.fixture';

// Issue 31 "Heights are data": imports keep each allele's peak height (RFU) and size (bp), per run (replicate).

/** A profile's peaks of one replicate by marker name: allele → [height, size]. */
function peaksOf(profile: ImportedProfile, replicate = 0): Record<string, Record<string, [number | null, number | null]>> {
  const r = profile.replicates?.[replicate];
  return Object.fromEntries((r?.markers ?? []).map((m) => [m.marker, Object.fromEntries(m.peaks.map((p) => [p.allele, [p.height, p.size]]))]));
}

describe('importing peak heights', () => {
  it('keeps the heights of a GeneMapper samples table (GeneMapperExampleWithHeights.txt), paired by position', async () => {
    const result = await parseShared('genemapper/GeneMapperExampleWithHeights.txt');
    expect(result.errors).toEqual([]);
    const first = profileNamed(result, '0000000_00000000000_AAAA0000NL#02');
    expect(first.replicates).toHaveLength(1);
    expect(first.replicates![0]!.name).toBe('001_00000000.fsa');
    // Row 2: D10S1248 "10, 11" heights "73, 288"; D8S1179 "10, 11, 12" heights "204, 67, 115"; AMEL X 451.
    expect(peaksOf(first)).toMatchObject({ D10S1248: { '10': [73, null], '11': [288, null] }, D8S1179: { '10': [204, null], '11': [67, null], '12': [115, null] }, Amelogenin: { X: [451, null] } });
    const third = profileNamed(result, '0000002_00000000000_AAAA0000NL#02');
    expect(peaksOf(third).Amelogenin).toEqual({ X: [680, null], Y: [50, null] });
    expect(ImportedProfile.array().parse(result.profiles.map(({ line: _, ...p }) => p))).toHaveLength(4);
  });

  it('keeps the heights of a EuroForMix table (ESX17_evids_LTDNA.csv): Height k pairs with Allele k', async () => {
    const result = await parseShared('genemapper/ESX17_evids_LTDNA.csv');
    expect(result.errors).toEqual([]);
    const stain80 = profileNamed(result, 'stain80');
    // stain80;D3S1358;15;16;17;;;190;432;132 and TH01 7, 9, 9.3 at 102, 245, 248.
    expect(peaksOf(stain80).D3S1358).toEqual({ '15': [190, null], '16': [432, null], '17': [132, null] });
    expect(peaksOf(stain80).TH01).toEqual({ '7': [102, null], '9': [245, null], '9.3': [248, null] });
    expect(stain80.replicates![0]!.name).toBe('stain80');
    // Every typed marker of every stain carries a height per allele.
    for (const p of result.profiles) {
      const peaks = p.replicates![0]!.markers.flatMap((m) => m.peaks);
      expect(peaks.length).toBe(p.markerValues.reduce((n, m) => n + m.alleles.length, 0));
      expect(peaks.every((peak) => peak.height !== null && peak.height > 0)).toBe(true);
    }
  });

  it('keeps sizes, groups the runs of one sample name as replicates, and keeps the union as the marker values', async () => {
    const file = [
      'Sample File\tSample Name\tMarker\tAllele 1\tAllele 2\tSize 1\tSize 2\tHeight 1\tHeight 2',
      'run1.fsa\tS1\tD3S1358\t15\t16\t118.5\t122.6\t800\t750',
      'run2.fsa\tS1\tD3S1358\t15\t17\t118.4\t126.7\t420\t60',
    ].join('\n');
    const result = await parseUpload('replicates.txt', file);
    expect(result.errors).toEqual([]);
    expect(result.profiles).toHaveLength(1);
    const s1 = result.profiles[0]!;
    expect(s1.markerValues[0]!.alleles).toEqual(['15', '16', '17']);
    expect(s1.replicates!.map((r) => r.name)).toEqual(['run1.fsa', 'run2.fsa']);
    expect(peaksOf(s1, 0).D3S1358).toEqual({ '15': [800, 118.5], '16': [750, 122.6] });
    expect(peaksOf(s1, 1).D3S1358).toEqual({ '15': [420, 118.4], '17': [60, 126.7] });
  });

  it('says per row what is wrong with a height, and keeps the profile from being added rather than dropping it', async () => {
    const file = [
      'SampleName,Marker,Allele1,Allele2,Height1,Height2,Height3',
      'S1,D3S1358,15,16,800,-5,',
      'S1,vWA,14,,300,abc,',
      'S1,TH01,6,9.3,500,400,90',
      'S2,D3S1358,15,,700,,',
    ].join('\n');
    const result = await parseUpload('bad-heights.csv', file);
    const s1 = profileNamed(result, 'S1');
    expect(s1.errors).toEqual([
      'Row 2: D3S1358 of S1: the height "-5" of allele 16 is not a positive number',
      'Row 3: vWA of S1: 2 heights for 1 allele (abc beside no allele)',
      'Row 4: TH01 of S1: 3 heights for 2 alleles (90 beside no allele)',
    ]);
    expect(messages(result.errors)).toEqual(s1.errors);
    expect(result.errors.map((e) => e.row)).toEqual([2, 3, 4]);
    // The other sample is untouched.
    expect(profileNamed(result, 'S2').errors).toEqual([]);
  });
});
