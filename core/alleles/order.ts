import { parseAllele, type ParsedAllele } from './allele';

/** Sort key: group (numbers, X/Y, markings, invalid), then two integers, then the text; no float is involved. */
function sortKey(allele: ParsedAllele): [number, number, number] {
  switch (allele.kind) {
    case 'integer':
    case 'microvariant': {
      const [whole, fraction = '0'] = allele.text.split('.');
      return [0, Number(whole), Number(fraction)];
    }
    case 'sex':
      return [1, allele.text === 'X' ? 0 : 1, 0];
    case 'marking': {
      // Ranges keep the SWGDAM order among themselves: <9 before >9 before <10.
      const range = /^([<>])(\d+)/.exec(allele.text);
      return range ? [2, Number(range[2]), range[1] === '<' ? 0 : 1] : [3, 0, 0];
    }
    case 'invalid':
      return [4, 0, 0];
  }
}

/** Sort keys by designation, each made once: searches order the same few hundred designations millions of times (issue 29). */
const KEYS = new Map<string, readonly [number, number, number]>();
/** Designations remembered at most (free text must not grow it without bound). */
const KEYS_LIMIT = 10_000;

function keyOf(allele: string): readonly [number, number, number] {
  let key = KEYS.get(allele);
  if (key === undefined) {
    if (KEYS.size >= KEYS_LIMIT) KEYS.clear();
    KEYS.set(allele, (key = sortKey(parseAllele(allele))));
  }
  return key;
}

/** Canonical order of designations: numeric (9, 9.1, 9.3, 10), then X before Y, then markings (<8, >21, OL…). */
export function compareAlleles(a: string, b: string): number {
  const ka = keyOf(a);
  const kb = keyOf(b);
  for (let i = 0; i < ka.length; i++) {
    const d = ka[i]! - kb[i]!;
    if (d !== 0) return d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The canonical form of a marker's alleles, as stored and compared: normalised (parseAllele), blanks
 * dropped, each designation once (a homozygote written `12, 12` is `12`), in compareAlleles order.
 */
export function normaliseMarkerAlleles(alleles: readonly string[]): string[] {
  const texts = alleles.map((a) => parseAllele(a).text).filter((t) => t !== '');
  return [...new Set(texts)].sort(compareAlleles);
}
