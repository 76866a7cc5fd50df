import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Papa from 'papaparse';
import type { Genotype, MarkerFrequencies, PopulationFrequencies } from '../server/genetics/types';

/** The 20 CODIS core loci (FBI 2017 expanded core; Moretti et al. 2016). */
export const CODIS_CORE = [
  'CSF1PO', 'D3S1358', 'D5S818', 'D7S820', 'D8S1179', 'D13S317', 'D16S539', 'D18S51', 'D21S11', 'FGA',
  'TH01', 'TPOX', 'vWA', 'D1S1656', 'D2S441', 'D2S1338', 'D10S1248', 'D12S391', 'D19S433', 'D22S1045',
] as const;

const DATA = path.resolve(import.meta.dirname, '../../shared/data/frequencies');

import { seededRandom } from '../core/seeded-random';

export { seededRandom };

function readCsv(file: string): Record<string, string>[] {
  return Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: true }).data;
}

/** A made-up distribution (10 alleles per marker, 8 … 17, falling frequencies) when the FBI file is absent. */
function syntheticFrequencies(): PopulationFrequencies {
  const weights = Array.from({ length: 10 }, (_, i) => 1 / (i + 2));
  const total = weights.reduce((a, b) => a + b, 0);
  const markers = new Map<string, MarkerFrequencies>(
    CODIS_CORE.map((m) => [m, { frequencies: new Map(weights.map((w, i) => [String(8 + i), w / total])), sampleSize: 1000 }]),
  );
  return { name: 'Synthetic', markers, minimumAlleleFrequency: 0.001 };
}

/**
 * A population's allele frequencies on the CODIS core from FBI 2015 (../shared/data/frequencies/fbi2015.csv,
 * Moretti et al. 2016) with the sample sizes of fbi2015-n.csv; a synthetic distribution without the file.
 */
export function fbi2015Population(population = 'Caucasian'): PopulationFrequencies & { source: 'FBI 2015' | 'synthetic' } {
  const file = path.join(DATA, 'fbi2015.csv');
  if (!existsSync(file)) return { ...syntheticFrequencies(), source: 'synthetic' };
  const sizes = new Map<string, number>();
  const nFile = path.join(DATA, 'fbi2015-n.csv');
  // n_alleles counts chromosomes; NRC II's 5/(2N) takes N individuals.
  if (existsSync(nFile)) for (const row of readCsv(nFile)) if (row.population === population) sizes.set(row.marker!, Number(row.n_alleles) / 2);
  const markers = new Map<string, { frequencies: Map<string, number>; sampleSize: number | null }>();
  for (const row of readCsv(file)) {
    if (row.population !== population || !(CODIS_CORE as readonly string[]).includes(row.marker!)) continue;
    if (!markers.has(row.marker!)) markers.set(row.marker!, { frequencies: new Map(), sampleSize: sizes.get(row.marker!) ?? null });
    markers.get(row.marker!)!.frequencies.set(row.allele!, Number(row.frequency));
  }
  return { name: `FBI 2015 ${population}`, markers, minimumAlleleFrequency: 0.001, source: 'FBI 2015' };
}

/** Draws genotypes by the population's frequencies (Hardy–Weinberg: two independent alleles per marker). */
export function profileGenerator(population: PopulationFrequencies, seed: number): () => Map<string, Genotype> {
  const random = seededRandom(seed);
  const tables = [...population.markers].map(([marker, f]) => {
    const alleles = [...f.frequencies.keys()];
    const total = [...f.frequencies.values()].reduce((a, b) => a + b, 0);
    let running = 0;
    return { marker, alleles, cumulative: [...f.frequencies.values()].map((p) => (running += p / total)) };
  });
  const draw = (t: (typeof tables)[number]) => {
    const u = random();
    const i = t.cumulative.findIndex((c) => u < c);
    return t.alleles[i < 0 ? t.alleles.length - 1 : i]!;
  };
  return () =>
    new Map(
      tables.map((t) => {
        const pair = [draw(t), draw(t)].sort((a, b) => Number(a) - Number(b));
        return [t.marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
      }),
    );
}

/** A full sibling of a profile: each parent passes one allele, drawn from a made-up parent pair sharing the profile's alleles. */
export function siblingOf(profile: ReadonlyMap<string, Genotype>, population: PopulationFrequencies, seed: number): Map<string, Genotype> {
  const random = seededRandom(seed);
  const fresh = profileGenerator(population, seed + 1)();
  return new Map(
    [...profile].map(([marker, g]) => {
      // A sibling shares 0, 1 or 2 alleles IBD with probability ¼, ½, ¼.
      const u = random();
      const mine = [g[0]!, g[g.length - 1]!];
      const other = fresh.get(marker) ?? g;
      const pair = u < 0.25 ? [other[0]!, other[other.length - 1]!] : u < 0.75 ? [mine[0]!, other[0]!] : mine;
      const sorted = pair.sort((a, b) => Number(a) - Number(b));
      return [marker, sorted[0] === sorted[1] ? [sorted[0]!] : sorted] as [string, Genotype];
    }),
  );
}

/**
 * NIST 1036 frequencies (../shared/data/frequencies/nist1036.csv, Hill et al.) on the first `count` of its markers in
 * file order, CODIS core first: a 24-marker population for the mixture table benchmark (FBI 2015 has 23).
 */
export function nist1036Population(count: number, population = 'Cauc'): PopulationFrequencies {
  const markers = new Map<string, { frequencies: Map<string, number>; sampleSize: number | null }>();
  const rows = readCsv(path.join(DATA, 'nist1036.csv')).filter((r) => r.population === population);
  const names = [...new Set([...CODIS_CORE.filter((m) => rows.some((r) => r.marker === m)), ...rows.map((r) => r.marker!)])].slice(0, count);
  for (const row of rows) {
    if (!names.includes(row.marker!)) continue;
    if (!markers.has(row.marker!)) markers.set(row.marker!, { frequencies: new Map(), sampleSize: null });
    markers.get(row.marker!)!.frequencies.set(row.allele!, Number(row.frequency));
  }
  return { name: `NIST 1036 ${population}`, markers, minimumAlleleFrequency: 0.001 };
}

/** Parents of a profile (each gives it one allele and has one more from the population) and a full sister: a missing person's typed family. */
export function familyOf(person: ReadonlyMap<string, Genotype>, population: PopulationFrequencies, seed: number): Map<string, Map<string, Genotype>> {
  const random = seededRandom(seed);
  const [fatherOther, motherOther] = [profileGenerator(population, seed + 1)(), profileGenerator(population, seed + 2)()];
  const sorted = (a: string, b: string): Genotype => (a === b ? [a] : [a, b].sort((x, y) => Number(x) - Number(y)));
  const pick = (g: Genotype) => g[random() < 0.5 ? 0 : g.length - 1]!;
  const father = new Map<string, Genotype>();
  const mother = new Map<string, Genotype>();
  const sister = new Map<string, Genotype>();
  for (const [marker, g] of person) {
    father.set(marker, sorted(g[0]!, pick(fatherOther.get(marker)!)));
    mother.set(marker, sorted(g[g.length - 1]!, pick(motherOther.get(marker)!)));
    sister.set(marker, sorted(pick(father.get(marker)!), pick(mother.get(marker)!)));
  }
  return new Map([['father', father], ['mother', mother], ['sister', sister]]);
}
