import { describe, expect, it } from 'vitest';
import { buildMarkerResolver } from '../../../../../server/db/seed/reference/marker-names';
import { CODIS_CORE_MARKERS, ESS_MARKERS, SEED_MARKERS } from '../../../../../server/db/seed/reference/markers';
import { syntheticDemoPopulation } from '../../../../../server/db/seed/reference/synthetic-population';

const population = syntheticDemoPopulation(20_260_101);
const byMarker = (name: string) => population.markers.find((m) => m.marker === name)!;
/** A frequency in whole units of 0.0001 (the 4-decimal grid). */
const units = (f: number) => Math.round(f * 10_000);

describe('synthetic demo population', () => {
  it('says in its name that it is not for casework', () => {
    expect(population.name).toBe('Synthetic demo population (not for casework)');
  });

  it('covers the CODIS core, the ESS, Penta D, Penta E and SE33, once each, by canonical name', () => {
    const resolve = buildMarkerResolver(SEED_MARKERS.map((m) => ({ ...m, id: m.name })));
    const names = population.markers.map((m) => m.marker);
    const expected = new Set<string>([...CODIS_CORE_MARKERS, ...ESS_MARKERS, 'Penta D', 'Penta E', 'SE33']);
    expect(new Set(names)).toEqual(expected);
    expect(names).toHaveLength(expected.size);
    for (const name of names) expect(resolve(name)?.name).toBe(name);
  });

  it.each(population.markers)('$marker: N = 500, 4-decimal frequencies ≥ 0.001 summing to exactly 1', (m) => {
    expect(m.sampleSize).toBe(500);
    expect(new Set(m.alleles.map((a) => a.allele)).size).toBe(m.alleles.length);
    for (const { allele, frequency } of m.alleles) {
      expect(allele).toMatch(/^\d+(\.\d)?$/);
      expect(units(frequency) / 10_000, allele).toBe(frequency);
      expect(frequency, allele).toBeGreaterThanOrEqual(0.001);
    }
    // Summed on the 4-decimal grid the total is exact; as floats it is 1 within rounding error.
    expect(m.alleles.reduce((n, a) => n + units(a.frequency), 0)).toBe(10_000);
    expect(m.alleles.reduce((s, a) => s + a.frequency, 0)).toBeCloseTo(1, 12);
  });

  it('uses plausible allele ranges, microvariants included', () => {
    const alleles = (name: string) => byMarker(name).alleles.map((a) => a.allele);
    expect(alleles('D3S1358')).toEqual(['12', '13', '14', '15', '16', '17', '18', '19']);
    expect(alleles('TH01')).toContain('9.3');
    expect(alleles('FGA')).toEqual(expect.arrayContaining(['18', '22.2', '30']));
    for (const m of population.markers) expect(m.alleles.length, m.marker).toBeGreaterThanOrEqual(7);
  });

  it('is the same for the same seed and differs for another', () => {
    expect(syntheticDemoPopulation(20_260_101)).toEqual(population);
    expect(syntheticDemoPopulation(7)).not.toEqual(population);
  });

  it('refuses a seed that is not an integer, naming it', () => {
    expect(() => syntheticDemoPopulation(0.5)).toThrow('The seed must be an integer, got 0.5.');
    expect(() => syntheticDemoPopulation(Number.NaN)).toThrow(RangeError);
  });
});
