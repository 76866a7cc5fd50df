// GENETICS.md "Profiles and alleles": designations are text. Only the rewrites below change what was written,
// all on the text itself (FORMATS.md §0), so 9.3 never passes through a float on its way in or out.

/** What a designation is: a repeat number, a microvariant, a sex letter, a lab marking, or none of these. */
export type AlleleKind = 'integer' | 'microvariant' | 'sex' | 'marking' | 'invalid';

/** A designation as parsed: its normalised text and kind; `problem` says why an invalid one is refused. */
export interface ParsedAllele {
  text: string;
  kind: AlleleKind;
  problem?: string;
}

/** A binary double written out by a spreadsheet (36.200000000000003, 16.099999999999998): four or more decimals. */
const SPREADSHEET_DOUBLE = /^\d+\.\d{4,}$/;

/** The lab markings a designation may be (GENETICS.md), as messages name them. */
const MARKINGS = 'OL, <n and >n';

/**
 * Classifies one allele designation (GENETICS.md "Profiles and alleles"): `12` integer, `9.3` microvariant
 * (one digit .1–.9 after the point), `X`/`Y` sex, and the documented lab markings `OL` (off-ladder, any case)
 * and ranges (`<8`, `>21`), kept as text and never compared. Any other text is invalid: letters such as
 * `INC`, `ND` or `?` are no designation a profile keeps. Spreadsheet doubles round to one decimal
 * (`36.200000000000003` → `36.2`) and a zero fraction goes (`5.0` → `5`).
 */
export function parseAllele(raw: string): ParsedAllele {
  // Searches classify the same few hundred designations millions of times: each is read once.
  let parsed = PARSED.get(raw);
  if (parsed === undefined) {
    if (PARSED.size >= PARSED_LIMIT) PARSED.clear();
    parsed = Object.freeze(readAllele(raw));
    PARSED.set(raw, parsed);
  }
  return parsed;
}

const PARSED = new Map<string, ParsedAllele>();
/** Designations remembered at most (an import of free text must not grow it without bound). */
const PARSED_LIMIT = 10_000;

function readAllele(raw: string): ParsedAllele {
  let text = raw.trim();
  if (text === '') return { text, kind: 'invalid', problem: 'an allele cannot be empty' };
  if (/^[xy]$/i.test(text)) return { text: text.toUpperCase(), kind: 'sex' };
  if (/^ol$/i.test(text)) return { text: 'OL', kind: 'marking' };
  const range = /^([<>])\s*(\d+(?:\.\d+)?)$/.exec(text);
  if (range) {
    const bound = parseNumber(range[2]!);
    return bound.kind === 'invalid' ? { ...bound, text } : { text: `${range[1]}${bound.text}`, kind: 'marking' };
  }
  if (/^\d+(\.\d+)?$/.test(text)) {
    if (SPREADSHEET_DOUBLE.test(text)) text = Number(text).toFixed(1);
    return parseNumber(text);
  }
  // Anything else with a digit is a mistyped number (12,13 · 1O · 9.3*), not a marking.
  if (/\d/.test(text)) return { text, kind: 'invalid', problem: `"${text}" is not an allele designation` };
  // Letters or signs alone (INC, ND, ?, abc) are a lab's own notes, not one of the markings Locus keeps.
  return { text, kind: 'invalid', problem: `"${text}" is not an allele designation; the lab markings Locus keeps are ${MARKINGS}` };
}

/** A repeat number or microvariant, from digits with at most one point. */
function parseNumber(digits: string): ParsedAllele {
  const [whole = '', fraction = ''] = digits.split('.');
  const integer = whole.replace(/^0+(?=\d)/, '');
  if (/^0*$/.test(fraction)) return { text: integer, kind: 'integer' };
  if (fraction.length === 1) return { text: `${integer}.${fraction}`, kind: 'microvariant' };
  return { text: digits, kind: 'invalid', problem: `${digits} is not a microvariant: write one digit after the point, as in 9.3` };
}

/** Whether matching can compare the designation: numbers and X/Y, not markings (GENETICS.md). */
export function isComparable(allele: ParsedAllele): boolean {
  return allele.kind === 'integer' || allele.kind === 'microvariant' || allele.kind === 'sex';
}

/** The repeat number of an integer or microvariant (9.3 → 9.3), for range checks only; null for the other kinds. */
export function repeatValue(allele: ParsedAllele): number | null {
  return allele.kind === 'integer' || allele.kind === 'microvariant' ? Number(allele.text) : null;
}
