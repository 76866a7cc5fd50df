import { describe, expect, it } from 'vitest';
import { issueText } from '../../../src/profiles/import-preview';

describe('an import problem as the preview words it', () => {
  it('says where it is, without naming the marker twice when the message already does', () => {
    expect(issueText({ row: 53, sample: 'REF-BAD', marker: 'vWA', message: 'vWA: "INC" is not an allele designation' })).toBe('Row 53, REF-BAD: vWA: "INC" is not an allele designation');
    expect(issueText({ row: 7, sample: 'S1', marker: 'NOTAMARKER', message: 'Marker NOTAMARKER is invalid' })).toBe('Row 7, S1, NOTAMARKER: Marker NOTAMARKER is invalid');
    expect(issueText({ row: null, message: 'The file is empty' })).toBe('The file is empty');
  });
});
