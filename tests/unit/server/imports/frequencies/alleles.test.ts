import { describe, expect, it } from 'vitest';
import { compareAlleles, isAlleleDesignation, normaliseAllele } from '../../../../../server/imports/frequencies/alleles';

describe('allele designations stay text (FORMATS.md §0)', () => {
  it('trims a trailing ".0" only: 5.0 is 5, 9.3 stays 9.3', () => {
    expect(normaliseAllele('5.0')).toBe('5');
    expect(normaliseAllele(' 9.3 ')).toBe('9.3');
    expect(normaliseAllele('10')).toBe('10');
    expect(normaliseAllele('>21.0')).toBe('>21');
  });

  it('rounds spreadsheet doubles to one decimal: 36.200000000000003 → 36.2, 16.099999999999998 → 16.1, 12.000000001 → 12', () => {
    expect(normaliseAllele('36.200000000000003')).toBe('36.2');
    expect(normaliseAllele('16.099999999999998')).toBe('16.1');
    expect(normaliseAllele('12.000000001')).toBe('12');
  });

  it('never passes ordinary text through a float: "9.30" is not silently turned into 9.3', () => {
    expect(normaliseAllele('9.30')).toBe('9.30');
    expect(isAlleleDesignation('9.30')).toBe(false);
  });

  it('upper-cases Amelogenin letters', () => {
    expect(normaliseAllele('x')).toBe('X');
  });

  it('accepts repeat numbers, microvariants, range values and X/Y; refuses the rest', () => {
    for (const ok of ['13', '9.3', '<8', '>21', 'X', 'Y', '1', '99']) expect(isAlleleDesignation(ok)).toBe(true);
    for (const bad of ['', '?', 'OL', 'abc', '9.25', '12,13', '-1']) expect(isAlleleDesignation(bad)).toBe(false);
  });

  it('sorts the forensic way: <9, 9, 9.1, 9.3, >9, 10, then text', () => {
    expect(['10', '>9', '9.3', 'X', '9', '<9', '9.1'].sort(compareAlleles)).toEqual(['<9', '9', '9.1', '9.3', '>9', '10', 'X']);
  });
});
