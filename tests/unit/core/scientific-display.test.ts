import { describe, expect, it } from 'vitest';
import { formatScientific } from '../../../core/scientific-display';

describe('numbers as a report prints them', () => {
  it.each([
    [11.76, '11.8'],
    [0.05123, '0.0512'],
    [0.001, '0.001'],
    [5312, '5,310'],
    [9999.7, '1.00 × 10⁴'],
    [1.18e9, '1.18 × 10⁹'],
    [1.36e21, '1.36 × 10²¹'],
    [4.2e-6, '4.20 × 10⁻⁶'],
    [0.00099, '9.90 × 10⁻⁴'],
    [0, '0'],
    [-0.0736, '−0.0736'],
    [Infinity, '∞'],
  ])('%d reads %s, never in exponent form', (value, text) => {
    expect(formatScientific(value)).toBe(text);
    expect(formatScientific(value)).not.toMatch(/e[+-]/);
  });

  it('takes fewer significant digits for a conclusion’s sentence', () => expect(formatScientific(1.234e9, 2)).toBe('1.2 × 10⁹'));
});
