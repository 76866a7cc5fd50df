import { at, FREQUENCY_LETTERS, type Expression } from './expression';
import { namesIn } from './expression-names';

export interface ValidationScope {
  /** The frequency letters the formula's pattern provides (frequencyLettersOf('PQ-PR') → p, q, r). */
  letters: Iterable<string>;
  /** The analysis's constant names. */
  constants: Iterable<string>;
}

/**
 * Checks a parsed formula against its pattern and analysis before it is saved (GENETICS.md "Analyses are
 * data"): one message per letter the pattern lacks and per unknown constant; none when it is valid.
 */
export function validateExpression(expression: Expression, scope: ValidationScope): string[] {
  const letters = new Set(scope.letters);
  const constants = new Set(scope.constants);
  const { letters: used, constants: named } = namesIn(expression);
  const messages: string[] = [];
  const allowed = [...letters].sort().join(', ') || 'none';
  for (const [letter, offset] of used) {
    if (!letters.has(letter)) messages.push(`Frequency '${letter}' ${at(offset)} is not in the pattern (allowed: ${allowed})`);
  }
  for (const [name, offset] of named) {
    if (constants.has(name)) continue;
    // P…U label alleles in the pattern; their frequencies are written lowercase.
    const lower = name.toLowerCase();
    const hint = (FREQUENCY_LETTERS as readonly string[]).includes(lower) ? ` (frequencies are lowercase: ${lower})` : '';
    messages.push(`Unknown constant '${name}' ${at(offset)}${hint}`);
  }
  return messages;
}
