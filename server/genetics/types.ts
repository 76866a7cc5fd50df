/** A genotype at one marker: allele designations as text, canonically ordered (core/alleles normaliseMarkerAlleles). */
export type Genotype = readonly string[];

/** A profile for the engine: genotype per marker name (the caller resolves names and aliases). */
export type EngineProfile = ReadonlyMap<string, Genotype>;

/**
 * A population's allele frequencies at one marker (GENETICS.md "Population statistics"): the
 * frequency of each observed allele and the sample size N when known.
 */
export interface MarkerFrequencies {
  frequencies: ReadonlyMap<string, number>;
  sampleSize: number | null;
}

/** A population for the engine: frequencies per marker name, and its configured minimum (default 0.001). */
export interface PopulationFrequencies {
  name: string;
  markers: ReadonlyMap<string, MarkerFrequencies>;
  minimumAlleleFrequency: number;
}
