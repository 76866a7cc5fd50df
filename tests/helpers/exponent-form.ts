import { expect } from 'vitest';

/** A UUID (hit and profile ids): "…108e-7000…" inside one is not a number in exponent form. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Fails when the text prints a number in JavaScript's exponent form (1.18e+1): a court reads it as a typo. */
export function expectNoExponentForm(text: string): void {
  expect(text.replace(UUID, '')).not.toMatch(/\de[+-]\d/);
}
