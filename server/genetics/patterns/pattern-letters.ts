/** The letters of an allele expression, in order of first appearance (GENETICS.md "Analyses are data"). */
export const PATTERN_LETTERS = ['P', 'Q', 'R', 'S', 'T', 'U'] as const;

export type PatternLetter = (typeof PATTERN_LETTERS)[number];

/** The frequency letters a pattern's formula may use: `PQ-PR` → `['p', 'q', 'r']` (the frequency of P is p). */
export function frequencyLettersOf(pattern: string): string[] {
  const letters = new Set<string>();
  for (const character of pattern) {
    if ((PATTERN_LETTERS as readonly string[]).includes(character)) letters.add(character.toLowerCase());
  }
  return [...letters].sort();
}
