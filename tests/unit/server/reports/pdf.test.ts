import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../../../server/reports/pdf';
import { pdfToText } from '../../../helpers/pdf-text';

describe('PDF text in the embedded Unicode font', () => {
  it('prints θ, κ, μ, σ, →, ≤, ≥, ×, the minus sign and raised exponents as themselves', async () => {
    const pdf = await renderPdf({ content: [{ text: ['Same source (θ = 0.01), κ₀ + κ₁/(4p), μ = 0.002, σ', { text: ' Pending → Published — p ≤ 1.2 × 10⁻²⁰ ≥ −1', bold: true }] }, { text: 'italic θ κ →', italics: true }] });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // The font is embedded (a subset): no reader substitutes a font without these glyphs.
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2/);
    const text = pdfToText(pdf);
    expect(text).toContain('Same source (θ = 0.01), κ₀ + κ₁/(4p), μ = 0.002, σ');
    expect(text).toContain('Pending → Published — p ≤ 1.2 × 10⁻²⁰ ≥ −1');
    expect(text).toContain('italic θ κ →');
    expect(text).not.toMatch(/theta|kappa|->/);
  });
});
