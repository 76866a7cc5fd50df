// How a report prints a likelihood ratio, a likelihood or a frequency (issue 18: never `1.18e+1`, which a
// court reads as a typo): plain for values a reader takes in at a glance, "1.2 × 10⁹" with a raised exponent
// beyond them.

const SUPERSCRIPT: Record<string, string> = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };

/** Plain from 0.001 up to (not including) 10,000; outside that range, a power of ten. */
const PLAIN_FROM = 1e-3;
const PLAIN_BELOW = 1e4;

/** An integer as a raised exponent: -6 → ⁻⁶. */
export const superscript = (exponent: number) => [...String(exponent)].map((c) => SUPERSCRIPT[c] ?? c).join('');

/**
 * A number with `significant` digits: 11.8, 0.0512, 5,310, 1.18 × 10⁴, 4.20 × 10⁻⁶; 0 as 0, Infinity as ∞.
 * The mantissa keeps its trailing zeros (4.20) so every value of a column shows the same precision.
 */
export function formatScientific(value: number, significant = 3): string {
  if (value === 0) return '0';
  if (Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  const sign = value < 0 ? '−' : '';
  const magnitude = Math.abs(value);
  const [mantissa, exponent] = magnitude.toExponential(significant - 1).split('e') as [string, string];
  // Rounding can carry a value to the next range (9,999.7 → 1.00 × 10⁴): decide on the rounded value.
  const rounded = Number(`${mantissa}e${exponent}`);
  if (rounded >= PLAIN_FROM && rounded < PLAIN_BELOW) return sign + rounded.toLocaleString('en-US', { maximumFractionDigits: 20 });
  return `${sign}${mantissa} × 10${superscript(Number(exponent))}`;
}
