import { describe, expect, it } from 'vitest';
import { evaluate, ExpressionError, FREQUENCY_LETTERS, parseExpression } from '../../../../../server/genetics/expressions';
import { compileExpression } from '../../../../../server/genetics/expressions/compile-expression';
import { SEED_ANALYSIS_GROUPS } from '../../../../../server/genetics/seed-analyses';

/** evaluate's answer, NaN where it throws an ExpressionError (what a compiled formula gives there). */
function evaluated(text: string, letters: Record<string, number>, constants: Record<string, number>): number {
  try {
    return evaluate(parseExpression(text), { letters, constants });
  } catch (error) {
    if (error instanceof ExpressionError) return NaN;
    throw error;
  }
}

/** The compiled formula's answer for the same letters: NaN also where a named letter is missing (the caller's check). */
function compiled(text: string, letters: Record<string, number>, constants: Record<string, number>): number {
  const { valueOf, letterMask } = compileExpression(parseExpression(text), constants);
  const array = new Float64Array(FREQUENCY_LETTERS.length);
  let present = 0;
  FREQUENCY_LETTERS.forEach((letter, i) => {
    if (letter in letters && Number.isFinite(letters[letter])) ((array[i] = letters[letter]!), (present |= 1 << i));
  });
  return (letterMask & ~present) !== 0 ? NaN : valueOf(array);
}

describe('a compiled formula', () => {
  it('gives every seed analysis formula evaluate\'s value bit for bit, over many frequencies', () => {
    const seeds = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses).flatMap((a) => a.formulae.flatMap((f) => (f.expression ? [{ text: f.expression, constants: { ...Object.fromEntries(a.constants.map((c) => [c.name, c.value])), A: 0.37 } }] : [])));
    expect(seeds.length).toBeGreaterThan(100);
    const frequencies = [0.001, 0.013, 0.1, 0.2371, 0.5, 0.98];
    let compared = 0;
    for (const { text, constants } of seeds) {
      for (let k = 0; k < frequencies.length; k++) {
        const letters = Object.fromEntries(FREQUENCY_LETTERS.map((l, i) => [l, frequencies[(k + i) % frequencies.length]!]));
        expect(Object.is(compiled(text, letters, constants), evaluated(text, letters, constants)), text).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(seeds.length * frequencies.length);
  });

  // Each case: evaluate throws an ExpressionError, so the compiled formula is NaN (the marker is not evaluated).
  it.each([
    ['a division by zero', '1/(p-p)', { p: 0.1 }, {}],
    ['a missing constant', 'theta*p', { p: 0.1 }, {}],
    ['a non-finite constant', 'theta*p', { p: 0.1 }, { theta: Infinity }],
    ['a missing letter', '2*p*q', { p: 0.1 }, {}],
    ['an overflow', '(p*1e300)*1e300', { p: 0.5 }, {}],
    ['a failed base raised to the power 0 (NaN ** 0 is 1 in JavaScript)', '(1/(p-p))^0', { p: 0.1 }, {}],
    ['0 to a negative power', '(p-p)^(0-1)', { p: 0.1 }, {}],
    ['a negative number to a fractional power', '(0-p)^0.5', { p: 0.1 }, {}],
    ["a constant named 'constructor'", 'constructor*p', { p: 0.1 }, {}],
  ])('is NaN where evaluate throws: %s', (_, text, letters, constants) => {
    expect(evaluated(text, letters, constants)).toBeNaN();
    expect(compiled(text, letters, constants)).toBeNaN();
  });

  it('keeps evaluate\'s order of operations: −p^2 is −(p^2), and a − b − c is (a − b) − c', () => {
    for (const text of ['-p^2', 'p - q - r', 'p / q / r', 'p^q^r', '0.1 + 0.2 - p']) {
      const letters = { p: 0.3, q: 0.7, r: 0.11 };
      expect(compiled(text, letters, {})).toBe(evaluated(text, letters, {}));
    }
  });
});
