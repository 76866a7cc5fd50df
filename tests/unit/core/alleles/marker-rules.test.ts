import { describe, expect, it } from 'vitest';
import { isAmelogenin, MAX_MIXTURE, validateMarkerAlleles } from '../../../../core/alleles';
import { MarkerValueInput, MAX_ALLELES_PER_MARKER } from '../../../../core/schemas/profiles';

const autosomal = (name: string) => ({ name, kind: 'Autosomal' as const, multiCopy: false });
const yStr = (name: string, multiCopy = false) => ({ name, kind: 'YStr' as const, multiCopy });

describe('validateMarkerAlleles: one message per problem, naming the marker', () => {
  it('accepts a heterozygote, a homozygote written once or twice, and a microvariant', () => {
    expect(validateMarkerAlleles(['15', '16'], autosomal('D3S1358'))).toEqual([]);
    expect(validateMarkerAlleles(['16'], autosomal('vWA'))).toEqual([]);
    expect(validateMarkerAlleles(['12', '12'], autosomal('TH01'))).toEqual([]);
    expect(validateMarkerAlleles(['9.3', '9'], autosomal('TH01'))).toEqual([]);
  });

  it('allows 1 or 2 alleles for a single source, any number up to 40 in a mixture (3- and 4-person mixtures show 5–13)', () => {
    expect(validateMarkerAlleles(['15', '16', '17'], autosomal('D3S1358'))).toEqual([
      'D3S1358 has 3 alleles (15, 16, 17); a single-source profile has 1 or 2 per marker',
    ]);
    expect(validateMarkerAlleles(['15', '16', '17', '18'], autosomal('D3S1358'), { mixture: true })).toEqual([]);
    expect(validateMarkerAlleles(['14', '15', '16', '17', '18'], autosomal('D3S1358'), { mixture: true })).toEqual([]);
    const thirteen = ['10', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22'];
    expect(validateMarkerAlleles(thirteen, autosomal('D18S51'), { mixture: true })).toEqual([]);
    const forty = Array.from({ length: 40 }, (_, i) => `${i + 5}`);
    expect(validateMarkerAlleles(forty, autosomal('SE33'), { mixture: true })).toEqual([]);
  });

  it('refuses a mixture marker above 40 alleles, naming the marker and the count', () => {
    expect(MAX_MIXTURE).toBe(40);
    const fortyOne = Array.from({ length: 41 }, (_, i) => `${i + 5}`);
    expect(validateMarkerAlleles(fortyOne, autosomal('SE33'), { mixture: true })).toEqual(['SE33 has 41 alleles; even a mixture carries at most 40 per marker']);
  });

  it('lets the API take 40 alleles per marker and refuse 41 with a clear message', () => {
    expect(MAX_ALLELES_PER_MARKER).toBe(MAX_MIXTURE);
    const markerId = '00000000-0000-4000-8000-000000000001';
    const alleles = (n: number) => Array.from({ length: n }, (_, i) => `${i + 5}`);
    expect(MarkerValueInput.safeParse({ markerId, alleles: alleles(40) }).success).toBe(true);
    const refused = MarkerValueInput.safeParse({ markerId, alleles: alleles(41) });
    expect(refused.error?.issues.map((i) => [i.path, i.message])).toEqual([[['alleles'], 'At most 40 alleles per marker, even in a mixture']]);
  });

  it('counts a value written twice once: 15, 16, 16 is a heterozygote', () => {
    expect(validateMarkerAlleles(['15', '16', '16'], autosomal('D3S1358'))).toEqual([]);
  });

  it('gives a Y-STR marker exactly one allele, a multi-copy one up to four as a set', () => {
    expect(validateMarkerAlleles(['13'], yStr('DYS19'))).toEqual([]);
    expect(validateMarkerAlleles(['13', '14'], yStr('DYS19'), { mixture: true })).toEqual([
      'DYS19 is a Y-STR marker and takes exactly one allele; found 2 alleles (13, 14)',
    ]);
    expect(validateMarkerAlleles(['14', '11'], yStr('DYS385', true))).toEqual([]);
    expect(validateMarkerAlleles(['37', '38', '39', '40'], yStr('DYF387S1', true))).toEqual([]);
    expect(validateMarkerAlleles(['36', '37', '38', '39', '40'], yStr('DYF387S1', true))).toEqual([
      'DYF387S1 is a multi-copy Y-STR marker with 5 alleles (36, 37, 38, 39, 40); at most 4 values',
    ]);
  });

  it('takes X and Y only at Amelogenin, under any of its names, and only X or Y there', () => {
    expect(validateMarkerAlleles(['Y', 'X'], autosomal('Amelogenin'))).toEqual([]);
    expect(validateMarkerAlleles(['X'], autosomal('AMEL'))).toEqual([]);
    expect(validateMarkerAlleles(['X', 'Y'], autosomal('AM'))).toEqual([]);
    expect(validateMarkerAlleles(['X'], autosomal('vWA'))).toEqual(['vWA: X is only valid at Amelogenin']);
    expect(validateMarkerAlleles(['1', '2'], autosomal('Amelogenin'))).toEqual(['Amelogenin takes only X or Y, not 1', 'Amelogenin takes only X or Y, not 2']);
    expect(isAmelogenin(' amel ')).toBe(true);
    expect(isAmelogenin('D3S1358')).toBe(false);
  });

  it('refuses numbers outside 0 < n < 100', () => {
    expect(validateMarkerAlleles(['0', '12'], autosomal('FGA'))).toEqual(['FGA: 0 is out of range (a repeat number is above 0 and below 100)']);
    expect(validateMarkerAlleles(['100'], autosomal('FGA'))).toEqual(['FGA: 100 is out of range (a repeat number is above 0 and below 100)']);
    expect(validateMarkerAlleles(['99.3'], autosomal('FGA'))).toEqual([]);
  });

  it('keeps markings as valid designations that count as alleles', () => {
    expect(validateMarkerAlleles(['OL', '17'], autosomal('vWA'))).toEqual([]);
    expect(validateMarkerAlleles(['<8', '>21', '12'], autosomal('D18S51'))).toEqual([
      'D18S51 has 3 alleles (12, <8, >21); a single-source profile has 1 or 2 per marker',
    ]);
  });

  it('names the marker when a designation cannot be read or nothing is given', () => {
    expect(validateMarkerAlleles(['12,13'], autosomal('D8S1179'))).toEqual(['D8S1179: "12,13" is not an allele designation']);
    expect(validateMarkerAlleles(['INC', '12'], autosomal('D8S1179'), { mixture: true })).toEqual([
      'D8S1179: "INC" is not an allele designation; the lab markings Locus keeps are OL, <n and >n',
    ]);
    expect(validateMarkerAlleles(['9.25'], autosomal('TH01'))).toEqual(['TH01: 9.25 is not a microvariant: write one digit after the point, as in 9.3']);
    expect(validateMarkerAlleles(['', ' '], autosomal('TH01'))).toEqual(['TH01 has no allele']);
  });
});
