import { enumeratePatterns } from '../patterns';
import { genotypesOf, type SeedFormula } from './types';

const transmission = (parent: string[], allele: string) => (parent.includes(allele) ? (parent.length === 1 ? 1 : 0.5) : 0);

/** The child's genotype split into (maternal, paternal) alleles: a homozygote one way, a heterozygote two. */
const splits = (child: string[]): [string, string][] => (child.length === 1 ? [[child[0]!, child[0]!]] : [[child[0]!, child[1]!], [child[1]!, child[0]!]]);

/**
 * Trio paternity index per locus (mother, child, alleged father): P(C | M, AF) / P(C | M, random man)
 * (Evett & Weir 1998 ch. 8; AABB), written out for each pattern, e.g. M=PQ, C=PQ, AF=PR → 0.5/(0.5*p + 0.5*q).
 * An excluded alleged father gives μ/A (AABB), A the locus's exclusion power; a mother who shares no
 * allele with the child makes the trio inconsistent there, and the locus is read as a duo (child–father X1).
 */
export function trioFormulae(): SeedFormula[] {
  return enumeratePatterns(3).map((pattern) => {
    const [mother, child, father] = genotypesOf(pattern) as [string[], string[], string[]];
    let numerator = 0;
    const denominator: string[] = [];
    for (const [maternal, paternal] of splits(child)) {
      const fromMother = transmission(mother, maternal);
      numerator += fromMother * transmission(father, paternal);
      if (fromMother > 0) denominator.push(`${fromMother}*${paternal.toLowerCase()}`);
    }
    if (denominator.length === 0) return { pattern, expression: duoX1(child, father), isExclusion: null };
    if (numerator === 0) return { pattern, expression: 'mu/A', isExclusion: null };
    return { pattern, expression: `${numerator}/(${denominator.join(' + ')})`, isExclusion: null };
  });
}

/** Parent–child X1 for a child and a parent given as letters (GENETICS.md kinship table). */
function duoX1(child: string[], parent: string[]): string {
  const shared = child.filter((x) => parent.includes(x));
  if (shared.length === 0) return 'mu/A';
  const p = shared[0]!.toLowerCase();
  if (child.length === 1 && parent.length === 1) return `1/${p}`;
  if (child.length === 1 || parent.length === 1) return `1/(2*${p})`;
  if (shared.length === 2) return `(${shared[0]!.toLowerCase()} + ${shared[1]!.toLowerCase()})/(4*${shared[0]!.toLowerCase()}*${shared[1]!.toLowerCase()})`;
  return `1/(4*${p})`;
}
