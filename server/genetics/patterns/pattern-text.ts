import { canonicalPattern, PatternError, type PatternOptions } from './canonical-pattern';
import { PATTERN_LETTERS } from './pattern-letters';

/**
 * The canonical form of an allele expression typed by a person (`pq-pr`, `PR-PQ` → `PQ-PR`), so a formula
 * table can reject or correct a non-canonical key; PatternError when the text is not an expression.
 */
export function canonicalPatternText(text: string, options: PatternOptions = {}): string {
  const ploidy = options.ploidy ?? 'diploid';
  const roles = text.trim().toUpperCase().split(/\s*[-–−]\s*/);
  const shape = ploidy === 'haploid' ? /^[P-U]$/ : /^[P-U]{2}$/;
  roles.forEach((role, i) => {
    if (!shape.test(role)) {
      const expected = ploidy === 'haploid' ? 'one letter' : 'two letters';
      throw new PatternError(`Role ${i + 1} of "${text}" is "${role}": expected ${expected} among ${PATTERN_LETTERS.join(' ')}`);
    }
  });
  return canonicalPattern(roles.map((role) => [...role]), options).pattern;
}
