import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from '../../../../server/exports/csv';

describe('CSV cells', () => {
  it('keeps negative and signed numbers numbers, as numbers or as text', () => {
    expect(csvCell(-0.0736)).toBe('-0.0736');
    expect(csvCell('-0.0736')).toBe('-0.0736');
    expect(csvCell('+3')).toBe('+3');
    expect(csvCell('-1.2e-5')).toBe('-1.2e-5');
    expect(csvText([['log10', -2.5]])).toBe('log10,-2.5\r\n');
  });

  it('still protects every cell that would start a formula', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('+A1')).toBe("'+A1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-')).toBe("'-");
  });
});
