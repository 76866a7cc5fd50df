import { seededRandom } from '../../../../core/seeded-random';

// SYNTHETIC DATA. These frequencies are generated, not observed: Locus ships no real population data,
// because a laboratory must compute with the frequencies it has validated for its own population and uploads
// them itself. This population only lets a demo installation run a search end to end; its name says so, and
// no number computed from it may appear in casework. The allele lists are plausible ranges (common ladder
// alleles, STRBase), the shape a bell around a typical mode with seeded noise.

/** The name of the synthetic demo population; it says the data is not for casework. */
export const SYNTHETIC_POPULATION_NAME = 'Synthetic demo population (not for casework)';

/** The sample size the synthetic population claims per marker (so the minimum frequency 5/2N is 0.005). */
export const SYNTHETIC_SAMPLE_SIZE = 500;

/** A population's frequencies for one marker: canonical marker name, N and each allele's frequency. */
export interface PopulationMarkerFrequencies {
  marker: string;
  sampleSize: number;
  alleles: { allele: string; frequency: number }[];
}

/** A population as the seed writes it. */
export interface SeedPopulation {
  name: string;
  markers: PopulationMarkerFrequencies[];
}

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** Alleles per marker, the repeat number the weights peak at, their spread, and how much rarer a microvariant is. */
const SHAPES: readonly { marker: string; alleles: readonly string[]; mode: number; spread: number; micro?: number }[] = [
  { marker: 'CSF1PO', alleles: range(7, 15), mode: 11, spread: 1.4 },
  {
    marker: 'D1S1656',
    alleles: ['10', '11', '12', '13', '14', '14.3', '15', '15.3', '16', '16.3', '17', '17.3', '18', '18.3', '19.3'],
    mode: 15,
    spread: 2,
    micro: 0.6,
  },
  { marker: 'D2S441', alleles: ['9', '10', '11', '11.3', '12', '13', '14', '15', '16'], mode: 11.5, spread: 1.5 },
  { marker: 'D2S1338', alleles: range(15, 27), mode: 20, spread: 2.5 },
  { marker: 'D3S1358', alleles: range(12, 19), mode: 15.5, spread: 1.3 },
  { marker: 'D5S818', alleles: range(7, 16), mode: 11.5, spread: 1.3 },
  { marker: 'D7S820', alleles: range(6, 14), mode: 10, spread: 1.3 },
  { marker: 'D8S1179', alleles: range(8, 18), mode: 13, spread: 1.5 },
  { marker: 'D10S1248', alleles: range(10, 17), mode: 13.5, spread: 1.3 },
  {
    marker: 'D12S391',
    alleles: ['15', '16', '17', '17.3', '18', '18.3', '19', '19.3', '20', '21', '22', '23', '24', '25'],
    mode: 19.5,
    spread: 2,
  },
  { marker: 'D13S317', alleles: range(8, 15), mode: 11.5, spread: 1.4 },
  { marker: 'D16S539', alleles: range(8, 15), mode: 11.5, spread: 1.3 },
  { marker: 'D18S51', alleles: ['10', '11', '12', '13', '13.2', '14', '14.2', ...range(15, 24)], mode: 15, spread: 2.5 },
  {
    marker: 'D19S433',
    alleles: ['11', '12', '12.2', '13', '13.2', '14', '14.2', '15', '15.2', '16', '16.2', '17'],
    mode: 14,
    spread: 1.3,
  },
  {
    marker: 'D21S11',
    alleles: ['26', '27', '28', '29', '29.2', '30', '30.2', '31', '31.2', '32', '32.2', '33', '33.2', '34', '34.2', '35'],
    mode: 30,
    spread: 1.6,
    micro: 0.6,
  },
  { marker: 'D22S1045', alleles: range(10, 18), mode: 15.5, spread: 1.5 },
  {
    marker: 'FGA',
    alleles: ['18', '19', '20', '21', '21.2', '22', '22.2', '23', '23.2', '24', '25', '26', '27', '28', '29', '30'],
    mode: 22.5,
    spread: 2,
  },
  { marker: 'TH01', alleles: ['5', '6', '7', '8', '9', '9.3', '10'], mode: 7.5, spread: 1.5, micro: 1.5 },
  { marker: 'TPOX', alleles: range(6, 13), mode: 9, spread: 1.3 },
  { marker: 'vWA', alleles: range(13, 21), mode: 16.5, spread: 1.3 },
  { marker: 'Penta D', alleles: range(6, 16), mode: 10.5, spread: 1.8 },
  { marker: 'Penta E', alleles: range(5, 21), mode: 12, spread: 3 },
  {
    marker: 'SE33',
    alleles: [...range(13, 20), '20.2', '21', '21.2', '22.2', '23.2', '24.2', '25.2', '26.2', '27.2', '28.2', '29.2', '30.2', '31.2'],
    mode: 22,
    spread: 4.5,
    micro: 1,
  },
];

/** Frequencies are whole multiples of 1/UNITS, i.e. rounded to 4 decimals. */
const UNITS = 10_000;
/** The smallest frequency written, 0.001, in units. */
const MIN_UNITS = 10;


/**
 * A deterministic, clearly synthetic population over the CODIS core, ESS, Penta D/E and SE33 markers
 * (see the note at the top of this file). Per marker the frequencies are rounded to 4 decimals, each is at
 * least 0.001 and they sum to exactly 1 (the largest absorbs the rounding). The same seed gives the same data.
 */
export function syntheticDemoPopulation(seed: number): SeedPopulation {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`The seed must be an integer, got ${seed}.`);
  const random = seededRandom(seed);
  const markers = SHAPES.map(({ marker, alleles, mode, spread, micro = 0.35 }) => {
    const weights = alleles.map((allele) => {
      const repeats = Number(allele);
      const bell = Math.exp(-((repeats - mode) ** 2) / (2 * spread ** 2));
      return bell * (Number.isInteger(repeats) ? 1 : micro) * (0.6 + 0.8 * random());
    });
    const total = weights.reduce((a, b) => a + b, 0);
    const units = weights.map((w) => Math.max(MIN_UNITS, Math.round((w / total) * UNITS)));
    const largest = units.indexOf(Math.max(...units));
    units[largest]! += UNITS - units.reduce((a, b) => a + b, 0);
    return {
      marker,
      sampleSize: SYNTHETIC_SAMPLE_SIZE,
      alleles: alleles.map((allele, i) => ({ allele, frequency: units[i]! / UNITS })),
    };
  });
  return { name: SYNTHETIC_POPULATION_NAME, markers };
}
