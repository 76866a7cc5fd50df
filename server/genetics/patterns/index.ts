// Canonical allele-expression patterns (GENETICS.md "Analyses are data").
export { canonicalPattern, PatternError, type CanonicalPattern, type PatternOptions, type Ploidy } from './canonical-pattern';
export { enumeratePatterns } from './enumerate-patterns';
export { canonicalPatternText } from './pattern-text';
export { frequencyLettersOf, PATTERN_LETTERS, type PatternLetter } from './pattern-letters';
