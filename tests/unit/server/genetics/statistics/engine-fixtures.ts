import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineProfile, PopulationFrequencies } from '../../../../../server/genetics/types';

/** The locus most hand calculations use: P = 10 (p = 0.1), Q = 11 (q = 0.2), R = 12 (r = 0.3), S = 13 (s = 0.05). */
export const FOUR_ALLELES: Record<string, number> = { '10': 0.1, '11': 0.2, '12': 0.3, '13': 0.05 };

/** FOUR_ALLELES as a frequency lookup. */
export const fourAlleleFrequency = (allele: string): number => FOUR_ALLELES[allele]!;

/** A profile from a plain object: marker → alleles. */
export function profile(markers: Record<string, string[]>): EngineProfile {
  return new Map(Object.entries(markers));
}

/** A population from marker → allele → frequency, with an optional sample size (individuals) for every marker. */
export function population(markers: Record<string, Record<string, number>>, sampleSize: number | null = null, minimumAlleleFrequency = 0.001): PopulationFrequencies {
  return {
    name: 'test',
    minimumAlleleFrequency,
    markers: new Map(Object.entries(markers).map(([m, fs]) => [m, { frequencies: new Map(Object.entries(fs)), sampleSize }])),
  };
}

const FREQUENCIES = path.resolve(import.meta.dirname, '../../../../../../shared/data/frequencies');

/** Rows of a comma-separated file without quoting (the layout of shared/data/frequencies/README.md), header dropped. */
function readCsv(file: string): string[][] {
  const lines = readFileSync(path.join(FREQUENCIES, file), 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.slice(1).map((l) => l.split(','));
}

/** One population of the FBI 2015 expanded CODIS data (Moretti et al. 2016), N = n_alleles / 2 individuals. */
export function fbi2015(name: string): PopulationFrequencies {
  const markers = new Map<string, { frequencies: Map<string, number>; sampleSize: number | null }>();
  for (const [pop, marker, allele, frequency] of readCsv('fbi2015.csv')) {
    if (pop !== name) continue;
    if (!markers.has(marker!)) markers.set(marker!, { frequencies: new Map(), sampleSize: null });
    markers.get(marker!)!.frequencies.set(allele!, Number(frequency));
  }
  for (const [pop, marker, nAlleles] of readCsv('fbi2015-n.csv')) {
    const entry = pop === name ? markers.get(marker!) : undefined;
    if (entry) entry.sampleSize = Number(nAlleles) / 2;
  }
  return { name, markers, minimumAlleleFrequency: 0.001 };
}
