import type { Expression } from './expression';

// The Greek letters LaTeX (and KaTeX) name; a constant called so is shown as the letter.
const GREEK = new Set([
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'pi', 'rho',
  'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega',
  'Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Upsilon', 'Phi', 'Psi', 'Omega',
]);

/**
 * The formula in mathematical notation for KaTeX (GENETICS.md: each formula is shown to the reader):
 * ÷ as a fraction, × as \cdot, powers with braced exponents, theta → \theta, kappa0 → \kappa_0, 1e-3 →
 * 1 \times 10^{-3}, and parentheses only where precedence needs them.
 */
export function toLatex(expression: Expression): string {
  switch (expression.kind) {
    case 'number':
      return numberLatex(expression.text);
    case 'frequency':
      return expression.letter;
    case 'constant':
      return constantLatex(expression.name);
    case 'negate': {
      const operand = expression.operand;
      return `-${group(operand, isSum(operand) || operand.kind === 'negate')}`;
    }
    case 'binary': {
      const { operator, left, right } = expression;
      switch (operator) {
        case '/':
          return `\\frac{${toLatex(left)}}{${toLatex(right)}}`;
        case '^':
          return `${group(left, left.kind === 'binary' || left.kind === 'negate' || isScientific(left))}^{${toLatex(right)}}`;
        case '*':
          return `${group(left, isSum(left) || isScientific(left))} \\cdot ${group(right, isSum(right) || right.kind === 'negate' || isScientific(right))}`;
        case '+':
          // a + (b + c) and a + (b − c) read the same without parentheses.
          return `${toLatex(left)} + ${group(right, right.kind === 'negate')}`;
        case '-':
          return `${toLatex(left)} - ${group(right, isSum(right) || right.kind === 'negate')}`;
      }
    }
  }
}

function isSum(expression: Expression): boolean {
  return expression.kind === 'binary' && (expression.operator === '+' || expression.operator === '-');
}

function isScientific(expression: Expression): boolean {
  return expression.kind === 'number' && /[eE]/.test(expression.text);
}

/** Parentheses that grow with a fraction inside them. */
function group(expression: Expression, parenthesise: boolean): string {
  const inner = toLatex(expression);
  if (!parenthesise) return inner;
  return inner.includes('\\frac') ? `\\left(${inner}\\right)` : `(${inner})`;
}

function numberLatex(text: string): string {
  const [mantissa = '', exponent] = text.split(/[eE]/);
  const shown = mantissa.startsWith('.') ? `0${mantissa}` : mantissa;
  return exponent === undefined ? shown : `${shown} \\times 10^{${Number(exponent)}}`;
}

/** theta → \theta, kappa0 → \kappa_0, mu_f → \mu_{f}, A → A, threshold → \mathrm{threshold}. */
function constantLatex(name: string): string {
  const underscore = name.indexOf('_');
  const [base, subscript] =
    underscore > 0 ? [name.slice(0, underscore), name.slice(underscore + 1)] : splitTrailingDigits(name);
  const shownBase = GREEK.has(base) ? `\\${base}` : base.length === 1 ? base : `\\mathrm{${escape(base)}}`;
  if (!subscript) return shownBase;
  const shownSubscript = /^\d$/.test(subscript) ? subscript : `{${/^\d+$/.test(subscript) ? subscript : constantLatex(subscript)}}`;
  return `${shownBase}_${shownSubscript}`;
}

function splitTrailingDigits(name: string): [string, string] {
  const match = /^(.*?[^\d])(\d+)$/.exec(name);
  return match ? [match[1]!, match[2]!] : [name, ''];
}

function escape(text: string): string {
  return text.replaceAll('_', '\\_');
}
