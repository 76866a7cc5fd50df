import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluate,
  FREQUENCY_LETTERS,
  parseExpression,
  printExpression,
  toLatex,
  type BinaryOperator,
  type Expression,
} from '../../../../../server/genetics/expressions';

// Random formula trees as the parser would build them (numbers are never negative: minus is a node).
const tree: fc.Arbitrary<Expression> = fc.letrec<{ node: Expression }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.integer({ min: 0, max: 20 }), fc.double({ min: 0, max: 1e6, noNaN: true })).map(
      (value): Expression => ({ kind: 'number', value, text: String(value), offset: 0 }),
    ),
    fc.constantFrom(...FREQUENCY_LETTERS).map((letter): Expression => ({ kind: 'frequency', letter, offset: 0 })),
    fc.constantFrom('theta', 'kappa0', 'mu', 'A').map((name): Expression => ({ kind: 'constant', name, offset: 0 })),
    tie('node').map((operand): Expression => ({ kind: 'negate', operand, offset: 0 })),
    fc
      .tuple(fc.constantFrom<BinaryOperator>('+', '-', '*', '/', '^'), tie('node'), tie('node'))
      .map(([operator, left, right]): Expression => ({ kind: 'binary', operator, left, right, offset: 0 })),
  ),
})).node;

const scope = {
  letters: { p: 0.1, q: 0.2, r: 0.05, s: 0.3, t: 0.15, u: 0.01 },
  constants: { theta: 0.01, kappa0: 0.25, mu: 0.002, A: 0.9 },
};

/** The tree without source positions, which printing legitimately changes. */
function shape(expression: Expression): unknown {
  switch (expression.kind) {
    case 'number':
      return expression.value;
    case 'frequency':
      return expression.letter;
    case 'constant':
      return `#${expression.name}`;
    case 'negate':
      return ['neg', shape(expression.operand)];
    case 'binary':
      return [expression.operator, shape(expression.left), shape(expression.right)];
  }
}

function outcome(expression: Expression): number | string {
  try {
    return evaluate(expression, scope);
  } catch (error) {
    return (error as Error).name;
  }
}

describe('printing and parsing back', () => {
  it('parse(print(tree)) is the same tree, so it evaluates to the same value (or the same refusal)', () => {
    fc.assert(
      fc.property(tree, (expression) => {
        const reparsed = parseExpression(printExpression(expression));
        expect(shape(reparsed)).toEqual(shape(expression));
        expect(outcome(reparsed)).toEqual(outcome(expression));
      }),
      { numRuns: 500 },
    );
  });

  it('prints only the parentheses precedence needs', () => {
    expect(printExpression(parseExpression('((p+q))*(r) - (s*t) - (u-1)'))).toBe('(p + q) * r - s * t - (u - 1)');
    expect(printExpression(parseExpression('(-p)^2 + -(p^2) + 2^(3^2) + (2^3)^2'))).toBe('(-p)^2 + -p^2 + 2^3^2 + (2^3)^2');
  });

  it('renders any tree as LaTeX with balanced braces and parentheses', () => {
    fc.assert(
      fc.property(tree, (expression) => {
        const text = toLatex(expression);
        for (const [open, close] of [['{', '}'], ['(', ')']] as const) {
          let depth = 0;
          for (const character of text) {
            depth += character === open ? 1 : character === close ? -1 : 0;
            expect(depth).toBeGreaterThanOrEqual(0);
          }
          expect(depth).toBe(0);
        }
      }),
    );
  });
});
