import { FREQUENCY_LETTERS, type Expression } from './expression';

/** A formula compiled for one set of constants: its value from the letters' frequencies, NaN where evaluate throws. */
export interface CompiledExpression {
  /** `letters[i]` is the frequency of FREQUENCY_LETTERS[i]; letters the formula does not name are not read. */
  valueOf(letters: Float64Array): number;
  /** The letters the formula names, as bits (bit i: FREQUENCY_LETTERS[i]): a pattern without one of them cannot be evaluated. */
  letterMask: number;
}

type Node = (letters: Float64Array) => number;

const FAILS: Node = () => NaN;

/**
 * A parsed formula (GENETICS.md "Analyses are data") turned once into nested closures over a letters array, the
 * constants bound: the same operations in the same order as evaluate (evaluate-expression.ts), so every value is
 * bit-for-bit evaluate's, and NaN exactly where evaluate throws an ExpressionError (a missing or non-finite constant,
 * a division by zero, a non-finite intermediate; the caller checks the letters with `letterMask`). A lookup table
 * evaluates one formula thousands of times: no tree walk, no scope objects. Never `eval`: the input is the tree.
 */
export function compileExpression(expression: Expression, constants: Readonly<Record<string, number>>): CompiledExpression {
  let letterMask = 0;
  const compile = (e: Expression): Node => {
    switch (e.kind) {
      case 'number': {
        const value = e.value;
        return () => value;
      }
      case 'frequency': {
        const i = FREQUENCY_LETTERS.indexOf(e.letter);
        letterMask |= 1 << i;
        return (letters) => letters[i]!;
      }
      case 'constant': {
        // hasOwn, as evaluate's lookUp: a formula naming 'constructor' must not reach Object.prototype.
        const value = Object.hasOwn(constants, e.name) ? constants[e.name] : undefined;
        if (value === undefined || !Number.isFinite(value)) return FAILS;
        return () => value;
      }
      case 'negate': {
        const operand = compile(e.operand);
        return (letters) => -operand(letters);
      }
      case 'binary':
        return binary(e.operator, compile(e.left), compile(e.right));
    }
  };
  const root = compile(expression);
  return { valueOf: root, letterMask };
}

/** A finite value, or NaN for evaluate's "not a finite number". */
const finite = (value: number) => (Number.isFinite(value) ? value : NaN);

/**
 * One operator over its operands. A failed operand fails the whole (NaN ** 0 is 1, so a NaN is never left to the
 * arithmetic); otherwise the value is evaluate's apply, checked as evaluate checks it.
 */
function binary(operator: '+' | '-' | '*' | '/' | '^', left: Node, right: Node): Node {
  switch (operator) {
    case '+':
      return (v) => finite(left(v) + right(v));
    case '-':
      return (v) => finite(left(v) - right(v));
    case '*':
      return (v) => finite(left(v) * right(v));
    case '/':
      return (v) => {
        const l = left(v);
        const r = right(v);
        return r === 0 ? NaN : finite(l / r);
      };
    case '^':
      return (v) => {
        const l = left(v);
        const r = right(v);
        return Number.isNaN(l) || Number.isNaN(r) ? NaN : finite(l ** r);
      };
  }
}
