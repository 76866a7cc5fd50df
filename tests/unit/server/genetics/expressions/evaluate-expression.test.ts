import { describe, expect, it } from 'vitest';
import { evaluate, parseExpression, validateExpression } from '../../../../../server/genetics/expressions';
import { frequencyLettersOf } from '../../../../../server/genetics/patterns';

const value = (text: string, letters: Record<string, number> = {}, constants: Record<string, number> = {}) =>
  evaluate(parseExpression(text), { letters, constants });

describe('evaluating formulas', () => {
  it('2*p*q with p = 0.1, q = 0.2 is 0.04 (Hardy–Weinberg heterozygote)', () => {
    expect(value('2*p*q', { p: 0.1, q: 0.2 })).toBeCloseTo(0.04, 15);
  });

  it('1/(2*p) with p = 0.1 is 5 (kinship X1 for PP–PQ, GENETICS.md)', () => {
    expect(value('1/(2*p)', { p: 0.1 })).toBeCloseTo(5, 14);
  });

  // NRC II (1996) recommendation 4.10; hand computation with p = 0.1, q = 0.2, θ = 0.01:
  // 2 · 0.109 · 0.208 / (1.01 · 1.02) = 0.045344 / 1.0302 = 0.044014754…; tolerance 1e-12.
  it('the NRC II 4.10 heterozygote formula gives the hand-computed 0.0440147544', () => {
    const formula = '2*(theta + (1-theta)*p)*(theta + (1-theta)*q) / ((1+theta)*(1+2*theta))';
    expect(value(formula, { p: 0.1, q: 0.2 }, { theta: 0.01 })).toBeCloseTo(0.045344 / 1.0302, 12);
    expect(value(formula, { p: 0.1, q: 0.2 }, { theta: 0.01 })).toBeCloseTo(0.0440147544, 10);
  });

  // NRC II 4.10 homozygote, p = 0.1, θ = 0.01: 0.119 · 0.129 / 1.0302 = 0.015351 / 1.0302 = 0.0149009901…
  it('the NRC II 4.10 homozygote formula gives the hand-computed 0.0149009901', () => {
    const formula = '(2*theta + (1-theta)*p)*(3*theta + (1-theta)*p) / ((1+theta)*(1+2*theta))';
    expect(value(formula, { p: 0.1 }, { theta: 0.01 })).toBeCloseTo(0.0149009901, 10);
  });

  // GENETICS.md check: full siblings PQ–PQ, κ = (¼, ½, ¼): LR = (1 + p + q + 2pq)/(8pq) = 1.34/0.16 = 8.375.
  it('the κ kinship formula for full siblings PQ–PQ gives the textbook 8.375 at p = 0.1, q = 0.2', () => {
    const formula = 'kappa0 + kappa1*(p+q)/(4*p*q) + kappa2/(2*p*q)';
    const lr = value(formula, { p: 0.1, q: 0.2 }, { kappa0: 0.25, kappa1: 0.5, kappa2: 0.25 });
    expect(lr).toBeCloseTo(8.375, 12);
    expect(lr).toBeCloseTo(value('(1 + p + q + 2*p*q)/(8*p*q)', { p: 0.1, q: 0.2 }), 12);
  });

  it('refuses a division by zero, naming the position', () => {
    expect(() => value('1/(p-q)', { p: 0.1, q: 0.1 })).toThrow('Division by zero at 2');
    expect(() => value('1/(p-q)', { p: 0.1, q: 0.1 })).toThrow(expect.objectContaining({ name: 'ExpressionError', offset: 1 }));
  });

  it('refuses a non-finite result instead of reporting Infinity or NaN', () => {
    expect(() => value('0^-1')).toThrow("'^' at 2 gives Infinity, not a finite number");
    expect(() => value('(0-1)^0.5')).toThrow('gives NaN');
    expect(() => value('10^400')).toThrow('gives Infinity');
  });

  it('refuses a letter or constant without a value, even one named like an object property', () => {
    expect(() => value('p + r', { p: 0.1 })).toThrow("No value for frequency 'r' at 5");
    expect(() => value('constructor')).toThrow("No value for constant 'constructor' at 1");
    expect(() => value('theta', {}, { theta: Number.NaN })).toThrow("The value of constant 'theta' at 1 is NaN");
  });
});

describe('validating a formula against its pattern and analysis', () => {
  it('accepts a formula using only the pattern’s letters and known constants', () => {
    const formula = parseExpression('kappa0 + kappa1/(4*p)');
    expect(validateExpression(formula, { letters: frequencyLettersOf('PQ-PR'), constants: ['kappa0', 'kappa1', 'kappa2'] })).toEqual([]);
  });

  it('names each letter the pattern lacks and each unknown constant once, with positions', () => {
    const formula = parseExpression('2*p*r + kapa0 + r + P');
    expect(validateExpression(formula, { letters: frequencyLettersOf('PQ-PQ'), constants: ['kappa0'] })).toEqual([
      "Frequency 'r' at 5 is not in the pattern (allowed: p, q)",
      "Unknown constant 'kapa0' at 9",
      "Unknown constant 'P' at 21 (frequencies are lowercase: p)",
    ]);
  });
});
