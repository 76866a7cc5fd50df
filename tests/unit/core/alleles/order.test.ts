import { describe, expect, it } from 'vitest';
import { compareAlleles, normaliseMarkerAlleles } from '../../../../core/alleles';

describe('the canonical list of a marker’s alleles', () => {
  it('sorts numerically, not as text: 9 < 9.1 < 9.3 < 10 < 22.2', () => {
    expect(normaliseMarkerAlleles(['22.2', '10', '9.3', '9', '9.1'])).toEqual(['9', '9.1', '9.3', '10', '22.2']);
  });

  it('puts X before Y and markings last, ranges in ladder order', () => {
    expect(normaliseMarkerAlleles(['Y', 'X'])).toEqual(['X', 'Y']);
    expect(normaliseMarkerAlleles(['OL', '>21', '12', '<8'])).toEqual(['12', '<8', '>21', 'OL']);
  });

  it('writes a homozygote once, however it was entered: 12, 12 and 12.0, 12 are both 12', () => {
    expect(normaliseMarkerAlleles(['12', '12'])).toEqual(['12']);
    expect(normaliseMarkerAlleles(['12.0', ' 12 ', ''])).toEqual(['12']);
  });

  it('orders unsorted file rows such as 9.3,9 the forensic way', () => {
    expect(['9.3', '9'].sort(compareAlleles)).toEqual(['9', '9.3']);
    expect(compareAlleles('9', '9')).toBe(0);
  });
});
