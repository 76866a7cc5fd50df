/** The frequency letters: p is the frequency of the allele labelled P in the pattern, and so on to u. */
export const FREQUENCY_LETTERS = ['p', 'q', 'r', 's', 't', 'u'] as const;

export type FrequencyLetter = (typeof FREQUENCY_LETTERS)[number];

/** The binary operators, in their ASCII spelling (× is `*`, ÷ is `/`, − is `-`). */
export type BinaryOperator = '+' | '-' | '*' | '/' | '^';

/**
 * A parsed formula (GENETICS.md "Analyses are data"). `offset` is the 0-based position in the source
 * text, so messages can point at it; parentheses leave no node, the tree holds the grouping.
 */
export type Expression =
  | { kind: 'number'; value: number; text: string; offset: number }
  | { kind: 'frequency'; letter: FrequencyLetter; offset: number }
  | { kind: 'constant'; name: string; offset: number }
  | { kind: 'negate'; operand: Expression; offset: number }
  | { kind: 'binary'; operator: BinaryOperator; left: Expression; right: Expression; offset: number };

/** Binding strength: sums < products < unary minus < powers (so −p^2 is −(p^2), as in mathematics). */
export function precedence(expression: Expression): number {
  if (expression.kind === 'negate') return 3;
  if (expression.kind !== 'binary') return 5;
  return { '+': 1, '-': 1, '*': 2, '/': 2, '^': 4 }[expression.operator];
}

/** Raised for text that is not a formula, or a formula that cannot be evaluated; `offset` is 0-based, the message 1-based. */
export class ExpressionError extends Error {
  override name = 'ExpressionError';
  constructor(
    message: string,
    readonly offset: number | null = null,
  ) {
    super(message);
  }
}

/** "at N" for messages: the 1-based character position a person counts. */
export function at(offset: number): string {
  return `at ${offset + 1}`;
}
