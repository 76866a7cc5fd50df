import { describe, expect, it } from 'vitest';
import { formatOneIn, uploadEligibility, type EligibilityIndex, type EligibilityProfile } from '../../../../core/network/upload-eligibility';

const CORE = ['CSF1PO', 'D1S1656', 'D2S441', 'D2S1338', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D10S1248', 'D12S391', 'D13S317', 'D16S539', 'D18S51', 'D19S433', 'D21S11', 'D22S1045', 'FGA', 'TH01', 'TPOX', 'vWA'];

const INDEXES: EligibilityIndex[] = [
  { name: 'Convicted Offender', sampleTypes: ['Convicted Offender'], minCoreLoci: 20, maxAllelesPerLocus: 2, rarityOneIn: null },
  { name: 'Forensic Unknown', sampleTypes: ['Forensic, Unknown'], minCoreLoci: 8, maxAllelesPerLocus: 2, rarityOneIn: 1e7 },
  { name: 'Forensic Mixture', sampleTypes: ['Forensic Mixture'], minCoreLoci: 8, maxAllelesPerLocus: 4, rarityOneIn: 1e7 },
];

const markers = (loci: readonly string[], alleles: string[] = ['12', '14']) => loci.map((marker) => ({ marker, alleles }));
const profile = (over: Partial<EligibilityProfile> = {}): EligibilityProfile => ({
  sampleType: 'Convicted Offender',
  status: 'approved',
  markers: markers(CORE),
  matchProbability: 1e-20,
  ...over,
});
const verdict = (over: Partial<EligibilityProfile> = {}) => uploadEligibility(profile(over), INDEXES, CORE);

describe('upload eligibility', () => {
  it('accepts an approved offender typed at all 20 core loci, naming its index', () => {
    expect(verdict()).toEqual({ eligible: true, index: 'Convicted Offender', reasons: [] });
  });

  it('names the missing core loci of an offender, with the count and what the index needs', () => {
    const v = verdict({ markers: markers(CORE.filter((l) => l !== 'D8S1179' && l !== 'TH01')) });
    expect(v.eligible).toBe(false);
    expect(v.reasons).toEqual(['Missing core loci: D8S1179, TH01 (18 of 20 typed; Convicted Offender needs all 20)']);
  });

  it('counts a locus with no allele as untyped, and matches marker names whatever their case', () => {
    const typed = markers(CORE.map((l) => (l === 'vWA' ? 'VWA' : l))).map((m) => (m.marker === 'FGA' ? { marker: 'FGA', alleles: [] } : m));
    expect(verdict({ markers: typed }).reasons).toEqual(['Missing core loci: FGA (19 of 20 typed; Convicted Offender needs all 20)']);
  });

  it('accepts a forensic unknown with 8 core loci and a rare enough profile; refuses one with 7', () => {
    expect(verdict({ sampleType: 'Forensic, Unknown', markers: markers(CORE.slice(0, 8)), matchProbability: 1e-9 }).eligible).toBe(true);
    const seven = verdict({ sampleType: 'Forensic, Unknown', markers: markers(CORE.slice(0, 7)), matchProbability: 1e-9 });
    expect(seven.reasons).toEqual([`Missing core loci: ${CORE.slice(7).join(', ')} (7 of 20 typed; Forensic Unknown needs at least 8)`]);
  });

  it('refuses a locus with more alleles than the index allows, naming the locus and count', () => {
    const mixture = markers(CORE).map((m) => (m.marker === 'D3S1358' ? { marker: 'D3S1358', alleles: ['14', '15', '16', '17', '18'] } : m));
    expect(verdict({ sampleType: 'Forensic Mixture', markers: mixture }).reasons).toEqual(['Too many alleles at D3S1358: 5 (at most 4)']);
    const fourAlleles = markers(CORE, ['14', '15', '16', '17']);
    expect(verdict({ sampleType: 'Forensic Mixture', markers: fourAlleles }).eligible).toBe(true);
    const triallelic = markers(CORE).map((m) => (m.marker === 'TPOX' ? { marker: 'TPOX', alleles: ['8', '9', '11'] } : m));
    expect(verdict({ markers: triallelic }).reasons).toEqual(['Too many alleles at TPOX: 3 (at most 2)']);
  });

  it('refuses a forensic profile whose match probability is not under the rarity threshold', () => {
    expect(verdict({ sampleType: 'Forensic, Unknown', matchProbability: 1 / 312_500 }).reasons).toEqual([
      "Match probability 1 in 3.1 × 10⁵ is above the level's rarity threshold 1 in 10⁷",
    ]);
    // Exactly 1 in 10⁷ is not under it.
    expect(verdict({ sampleType: 'Forensic, Unknown', matchProbability: 1e-7 }).eligible).toBe(false);
    expect(verdict({ sampleType: 'Forensic, Unknown', matchProbability: 9.9e-8 }).eligible).toBe(true);
  });

  it('says so when no population gives a match probability and the index has a rarity threshold', () => {
    expect(verdict({ sampleType: 'Forensic, Unknown', matchProbability: null }).reasons).toEqual([
      "Match probability unknown (no population of the organization gives frequencies for its markers); Forensic Unknown needs it under the level's rarity threshold 1 in 10⁷",
    ]);
    // An offender index has no threshold: no figure is needed.
    expect(verdict({ matchProbability: null }).eligible).toBe(true);
  });

  it('refuses a sample type no index takes, with that one reason', () => {
    expect(verdict({ sampleType: 'Elimination, Known', markers: [] })).toEqual({
      eligible: false,
      index: null,
      reasons: ['Sample type Elimination, Known is not uploaded to this level'],
    });
  });

  it('refuses a profile that is not approved, and lists every reason at once', () => {
    const v = verdict({ status: 'pending', markers: markers(CORE.slice(1), ['1', '2', '3']) });
    expect(v.reasons).toEqual([
      'The profile is pending: only approved profiles are uploaded',
      'Missing core loci: CSF1PO (19 of 20 typed; Convicted Offender needs all 20)',
      ...CORE.slice(1).map((l) => `Too many alleles at ${l}: 3 (at most 2)`),
    ]);
  });

  it('writes "1 in N" as a power of ten, in scientific form, or plain', () => {
    expect(formatOneIn(1e7)).toBe('10⁷');
    expect(formatOneIn(312_500)).toBe('3.1 × 10⁵');
    expect(formatOneIn(5000)).toBe('5,000');
  });
});
