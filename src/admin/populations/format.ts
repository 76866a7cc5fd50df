/** A frequency as the preview shows it: four significant digits (0.2475, 0.0002475). */
export const formatFrequency = (value: number): string => (Number.isFinite(value) ? String(Number(value.toPrecision(4))) : '—');

/** A sum of frequencies, three decimals (GENETICS.md accepts 1 ± 0.02). */
export const formatSum = (value: number): string => value.toFixed(3);

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Spec 1: the interface is in English (US). */
export const formatDate = (iso: string): string => DATE.format(new Date(iso));
export const formatDateTime = (iso: string): string => DATE_TIME.format(new Date(iso));

/** "404" or "404–1036" or "n/a" for the N of a population's markers. */
export function formatSampleSize(min: number | null, max: number | null): string {
  if (min === null || max === null) return 'n/a';
  return min === max ? String(min) : `${min}–${max}`;
}
