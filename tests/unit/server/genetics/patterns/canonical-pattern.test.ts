import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalPattern,
  canonicalPatternText,
  enumeratePatterns,
  frequencyLettersOf,
  PatternError,
} from '../../../../../server/genetics/patterns';

const mapping = (genotypes: string[][], options = {}) => Object.fromEntries(canonicalPattern(genotypes, options).alleles);

describe('canonical allele expressions (GENETICS.md "Analyses are data")', () => {
  it('labels a shared allele P: child 12/14 with father 14/15 is PQ-PR with P = 14, Q = 12, R = 15', () => {
    const result = canonicalPattern([['12', '14'], ['14', '15']]);
    expect(result.pattern).toBe('PQ-PR');
    expect(Object.fromEntries(result.alleles)).toEqual({ P: '14', Q: '12', R: '15' });
  });

  it('writes a homozygote as PP whether given once or twice', () => {
    expect(canonicalPattern([['12'], ['12', '13']]).pattern).toBe('PP-PQ');
    expect(canonicalPattern([['12', '12'], ['12', '13']]).pattern).toBe('PP-PQ');
    expect(canonicalPattern([['12', '13'], ['13']]).pattern).toBe('PQ-PP');
    expect(mapping([['12', '13'], ['13']])).toEqual({ P: '13', Q: '12' });
  });

  it('gives the textbook kinship patterns for two people', () => {
    expect(canonicalPattern([['9.3'], ['9.3']]).pattern).toBe('PP-PP');
    expect(canonicalPattern([['8'], ['9.3']]).pattern).toBe('PP-QQ');
    expect(canonicalPattern([['8'], ['9.3', '10']]).pattern).toBe('PP-QR');
    expect(canonicalPattern([['14', '12'], ['12', '14']]).pattern).toBe('PQ-PQ');
    expect(canonicalPattern([['12', '14'], ['15', '16']]).pattern).toBe('PQ-RS');
    expect(canonicalPattern([['12', '14'], ['15']]).pattern).toBe('PQ-RR');
  });

  it('resolves ties by later roles: a trio mother 12/14, child 12/14, father 14/15 is PQ-PQ-PR with P = 14', () => {
    const result = canonicalPattern([['12', '14'], ['12', '14'], ['14', '15']]);
    expect(result.pattern).toBe('PQ-PQ-PR');
    expect(result.alleles.get('P')).toBe('14');
  });

  it('gives a symmetric genotype pair one mapping, the smaller allele first, whatever the input order', () => {
    expect(mapping([['14', '12'], ['14', '12']])).toEqual({ P: '12', Q: '14' });
    expect(mapping([['X', 'Y']])).toEqual({ P: 'X', Q: 'Y' });
  });

  it('keeps lab markings as alleles of their own', () => {
    expect(canonicalPattern([['OL', '12'], ['12']]).pattern).toBe('PQ-PP');
  });

  it('writes single-copy Y-STR alleles as one letter per role', () => {
    expect(canonicalPattern([['14'], ['14']], { ploidy: 'haploid' }).pattern).toBe('P-P');
    expect(canonicalPattern([['14'], ['15']], { ploidy: 'haploid' }).pattern).toBe('P-Q');
  });

  it('refuses what the language cannot express, saying which role', () => {
    expect(() => canonicalPattern([['12', '13', '14']])).toThrow(/Role 1 has 3 alleles/);
    expect(() => canonicalPattern([['12'], []])).toThrow(/Role 2 has no allele/);
    expect(() => canonicalPattern([['12', '13']], { ploidy: 'haploid' })).toThrow(/haploid pattern allows at most 1/);
    expect(() => canonicalPattern([])).toThrow(PatternError);
    expect(() => canonicalPattern([['1', '2'], ['3', '4'], ['5', '6'], ['7']])).toThrow(/7 distinct alleles/);
  });

  it('lists the frequency letters a pattern’s formula may use', () => {
    expect(frequencyLettersOf('PQ-PR')).toEqual(['p', 'q', 'r']);
    expect(frequencyLettersOf('PP-PP')).toEqual(['p']);
  });

  it('canonicalises allele expressions typed by a person', () => {
    expect(canonicalPatternText('pr-pq')).toBe('PQ-PR');
    expect(canonicalPatternText(' QQ – PQ ')).toBe('PP-PQ');
    expect(canonicalPatternText('Q-P', { ploidy: 'haploid' })).toBe('P-Q');
    expect(() => canonicalPatternText('PQ-PX')).toThrow(/Role 2 of "PQ-PX" is "PX"/);
    expect(() => canonicalPatternText('PQR')).toThrow(/expected two letters/);
  });
});

describe('every pattern a set of roles can produce', () => {
  it('one diploid role: PP, PQ', () => {
    expect(enumeratePatterns(1)).toEqual(['PP', 'PQ']);
  });

  it('two diploid roles: the nine kinship patterns', () => {
    expect(enumeratePatterns(2)).toEqual(['PP-PP', 'PP-PQ', 'PP-QQ', 'PP-QR', 'PQ-PP', 'PQ-PQ', 'PQ-PR', 'PQ-RR', 'PQ-RS']);
  });

  it('three diploid roles: every entry is canonical and distinct, including the trio PQ-PQ-PR', () => {
    const patterns = enumeratePatterns(3);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns).toContain('PQ-PQ-PR');
    expect(patterns).toContain('PQ-RS-TU');
    expect(patterns).not.toContain('PQ-PQ-QR');
    for (const pattern of patterns) expect(canonicalPatternText(pattern)).toBe(pattern);
  });

  it('haploid roles: P-P and P-Q for two; five for three', () => {
    expect(enumeratePatterns(2, { ploidy: 'haploid' })).toEqual(['P-P', 'P-Q']);
    expect(enumeratePatterns(3, { ploidy: 'haploid' })).toEqual(['P-P-P', 'P-P-Q', 'P-Q-P', 'P-Q-Q', 'P-Q-R']);
  });

  it('refuses role counts whose alleles exceed the six letters', () => {
    expect(() => enumeratePatterns(4)).toThrow(/at most 6/);
    expect(() => enumeratePatterns(0)).toThrow(PatternError);
  });
});

// Alleles drawn from a small pool so that roles share alleles often.
const allele = fc.constantFrom('8', '9', '9.3', '10', '11', '12', '13', '14', 'X', 'OL');
const genotype = fc.oneof(
  allele.map((a) => [a]),
  fc.uniqueArray(allele, { minLength: 2, maxLength: 2 }),
);
const roles = (max: number) => fc.array(genotype, { minLength: 1, maxLength: max }).filter((gs) => new Set(gs.flat()).size <= 6);
const renameAll = (genotypes: string[][], rename: (a: string) => string) => genotypes.map((g) => g.map(rename));

describe('canonical labelling, properties', () => {
  it('is idempotent: canonicalising the pattern’s own letters gives the same pattern', () => {
    fc.assert(
      fc.property(roles(4), (genotypes) => {
        const { pattern } = canonicalPattern(genotypes);
        expect(canonicalPatternText(pattern)).toBe(pattern);
      }),
    );
  });

  it('is invariant under renaming the alleles, and the mapping follows the renaming', () => {
    fc.assert(
      fc.property(roles(4), fc.integer({ min: 1, max: 50 }), (genotypes, shift) => {
        const rename = (a: string) => `${a}#${shift}`;
        const original = canonicalPattern(genotypes);
        const renamed = canonicalPattern(renameAll(genotypes, rename));
        expect(renamed.pattern).toBe(original.pattern);
        // Substituting the mapping back reproduces the genotypes.
        const alleleOf = renamed.alleles;
        const roleTexts = renamed.pattern.split('-');
        roleTexts.forEach((letters, i) => {
          const alleles = new Set([...letters].map((l) => alleleOf.get(l as 'P')));
          expect(alleles).toEqual(new Set(genotypes[i]!.map(rename)));
        });
      }),
    );
  });

  it('ignores the order of alleles within each genotype, pattern and mapping alike', () => {
    fc.assert(
      fc.property(roles(4), (genotypes) => {
        const swapped = genotypes.map((g) => [...g].reverse());
        expect(canonicalPattern(swapped)).toEqual(canonicalPattern(genotypes));
      }),
    );
  });

  it('equals the definition computed independently: the smallest first-appearance string over every labelling and order', () => {
    fc.assert(
      fc.property(roles(3), (genotypes) => {
        expect(canonicalPattern(genotypes).pattern).toBe(smallestByDefinition(genotypes));
      }),
      { numRuns: 60 },
    );
  });

  it.each([1, 2, 3])('the enumeration for %i roles contains the pattern of any genotypes', (count) => {
    const patterns = new Set(enumeratePatterns(count));
    fc.assert(
      fc.property(fc.array(genotype, { minLength: count, maxLength: count }), (genotypes) => {
        expect(patterns.has(canonicalPattern(genotypes).pattern)).toBe(true);
      }),
    );
  });
});

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** The definition, by brute force: any letter for any allele, any order within a genotype, letters introduced P, Q, R…. */
function smallestByDefinition(genotypes: string[][]): string {
  const distinct = [...new Set(genotypes.flat())];
  let best: string | null = null;
  for (const order of permutations(distinct)) {
    const letter = (a: string) => 'PQRSTU'[order.indexOf(a)]!;
    for (let mask = 0; mask < 2 ** genotypes.length; mask++) {
      const text = genotypes
        .map((g, i) => {
          const alleles = [...new Set(g)];
          const ordered = mask & (2 ** i) ? [...alleles].reverse() : alleles;
          return ordered.length === 1 ? letter(ordered[0]!).repeat(2) : ordered.map(letter).join('');
        })
        .join('-');
      const introduced = [...new Set(text.replaceAll('-', ''))].join('');
      if (introduced === 'PQRSTU'.slice(0, introduced.length) && (best === null || text < best)) best = text;
    }
  }
  return best!;
}
