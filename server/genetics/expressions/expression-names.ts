import type { Expression, FrequencyLetter } from './expression';

/** The frequency letters and constant names a formula uses, each with where it first appears (0-based). */
export interface ExpressionNames {
  letters: ReadonlyMap<FrequencyLetter, number>;
  constants: ReadonlyMap<string, number>;
}

/** Collects the letters and constants of a formula, in order of appearance. */
export function namesIn(expression: Expression): ExpressionNames {
  const letters = new Map<FrequencyLetter, number>();
  const constants = new Map<string, number>();
  const visit = (node: Expression): void => {
    switch (node.kind) {
      case 'frequency':
        if (!letters.has(node.letter)) letters.set(node.letter, node.offset);
        return;
      case 'constant':
        if (!constants.has(node.name)) constants.set(node.name, node.offset);
        return;
      case 'negate':
        return visit(node.operand);
      case 'binary':
        visit(node.left);
        return visit(node.right);
      case 'number':
        return;
    }
  };
  visit(expression);
  return { letters, constants };
}
