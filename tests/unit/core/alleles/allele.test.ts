import { describe, expect, it } from 'vitest';
import { isComparable, parseAllele } from '../../../../core/alleles';

describe('parseAllele: what a designation is (GENETICS.md "Profiles and alleles")', () => {
  it('reads repeat numbers and microvariants as written', () => {
    expect(parseAllele('12')).toEqual({ text: '12', kind: 'integer' });
    expect(parseAllele(' 9.3 ')).toEqual({ text: '9.3', kind: 'microvariant' });
    expect(parseAllele('22.2')).toEqual({ text: '22.2', kind: 'microvariant' });
  });

  it('normalises what spreadsheets write: 36.200000000000003 → 36.2, 16.099999999999998 → 16.1, 5.0 → 5, 07 → 7', () => {
    expect(parseAllele('36.200000000000003')).toEqual({ text: '36.2', kind: 'microvariant' });
    expect(parseAllele('16.099999999999998')).toEqual({ text: '16.1', kind: 'microvariant' });
    expect(parseAllele('5.0')).toEqual({ text: '5', kind: 'integer' });
    expect(parseAllele('12.000000001')).toEqual({ text: '12', kind: 'integer' });
    expect(parseAllele('07')).toEqual({ text: '7', kind: 'integer' });
  });

  it('refuses two or three digits after the point instead of rounding them: 9.25 is not 9.3', () => {
    const parsed = parseAllele('9.25');
    expect(parsed.kind).toBe('invalid');
    expect(parsed.problem).toBe('9.25 is not a microvariant: write one digit after the point, as in 9.3');
  });

  it('reads X and Y in either case as sex alleles', () => {
    expect(parseAllele('x')).toEqual({ text: 'X', kind: 'sex' });
    expect(parseAllele('Y')).toEqual({ text: 'Y', kind: 'sex' });
  });

  it('keeps the documented lab markings as text: OL in any case and ranges outside the ladder', () => {
    expect(parseAllele('ol')).toEqual({ text: 'OL', kind: 'marking' });
    expect(parseAllele('Ol')).toEqual({ text: 'OL', kind: 'marking' });
    expect(parseAllele('<8')).toEqual({ text: '<8', kind: 'marking' });
    expect(parseAllele('> 21.0')).toEqual({ text: '>21', kind: 'marking' });
  });

  it('refuses any other letters or signs (INC, ND, ?, abc) as no designation, naming the markings Locus keeps', () => {
    for (const bad of ['INC', 'ND', '?', 'abc', 'XY', '*']) {
      expect(parseAllele(bad)).toEqual({
        text: bad,
        kind: 'invalid',
        problem: `"${bad}" is not an allele designation; the lab markings Locus keeps are OL, <n and >n`,
      });
    }
  });

  it('refuses text with digits that is not a number (two values in one cell, a letter O for a zero)', () => {
    for (const bad of ['12,13', '1O', '-1', '9.3*']) {
      expect(parseAllele(bad)).toMatchObject({ kind: 'invalid', problem: `"${bad}" is not an allele designation` });
    }
    expect(parseAllele('  ')).toMatchObject({ kind: 'invalid', problem: 'an allele cannot be empty' });
  });

  it('lets matching compare numbers and X/Y but never markings', () => {
    expect(['12', '9.3', 'X'].map((a) => isComparable(parseAllele(a)))).toEqual([true, true, true]);
    expect(['OL', '<8', '>21', '?'].map((a) => isComparable(parseAllele(a)))).toEqual([false, false, false, false]);
  });
});
