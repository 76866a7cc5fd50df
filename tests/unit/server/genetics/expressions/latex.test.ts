import { describe, expect, it } from 'vitest';
import { parseExpression, toLatex } from '../../../../../server/genetics/expressions';

const latex = (text: string) => toLatex(parseExpression(text));

describe('formulas in mathematical notation (LaTeX for KaTeX)', () => {
  it.each([
    ['2*p*q', '2 \\cdot p \\cdot q'],
    ['1/(2*p)', '\\frac{1}{2 \\cdot p}'],
    ['(p+q)/(4*p*q)', '\\frac{p + q}{4 \\cdot p \\cdot q}'],
    ['kappa0 + kappa1*(p+q)/(4*p*q)', '\\kappa_0 + \\frac{\\kappa_1 \\cdot (p + q)}{4 \\cdot p \\cdot q}'],
    ['theta + (1-theta)*p', '\\theta + (1 - \\theta) \\cdot p'],
    ['mu/A', '\\frac{\\mu}{A}'],
    ['p^2', 'p^{2}'],
    ['(p/q)^2', '\\left(\\frac{p}{q}\\right)^{2}'],
    ['-p^2', '-p^{2}'],
    ['(-p)^2', '(-p)^{2}'],
    ['2^3^2', '2^{3^{2}}'],
    ['(2^3)^2', '(2^{3})^{2}'],
    ['p-q-r', 'p - q - r'],
    ['p-(q-r)', 'p - (q - r)'],
    ['p+(q-r)', 'p + q - r'],
    ['p*-q', 'p \\cdot (-q)'],
    ['-(p+q)', '-(p + q)'],
    ['1e-3*p', '(1 \\times 10^{-3}) \\cdot p'],
    ['.5', '0.5'],
    ['kappa12 + mu_f + Theta + threshold', '\\kappa_{12} + \\mu_{f} + \\Theta + \\mathrm{threshold}'],
  ])('%s → %s', (text, expected) => {
    expect(latex(text)).toBe(expected);
  });

  it('writes NRC II 4.10 (heterozygote) as one fraction with grouped factors', () => {
    expect(latex('2*(theta + (1-theta)*p)*(theta + (1-theta)*q) / ((1+theta)*(1+2*theta))')).toBe(
      '\\frac{2 \\cdot (\\theta + (1 - \\theta) \\cdot p) \\cdot (\\theta + (1 - \\theta) \\cdot q)}{(1 + \\theta) \\cdot (1 + 2 \\cdot \\theta)}',
    );
  });
});
