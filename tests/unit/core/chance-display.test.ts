import { describe, expect, it } from 'vitest';
import { formatBracket, formatExpectedChanceHits, formatPValue, formatSmall } from '../../../core/chance-display';

describe('how chance figures read (GENETICS.md "Expected chance hits")', () => {
  it('says the expected chance hits of a search in the words of the issue', () => {
    expect(formatExpectedChanceHits(0.0003, 1_000_000)).toBe('in 1,000,000 profiles, 0.0003 chance hits expected at this threshold');
    expect(formatExpectedChanceHits(2.5e-9, 1)).toBe('in 1 profile, 2.5e-9 chance hits expected at this threshold');
  });

  it('never prints a positive probability as 0, and keeps small values exponential', () => {
    expect(formatSmall(0)).toBe('0');
    expect(formatSmall(0.00012)).toBe('0.00012');
    expect(formatSmall(1.234e-20)).toBe('1.2e-20');
    expect(formatPValue(9.1e-36)).toBe('p ≤ 9.1e-36');
  });

  it('brackets a p-value, and says "at most" when rounding down lost the observed value', () => {
    expect(formatBracket({ lower: 1.1e-20, upper: 1.2e-20 })).toBe('between 1.1e-20 and 1.2e-20');
    expect(formatBracket({ lower: 0, upper: 9.1e-36 })).toBe('at most 9.1e-36');
  });
});
