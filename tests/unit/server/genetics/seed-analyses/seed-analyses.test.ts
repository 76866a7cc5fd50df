/**
 * The seed analyses are data (GENETICS.md "Seed analyses"): every pattern their roles can produce has
 * a formula that parses and names only known letters and constants, and each formula table gives the
 * same number as the engine's independent implementation of its source formula.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ENGINE_VARIABLES } from '../../../../../server/genetics/engine-variables';
import { evaluate, parseExpression, validateExpression } from '../../../../../server/genetics/expressions';
import { canonicalPattern, enumeratePatterns, frequencyLettersOf } from '../../../../../server/genetics/patterns';
import { SEED_ANALYSIS_GROUPS, type SeedAnalysis } from '../../../../../server/genetics/seed-analyses';
import { kinshipLocusLikelihoodRatio, matchProbability, mutationIndex, trioLocusIndex } from '../../../../../server/genetics/statistics';
import { analysisHypotheses, pedigreeLr } from '../../../../../server/genetics/pedigree';
import type { PopulationFrequencies } from '../../../../../server/genetics/types';

const ALL = SEED_ANALYSIS_GROUPS.flatMap((g) => g.analyses);
const TABLES = ALL.filter((a) => a.kind !== 'Pedigree');
const byName = (name: string) => ALL.find((a) => a.name === name)!;
const A = 0.73; // an exclusion power, as the engine would supply per marker

/** The seed table's value for these genotypes: canonical pattern → its formula, evaluated with the alleles' frequencies. */
function tableValue(analysis: SeedAnalysis, genotypes: string[][], freq: (allele: string) => number): number {
  const { pattern, alleles } = canonicalPattern(genotypes, { ploidy: analysis.profileKind === 'YStr' ? 'haploid' : 'diploid' });
  const formula = analysis.formulae.find((f) => f.pattern === pattern)!;
  const letters = Object.fromEntries([...alleles].map(([letter, allele]) => [letter.toLowerCase(), freq(allele)]));
  const constants = { ...Object.fromEntries(analysis.constants.map((c) => [c.name, c.value])), A };
  return evaluate(parseExpression(formula.expression!), { letters, constants });
}

// Genotypes over four alleles with frequencies that sum below 1, as at a real locus.
const ALLELES = ['11', '12', '13', '14'];
const FREQUENCIES: Record<string, number> = { '11': 0.31, '12': 0.22, '13': 0.08, '14': 0.037 };
const freq = (a: string) => FREQUENCIES[a]!;
const genotype = fc.uniqueArray(fc.constantFrom(...ALLELES), { minLength: 1, maxLength: 2 }).map((g) => [...g].sort());
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

describe('the seed analyses', () => {
  it('ship the groups and analyses GENETICS.md names', () => {
    expect(ALL.map((a) => a.name)).toEqual([
      'Identity',
      'Parent–child',
      'Paternity trio',
      'Full siblings',
      'Half siblings / second degree',
      'First cousins',
      'Parent–child exclusion',
      'Y-STR lineage',
      'Y-STR haplotype frequency',
      'Mother and full sister',
      'Both parents',
      'Paternal grandparents',
      'Half-brother and uncle',
      'Father and child',
      'Wife and two children',
    ]);
    expect(byName('Identity').constants).toEqual([{ name: 'theta', notation: '\\theta', value: 0.01 }]);
  });

  it.each(TABLES.map((a) => [a.name, a] as const))('%s has a valid formula for every pattern its roles can produce, and no other', (_, analysis) => {
    const expected = enumeratePatterns(analysis.roles.length, { ploidy: analysis.profileKind === 'YStr' ? 'haploid' : 'diploid' });
    expect(analysis.formulae.map((f) => f.pattern).sort()).toEqual(expected);
    for (const formula of analysis.formulae) {
      if (analysis.kind === 'Exclusion') {
        expect(formula.isExclusion, formula.pattern).not.toBeNull();
        continue;
      }
      const problems = validateExpression(parseExpression(formula.expression!), {
        letters: frequencyLettersOf(formula.pattern),
        constants: [...analysis.constants.map((c) => c.name), ...Object.keys(ENGINE_VARIABLES)],
      });
      expect(problems, `${analysis.name} ${formula.pattern}`).toEqual([]);
    }
  });

  it('Identity equals 1 / the NRC II 4.10 match probability (θ = 0.01) for equal genotypes, 0 otherwise', () => {
    fc.assert(
      fc.property(genotype, genotype, (g1, g2) => {
        const same = g1.join() === g2.join();
        const expected = same ? 1 / matchProbability(g1.map(freq) as [number] | [number, number], 0.01) : 0;
        return close(tableValue(byName('Identity'), [g1, g2], freq), expected);
      }),
    );
  });

  it.each([
    ['Full siblings', { k0: 0.25, k1: 0.5, k2: 0.25 }],
    ['Half siblings / second degree', { k0: 0.5, k1: 0.5, k2: 0 }],
    ['First cousins', { k0: 0.75, k1: 0.25, k2: 0 }],
  ] as const)('%s equals κ0 + κ1·X1 + κ2·X2 (Evett & Weir 1998 ch. 7)', (name, kappa) => {
    fc.assert(fc.property(genotype, genotype, (g1, g2) => close(tableValue(byName(name), [g1, g2], freq), kinshipLocusLikelihoodRatio(g1, g2, freq, kappa))));
  });

  it('Parent–child equals X1, and μ/A where no allele is shared (AABB)', () => {
    fc.assert(
      fc.property(genotype, genotype, (child, parent) => {
        const x1 = kinshipLocusLikelihoodRatio(child, parent, freq, { k0: 0, k1: 1, k2: 0 });
        const expected = x1 === 0 ? mutationIndex(0.002, A) : x1;
        return close(tableValue(byName('Parent–child'), [child, parent], freq), expected);
      }),
    );
  });

  it('Paternity trio equals P(C | M, AF) / P(C | M, random man), μ/A when the father is excluded (Evett & Weir 1998 ch. 8)', () => {
    // The check of GENETICS.md: M = PQ, C = PQ gives (t_P + t_Q)/(p + q).
    expect(close(tableValue(byName('Paternity trio'), [['11', '12'], ['11', '12'], ['11', '13']], freq), 0.5 / (0.31 + 0.22))).toBe(true);
    fc.assert(
      fc.property(genotype, genotype, genotype, (mother, child, father) => {
        const index = trioLocusIndex(mother, child, father, freq);
        fc.pre(index !== null); // a mother who shares no allele with the child is read as a duo (tested below)
        const expected = index === 0 ? mutationIndex(0.002, A) : index;
        return close(tableValue(byName('Paternity trio'), [mother, child, father], freq), expected);
      }),
    );
    // Mother inconsistent: the child–father duo row.
    expect(close(tableValue(byName('Paternity trio'), [['13'], ['11', '12'], ['11', '14']], freq), 1 / (4 * 0.31))).toBe(true);
  });

  it('the exclusion analyses exclude exactly where no allele is shared', () => {
    const pc = byName('Parent–child exclusion').formulae;
    expect(pc.filter((f) => f.isExclusion).map((f) => f.pattern)).toEqual(['PP-QQ', 'PP-QR', 'PQ-RR', 'PQ-RS']);
    expect(byName('Y-STR lineage').formulae).toEqual([
      { pattern: 'P-P', expression: null, isExclusion: false },
      { pattern: 'P-Q', expression: null, isExclusion: true },
    ]);
  });

  it('every seed pedigree holds its roles, the tested person among them, and the family shapes have no formula table', () => {
    const withPedigree = ALL.filter((a) => a.pedigree);
    expect(withPedigree.map((a) => a.name)).toEqual(['Parent–child', 'Paternity trio', 'Full siblings', 'Half siblings / second degree', 'First cousins', ...ALL.filter((a) => a.kind === 'Pedigree').map((a) => a.name)]);
    for (const a of withPedigree) expect(() => analysisHypotheses(a.pedigree!, a.roles), a.name).not.toThrow();
    for (const a of ALL.filter((x) => x.kind === 'Pedigree')) {
      expect(a.formulae, a.name).toEqual([]);
      expect(a.roles[0]).toBe('Missing person');
      expect(a.mutation!.male.model).toBe('stepwise');
    }
  });

  // The founders' alleles must sum to 1 for a pedigree likelihood: a fifth allele carries the rest.
  const POPULATION: PopulationFrequencies = {
    name: 'test',
    minimumAlleleFrequency: 0.001,
    markers: new Map([['M', { sampleSize: null, frequencies: new Map([...Object.entries(FREQUENCIES), ['15', 1 - Object.values(FREQUENCIES).reduce((s, f) => s + f, 0)]]) }]]),
  };
  const NONE = { female: { model: 'trivial' as const }, male: { model: 'trivial' as const } };
  const pedigreeValue = (analysis: SeedAnalysis, genotypes: string[][]) => {
    const { h1, h2 } = analysisHypotheses(analysis.pedigree!, analysis.roles);
    const typed = new Map(analysis.roles.map((r, i) => [r, genotypes[i]!] as const));
    return pedigreeLr(h1, h2, new Map([['M', typed]]), POPULATION, NONE).lr;
  };

  it.each(['Full siblings', 'Half siblings / second degree', 'First cousins', 'Parent–child'])(
    'without a mutation model the pedigree of %s gives its formula table exactly where the relationship is consistent (issue 16 invariant)',
    (name) => {
      fc.assert(
        fc.property(genotype, genotype, (g1, g2) => {
          const table = tableValue(byName(name), [g1, g2], freq);
          const lr = pedigreeValue(byName(name), [g1, g2]);
          return name === 'Parent–child' && kinshipLocusLikelihoodRatio(g1, g2, freq, { k0: 0, k1: 1, k2: 0 }) === 0 ? lr === 0 : close(lr, table);
        }),
      );
    },
  );

  it('without a mutation model the paternity trio pedigree gives the trio index, 0 where the father is excluded', () => {
    fc.assert(
      fc.property(genotype, genotype, genotype, (mother, child, father) => {
        const index = trioLocusIndex(mother, child, father, freq);
        fc.pre(index !== null);
        return close(pedigreeValue(byName('Paternity trio'), [mother, child, father]), index!);
      }),
    );
  });
});
