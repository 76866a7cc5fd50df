import { at, ExpressionError } from './expression';

export type Token =
  | { kind: 'number'; text: string; offset: number }
  | { kind: 'name'; text: string; offset: number }
  | { kind: 'operator'; text: '+' | '-' | '*' | '/' | '^' | '(' | ')'; offset: number }
  | { kind: 'end'; text: ''; offset: number };

// The typographic signs a formula copied from a document may carry, spelled in ASCII.
const OPERATORS: Record<string, '+' | '-' | '*' | '/' | '^' | '(' | ')'> = {
  '+': '+', '-': '-', '−': '-', '–': '-', '*': '*', '×': '*', '·': '*', '⋅': '*', '/': '/', '÷': '/', '^': '^', '(': '(', ')': ')',
};
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const SPACE = /^\s+/;
const GREEK = /^[\u0370-\u03FF]/;

/** Splits a formula into numbers, names and operators; an unknown character is an error at its position. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let offset = 0;
  while (offset < text.length) {
    const rest = text.slice(offset);
    const space = SPACE.exec(rest);
    if (space) {
      offset += space[0].length;
      continue;
    }
    const number = NUMBER.exec(rest);
    if (number) {
      // "1e" or "1e-" is an exponent with its digits missing, not the number 1 then a name.
      if (/^[eE](?:[+-]|$)/.test(rest.slice(number[0].length))) {
        throw new ExpressionError(`Incomplete exponent in '${rest.slice(0, number[0].length + 1)}' ${at(offset)}`, offset);
      }
      tokens.push({ kind: 'number', text: number[0], offset });
      offset += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', text: name[0], offset });
      offset += name[0].length;
      continue;
    }
    const character = String.fromCodePoint(rest.codePointAt(0)!);
    const operator = OPERATORS[character];
    if (operator) {
      tokens.push({ kind: 'operator', text: operator, offset });
      offset += character.length;
      continue;
    }
    const hint = GREEK.test(character) ? ' (write Greek letters by name: theta, kappa0, mu)' : '';
    throw new ExpressionError(`Unexpected '${character}' ${at(offset)}${hint}`, offset);
  }
  tokens.push({ kind: 'end', text: '', offset });
  return tokens;
}
