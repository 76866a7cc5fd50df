import { describe, expect, it } from 'vitest';
import { evaluate, ExpressionError, parseExpression, printExpression } from '../../../../../server/genetics/expressions';

const value = (text: string, letters: Record<string, number> = {}, constants: Record<string, number> = {}) =>
  evaluate(parseExpression(text), { letters, constants });

const errorOf = (text: string): ExpressionError => {
  try {
    parseExpression(text);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`"${text}" parsed`);
};

describe('parsing formulas (GENETICS.md "Analyses are data")', () => {
  it('reads numbers as written: integers, decimals, a leading point, exponent notation', () => {
    expect(value('12')).toBe(12);
    expect(value('0.25')).toBe(0.25);
    expect(value('.5')).toBe(0.5);
    expect(value('1e-3')).toBe(0.001);
    expect(value('1.5E2')).toBe(150);
    expect(value('2e+1')).toBe(20);
  });

  it('tells frequency letters p…u from constant names', () => {
    expect(parseExpression('p')).toMatchObject({ kind: 'frequency', letter: 'p' });
    expect(parseExpression('u')).toMatchObject({ kind: 'frequency', letter: 'u' });
    expect(parseExpression('kappa0')).toMatchObject({ kind: 'constant', name: 'kappa0' });
    expect(parseExpression('A')).toMatchObject({ kind: 'constant', name: 'A' });
    expect(parseExpression('pi')).toMatchObject({ kind: 'constant', name: 'pi' });
  });

  it('multiplies and divides before adding and subtracting', () => {
    expect(value('2*3+4')).toBe(10);
    expect(value('2+3*4')).toBe(14);
    expect(value('2+12/4')).toBe(5);
    expect(parseExpression('p + q * r')).toMatchObject({ kind: 'binary', operator: '+', right: { operator: '*' } });
  });

  it('groups − and ÷ to the left: 8−4−2 is 2, 8/4/2 is 1', () => {
    expect(value('8-4-2')).toBe(2);
    expect(value('8/4/2')).toBe(1);
    expect(value('8/4*2')).toBe(4);
  });

  it('groups powers to the right and binds them tighter than unary minus: 2^3^2 = 512, −2^2 = −4', () => {
    expect(value('2^3^2')).toBe(512);
    expect(value('(2^3)^2')).toBe(64);
    expect(value('-2^2')).toBe(-4);
    expect(value('(-2)^2')).toBe(4);
    expect(value('2^-1')).toBe(0.5);
    expect(value('2*3^2')).toBe(18);
  });

  it('accepts unary minus anywhere a factor may stand', () => {
    expect(value('-p', { p: 0.1 })).toBe(-0.1);
    expect(value('1 - -1')).toBe(2);
    expect(value('2*-3')).toBe(-6);
    expect(value('--4')).toBe(4);
  });

  it('accepts the typographic signs × ÷ − · as well as * / -', () => {
    expect(value('2×p÷q − 1', { p: 0.2, q: 0.1 })).toBeCloseTo(3, 12);
    expect(value('2·3')).toBe(6);
    expect(printExpression(parseExpression('2×p÷q−1'))).toBe('2 * p / q - 1');
  });

  it('ignores spaces and keeps parentheses only as grouping', () => {
    expect(value(' ( 1 + 2 ) * ( 3 ) ')).toBe(9);
    expect(printExpression(parseExpression('((p))'))).toBe('p');
  });
});

describe('parse errors name the token and its position (1-based)', () => {
  it.each([
    ['2*(p+q))', "Unexpected ')' at 8 (no '(' to close)", 7],
    ['(p+q', "Unexpected end of expression at 5 (expected ')' to close the '(' at 1)", 4],
    ['2*', 'Unexpected end of expression at 3', 2],
    ['*2', "Unexpected '*' at 1", 0],
    ['2p', "Unexpected 'p' at 2 (write × or * between factors)", 1],
    ['2 (p)', "Unexpected '(' at 3 (write × or * between factors)", 2],
    ['p $ q', "Unexpected '$' at 3", 2],
    ['p + ()', "Unexpected ')' at 6", 5],
    ['1e-', "Incomplete exponent in '1e' at 1", 0],
    ['', 'Empty expression', 0],
    ['   ', 'Empty expression', 0],
  ])('%j → %s', (text, message, offset) => {
    const error = errorOf(text);
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.offset).toBe(offset);
  });

  it('suggests writing a Greek letter by name', () => {
    expect(errorOf('θ + p').message).toBe("Unexpected 'θ' at 1 (write Greek letters by name: theta, kappa0, mu)");
  });

  it('never runs the text as code', () => {
    expect(() => parseExpression('constructor.constructor("return 1")()')).toThrow(ExpressionError);
    expect(() => parseExpression('p; process.exit(1)')).toThrow("Unexpected ';' at 2");
  });
});
