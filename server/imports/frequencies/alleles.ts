import { isAmelogenin, parseAllele, repeatValue, type ParsedAllele } from '../../../core/alleles';

// Allele designations stay text (FORMATS.md §0) and follow the same rules as a profile's (core/alleles):
// parseAllele reads and normalises them; a frequency table adds that it holds numbers, ranges (<8, >21)
// and, at Amelogenin only, X and Y, never a lab marking such as OL.

/** Repeat numbers outside (0, 100) are typing or export mistakes, not alleles (as core/alleles/marker-rules.ts). */
const PLAUSIBLE = { above: 0, below: 100 };

/** Normalises a designation as FORMATS.md §0 asks: trims, rounds spreadsheet doubles to one decimal, drops a trailing `.0`, upper-cases x/y. */
export function normaliseAllele(raw: string): string {
  return parseAllele(raw).text;
}

/** The repeat number of a number or of a range's bound (`<8` → 8), null for anything else. */
function repeatOrBound(allele: ParsedAllele): number | null {
  const value = repeatValue(allele);
  if (value !== null || allele.kind !== 'marking') return value;
  const range = /^[<>](\d+(?:\.\d)?)$/.exec(allele.text);
  return range ? Number(range[1]) : null;
}

/**
 * Why text is no designation a frequency table can hold, whatever the marker and its size, as a phrase that
 * follows `"<text>" at <marker> ` (or `"<text>" `); null for 13, 9.3, <8, >21, X and Y.
 */
export function designationProblem(raw: string): string | null {
  const allele = parseAllele(raw);
  if (allele.kind !== 'invalid' && !(allele.kind === 'marking' && !/^[<>]/.test(allele.text))) return null;
  // parseAllele says why a mistyped number is wrong (9.33, 12,13); for other text the plain words say it all.
  const why = allele.problem && !allele.problem.includes('not an allele designation') ? ` (${allele.problem})` : '';
  return `is not an allele designation${why}`;
}

/** Why a designation's repeat number (or a range's bound) is implausible, as designationProblem phrases it; null when it is not. */
export function rangeProblem(raw: string): string | null {
  const value = repeatOrBound(parseAllele(raw));
  if (value === null || (value > PLAUSIBLE.above && value < PLAUSIBLE.below)) return null;
  return `is out of range (a repeat number is above ${PLAUSIBLE.above} and below ${PLAUSIBLE.below})`;
}

/** The marker's own rule (GENETICS.md), as designationProblem phrases it: X and Y at Amelogenin only, and only X and Y there. */
export function markerProblem(raw: string, marker: string): string | null {
  const sex = parseAllele(raw).kind === 'sex';
  if (sex && !isAmelogenin(marker)) return 'is only valid at Amelogenin';
  if (!sex && isAmelogenin(marker)) return 'is not valid at Amelogenin, which takes only X or Y';
  return null;
}

/** Every rule at once: a designation, plausible, and one the marker takes. */
export function alleleProblemAt(raw: string, marker: string): string | null {
  return designationProblem(raw) ?? rangeProblem(raw) ?? markerProblem(raw, marker);
}

/** Whether text is a plausible designation a frequency table can hold at some marker: 13, 9.3, <8, >21, X or Y. */
export function isAlleleDesignation(text: string): boolean {
  return designationProblem(text) === null && rangeProblem(text) === null;
}

/** Forensic ordering (FORMATS.md §0): by repeat number, `<n` before `n`, `>n` after, then the microvariant; text last. */
export function compareAlleles(a: string, b: string): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  for (let i = 0; i < 3; i++) {
    const d = (ka[i] as number) - (kb[i] as number);
    if (d !== 0) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKey(allele: string): [number, number, number] {
  const m = /^([<>]?)(\d+)(?:\.(\d))?$/.exec(allele);
  if (!m) return [Number.POSITIVE_INFINITY, 0, 0];
  const bound = m[1] === '<' ? -1 : m[1] === '>' ? 1 : 0;
  // Integers of the repeat and the variant digit are compared separately, so no float is involved.
  return [Number(m[2]), bound, m[3] === undefined ? -1 : Number(m[3])];
}
