import { describe, expect, it } from 'vitest';
import { VERBAL_SCALE_OPTIONS, verbalEquivalent } from '../../../core/verbal-scale';

const support = (key: string, lr: number) => verbalEquivalent(key, lr)?.support ?? null;

describe('the ENFSI 2015 verbal scale', () => {
  it.each([
    [1, 'no support'],
    [1.99, 'no support'],
    [2, 'weak support'],
    [9.99, 'weak support'],
    [10, 'moderate support'],
    [100, 'moderately strong support'],
    [999, 'moderately strong support'],
    [1_000, 'strong support'],
    [10_000, 'very strong support'],
    [999_999, 'very strong support'],
    [1_000_000, 'extremely strong support'],
    [1.2e21, 'extremely strong support'],
  ])('reads an LR of %d as %s', (lr, words) => expect(support('enfsi-2015', lr)).toBe(words));

  it('reads an LR below 1 as support for the alternative, of the strength of 1/LR', () => {
    expect(verbalEquivalent('enfsi-2015', 0.001, 'H1', 'H2')).toMatchObject({ support: 'strong support', favours: 'alternative', sentence: 'The findings provide strong support for H2 rather than H1.' });
    expect(verbalEquivalent('enfsi-2015', 1e9, 'H1', 'H2')?.sentence).toBe('The findings provide extremely strong support for H1 rather than H2.');
    expect(verbalEquivalent('enfsi-2015', 1.5)).toMatchObject({ favours: 'neither', sentence: 'The findings are uninformative: they support neither proposition over the other.' });
  });
});

describe('the SWGDAM 2018 verbal scale', () => {
  it.each([
    [1, 'uninformative'],
    [2, 'limited support'],
    [99, 'limited support'],
    [100, 'moderate support'],
    [9_999, 'moderate support'],
    [10_000, 'strong support'],
    [999_999, 'strong support'],
    [1_000_000, 'very strong support'],
  ])('reads an LR of %d as %s', (lr, words) => expect(support('swgdam-2018', lr)).toBe(words));

  it('names its source', () => expect(verbalEquivalent('swgdam-2018', 50)?.source).toContain('SWGDAM'));
});

describe('no verbal scale', () => {
  it('gives no words for the scale none, an unknown scale, an exclusion (LR 0) or no number', () => {
    expect(verbalEquivalent('none', 1e9)).toBeNull();
    expect(verbalEquivalent('made-up', 1e9)).toBeNull();
    expect(verbalEquivalent('enfsi-2015', 0)).toBeNull();
    expect(verbalEquivalent('enfsi-2015', Number.NaN)).toBeNull();
  });

  it('offers ENFSI, SWGDAM and none to choose from', () => expect(VERBAL_SCALE_OPTIONS.map((o) => o.key)).toEqual(['enfsi-2015', 'swgdam-2018', 'none']));
});
