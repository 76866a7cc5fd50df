import type { Content } from 'pdfmake/interfaces';
import type { MarkerResult } from '../../core/schemas/analyses';

/** The Greek letters the seed constants are named for, so a formula reads as GENETICS.md writes it. */
const GREEK: [RegExp, string][] = [
  [/\bkappa([0-2])\b/g, 'κ$1'],
  [/\btheta\b/g, 'θ'],
  [/\bmu\b/g, 'μ'],
  [/\blambda\b/g, 'λ'],
  [/\bsigma\b/g, 'σ'],
];

/** A formula as the report prints it: Greek constants, × for a product. */
export const formulaText = (expression: string) => GREEK.reduce((text, [pattern, letter]) => text.replace(pattern, letter), expression).replace(/\s*\*\s*/g, ' × ');

/**
 * Each pattern met with the formula it used, once (issue 18: the formula text no longer repeats on every
 * marker's row): the formulae a reviewer checks the per-marker values against. Null when no marker used one.
 */
export function formulaeUsedTable(markers: readonly MarkerResult[]): Content | null {
  const seen = new Map<string, string>();
  for (const m of markers) if (m.pattern && m.expression && m.notEvaluated === null && m.isExclusion === null) seen.set(m.pattern, m.expression);
  if (seen.size === 0) return null;
  return {
    table: { headerRows: 1, widths: ['auto', '*'], body: [[{ text: 'Pattern', bold: true }, { text: 'Formula', bold: true }], ...[...seen].map(([pattern, expression]) => [pattern, formulaText(expression)])] },
    layout: 'lightHorizontalLines',
    margin: [0, 2, 0, 6],
  };
}
