import { parseAllele, repeatValue } from './allele';
import { normaliseMarkerAlleles } from './order';

/** What the allele rules need to know of a marker. */
export interface AlleleRulesMarker {
  name: string;
  kind: 'Autosomal' | 'YStr';
  multiCopy: boolean;
}

/** Options of validateMarkerAlleles. */
export interface AlleleRulesOptions {
  /** The profile may be a mixture (a forensic unknown), so an autosomal marker may carry up to MAX_MIXTURE alleles. */
  mixture?: boolean;
}

/**
 * Most alleles per marker (GENETICS.md): a single-source autosomal marker 2, a multi-copy Y marker 4. A mixture
 * (3- and 4-person mixtures show 5–13 peaks at a marker) is refused only above 40, which no real profile reaches.
 */
export const MAX_SINGLE_SOURCE = 2;
export const MAX_MIXTURE = 40;
export const MAX_MULTI_COPY = 4;

/** Repeat numbers outside (0, 100) are typing or export mistakes, not alleles. */
const PLAUSIBLE = { above: 0, below: 100 };

/** The spellings of the sex marker (GENETICS.md; kits write AMEL or, Qiagen, AM). */
const AMELOGENIN_NAMES = new Set(['amelogenin', 'amel', 'am']);

/** Whether a marker name is Amelogenin's, the one marker that takes X and Y. */
export function isAmelogenin(name: string): boolean {
  return AMELOGENIN_NAMES.has(name.trim().toLowerCase());
}

/**
 * Checks one marker's alleles against GENETICS.md "Profiles and alleles" and returns a message per
 * problem, each naming the marker (empty when valid): each designation readable (parseAllele) and
 * plausible (0 < n < 100); X/Y at Amelogenin only and only X/Y there; how many distinct alleles the
 * marker may carry (autosomal 1–2, or up to 40 in a mixture; Y-STR exactly 1, multi-copy up to 4).
 * A value written twice is one allele (a homozygote), not a problem.
 */
export function validateMarkerAlleles(alleles: readonly string[], marker: AlleleRulesMarker, opts: AlleleRulesOptions = {}): string[] {
  const name = marker.name;
  const given = alleles.filter((a) => a.trim() !== '');
  if (given.length === 0) return [`${name} has no allele`];
  const messages: string[] = [];
  const amelogenin = isAmelogenin(name);
  for (const raw of given) {
    const allele = parseAllele(raw);
    if (allele.kind === 'invalid') messages.push(`${name}: ${allele.problem ?? `"${raw.trim()}" is not an allele designation`}`);
    else if (amelogenin && allele.kind !== 'sex') messages.push(`${name} takes only X or Y, not ${allele.text}`);
    else if (!amelogenin && allele.kind === 'sex') messages.push(`${name}: ${allele.text} is only valid at Amelogenin`);
    const value = repeatValue(allele);
    if (value !== null && !(value > PLAUSIBLE.above && value < PLAUSIBLE.below)) {
      messages.push(`${name}: ${allele.text} is out of range (a repeat number is above ${PLAUSIBLE.above} and below ${PLAUSIBLE.below})`);
    }
  }
  const distinct = normaliseMarkerAlleles(given);
  const tooMany = countProblem(distinct, marker, opts);
  if (tooMany) messages.push(tooMany);
  return messages;
}

/** The allele-count rule of the marker's kind, as a message when broken. */
function countProblem(distinct: readonly string[], marker: AlleleRulesMarker, opts: AlleleRulesOptions): string | null {
  const n = distinct.length;
  const found = `${n} alleles (${distinct.join(', ')})`;
  if (marker.kind === 'YStr') {
    if (marker.multiCopy) return n > MAX_MULTI_COPY ? `${marker.name} is a multi-copy Y-STR marker with ${found}; at most ${MAX_MULTI_COPY} values` : null;
    return n > 1 ? `${marker.name} is a Y-STR marker and takes exactly one allele; found ${found}` : null;
  }
  // Above 40 the list would be unreadable: the count says enough.
  if (opts.mixture) return n > MAX_MIXTURE ? `${marker.name} has ${n} alleles; even a mixture carries at most ${MAX_MIXTURE} per marker` : null;
  return n > MAX_SINGLE_SOURCE ? `${marker.name} has ${found}; a single-source profile has 1 or 2 per marker` : null;
}
