import { precedence, type Expression } from './expression';

/**
 * The formula as text in the language's own ASCII spelling, with only the parentheses the grouping needs:
 * parseExpression(printExpression(e)) gives back the same tree (used to store a normalised formula).
 */
export function printExpression(expression: Expression): string {
  switch (expression.kind) {
    case 'number':
      return expression.text;
    case 'frequency':
      return expression.letter;
    case 'constant':
      return expression.name;
    case 'negate':
      return `-${group(expression.operand, precedence(expression.operand) < 3)}`;
    case 'binary': {
      const own = precedence(expression);
      const { operator, left, right } = expression;
      // Powers group to the right, the others to the left; a power's exponent may be any unary (2^-1, 2^3^2).
      const leftNeeds = operator === '^' ? precedence(left) <= own : precedence(left) < own;
      const rightNeeds = operator === '^' ? precedence(right) < 3 : precedence(right) <= own;
      const l = group(left, leftNeeds);
      const r = group(right, rightNeeds);
      return operator === '^' ? `${l}^${r}` : `${l} ${operator} ${r}`;
    }
  }
}

function group(expression: Expression, parenthesise: boolean): string {
  const text = printExpression(expression);
  return parenthesise ? `(${text})` : text;
}
