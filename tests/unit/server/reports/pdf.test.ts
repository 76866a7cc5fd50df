import { describe, expect, it } from 'vitest';
import { renderPdf, winAnsiSafe } from '../../../../server/reports/pdf';

describe('PDF text in the standard fonts', () => {
  it('spells out the characters Helvetica cannot print (θ, ≤, →) and keeps the rest, em dash included', () => {
    const document = { content: [{ text: ['Same source (θ = 0.01)', { text: 'p ≤ 1.2e-20', bold: true }] }, { table: { widths: ['*'], body: [['Pending → Published — ok']] } }] };
    expect(winAnsiSafe(document)).toEqual({
      content: [{ text: ['Same source (theta = 0.01)', { text: 'p <= 1.2e-20', bold: true }] }, { table: { widths: ['*'], body: [['Pending -> Published — ok']] } }],
    });
  });

  it('still renders a document', async () => {
    expect((await renderPdf({ content: ['p ≤ 1'] })).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
