import { at, ExpressionError, type Expression } from './expression';

export interface EvaluationScope {
  /** Frequency of each pattern letter's allele: { p: 0.1, q: 0.2 }. */
  letters: Readonly<Record<string, number>>;
  /** Constant values by name: { theta: 0.01 }. */
  constants: Readonly<Record<string, number>>;
}

/**
 * The value of a parsed formula for given frequencies and constants. A missing letter or constant, a
 * division by zero or any non-finite intermediate (overflow, 0^−1, (−1)^0.5) is an ExpressionError naming
 * the position, never a silent NaN or Infinity in a court report.
 */
export function evaluate(expression: Expression, scope: EvaluationScope): number {
  switch (expression.kind) {
    case 'number':
      return expression.value;
    case 'frequency':
      return lookUp(scope.letters, expression.letter, `frequency '${expression.letter}'`, expression.offset);
    case 'constant':
      return lookUp(scope.constants, expression.name, `constant '${expression.name}'`, expression.offset);
    case 'negate':
      return -evaluate(expression.operand, scope);
    case 'binary': {
      const left = evaluate(expression.left, scope);
      const right = evaluate(expression.right, scope);
      if (expression.operator === '/' && right === 0) throw new ExpressionError(`Division by zero ${at(expression.offset)}`, expression.offset);
      const value = apply(expression.operator, left, right);
      if (!Number.isFinite(value)) {
        throw new ExpressionError(`'${expression.operator}' ${at(expression.offset)} gives ${value}, not a finite number`, expression.offset);
      }
      return value;
    }
  }
}

function apply(operator: '+' | '-' | '*' | '/' | '^', left: number, right: number): number {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return left / right;
    case '^':
      return left ** right;
  }
}

function lookUp(values: Readonly<Record<string, number>>, name: string, label: string, offset: number): number {
  // hasOwn: a formula naming 'constructor' must not reach Object.prototype.
  const value = Object.hasOwn(values, name) ? values[name] : undefined;
  if (value === undefined) throw new ExpressionError(`No value for ${label} ${at(offset)}`, offset);
  if (!Number.isFinite(value)) throw new ExpressionError(`The value of ${label} ${at(offset)} is ${value}, not a finite number`, offset);
  return value;
}
