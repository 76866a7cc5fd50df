// Allele designations stay text (FORMATS.md §0): only two rewrites are allowed, both on the text itself.

/** A binary double written out by a spreadsheet (36.200000000000003, 16.099999999999998): four or more decimals. */
const SPREADSHEET_DOUBLE = /^\d+\.\d{4,}$/;

/** Normalises a designation as FORMATS.md §0 asks: trims, rounds spreadsheet doubles to one decimal, drops a trailing `.0`. */
export function normaliseAllele(raw: string): string {
  let text = raw.trim();
  // Only a spreadsheet's double goes through a number; ordinary text such as 9.3 never does.
  if (SPREADSHEET_DOUBLE.test(text)) text = Number(text).toFixed(1);
  if (/^[<>]?\d+\.0$/.test(text)) text = text.slice(0, -2);
  if (/^[xy]$/.test(text)) text = text.toUpperCase();
  return text;
}

/** Whether normalised text is a designation a frequency table can hold: 13, 9.3, <8, >21, or X/Y at Amelogenin. */
export function isAlleleDesignation(text: string): boolean {
  return /^[<>]?\d+(\.\d)?$/.test(text) || text === 'X' || text === 'Y';
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
