import { fbi2015Population, profileGenerator, seededRandom } from '../../bench/synthetic-profiles';

type Genotype = readonly string[];
export type Genotypes = Map<string, Genotype>;

const sorted = (a: string, b: string): Genotype => (a === b ? [a] : [a, b].sort((x, y) => parseFloat(x) - parseFloat(y)));

/**
 * A missing son, his mother and a full sister, drawn from the FBI 2015 Caucasian frequencies (the father untyped),
 * with one maternal mutation at FGA: the son carries his mother's first FGA allele one repeat longer.
 */
export function missingPersonFamily(seed: number): { mother: Genotypes; sister: Genotypes; missing: Genotypes } {
  const generate = profileGenerator(fbi2015Population('Caucasian'), seed);
  const random = seededRandom(seed + 1);
  const pick = (g: Genotype) => g[random() < 0.5 ? 0 : g.length - 1]!;
  const [father, mother] = [generate(), generate()];
  const sister: Genotypes = new Map();
  const missing: Genotypes = new Map();
  for (const [marker, m] of mother) {
    const f = father.get(marker)!;
    sister.set(marker, sorted(pick(f), pick(m)));
    let fromMother = pick(m);
    if (marker === 'FGA') {
      fromMother = String(parseFloat(m[0]!) + 1);
      if (m.includes(fromMother)) fromMother = String(parseFloat(m[m.length - 1]!) + 1);
    }
    missing.set(marker, sorted(pick(f), fromMother));
  }
  return { mother, sister, missing };
}

/** Profiles as a GeneMapper reference table (SampleName,Marker,Allele1,Allele2). */
export const referenceTable = (samples: Record<string, Genotypes>) =>
  ['SampleName,Marker,Allele1,Allele2', ...Object.entries(samples).flatMap(([name, g]) => [...g].map(([m, a]) => `${name},${m},${a[0]},${a[a.length - 1]}`))].join('\n');
