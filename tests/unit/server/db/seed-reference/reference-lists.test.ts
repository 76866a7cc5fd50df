import { describe, expect, it } from 'vitest';
import { SEED_CASE_TYPES } from '../../../../../server/db/seed/reference/case-types';
import { SEED_SAMPLE_SOURCES } from '../../../../../server/db/seed/reference/sample-sources';

describe.each([
  {
    list: 'case types',
    values: SEED_CASE_TYPES,
    required: ['Homicide', 'Sexual assault', 'Burglary', 'Robbery', 'Missing person', 'Disaster victim identification',
      'Paternity', 'Kinship', 'Unidentified human remains', 'Other'],
  },
  {
    list: 'sample sources',
    values: SEED_SAMPLE_SOURCES,
    required: ['Blood', 'Saliva / buccal swab', 'Semen', 'Hair', 'Touch DNA', 'Bone', 'Tooth', 'Tissue',
      'Fingernail scrapings', 'Cigarette butt', 'Other'],
  },
])('seed $list', ({ values, required }) => {
  it('can all be inserted: trimmed, not blank, unique regardless of case (the lower(name) index)', () => {
    for (const value of values) expect(value.trim()).toBe(value);
    expect(values.filter((v) => v === '')).toEqual([]);
    expect(new Set(values.map((v) => v.toLowerCase())).size).toBe(values.length);
  });

  it('include the common entries and end with Other', () => {
    expect(values).toEqual(expect.arrayContaining(required));
    expect(values.at(-1)).toBe('Other');
  });
});
