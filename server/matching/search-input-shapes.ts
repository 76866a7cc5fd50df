import type { HaplotypeEntry } from '../genetics/statistics';
import type { MarkerFrequencies, PopulationFrequencies } from '../genetics/types';
import type { MatchPopulation, ProfileKind } from './types';

// The one shape of each search input the server loads and its search threads' warm-up makes (issue 29): V8 gives an object
// its hidden class by its keys' order (and their values' kinds), and the code a warm-up optimized for one class deoptimized
// when a user's search brought another; its compiling again on V8's helper threads took the second core from searches
// running two at a time. Loaders, the warm-up and the benchmark's fixtures make them here, keys in this order.

/** A marker's allele frequencies and sample size. */
export const markerFrequencies = <M extends ReadonlyMap<string, number>>(frequencies: M, sampleSize: number | null): MarkerFrequencies & { frequencies: M } => ({ frequencies, sampleSize });

/** A population's frequencies: markers by name, and its minimum allele frequency. */
export const populationFrequencies = (name: string, minimumAlleleFrequency: number, markers: ReadonlyMap<string, MarkerFrequencies>): PopulationFrequencies => ({ name, minimumAlleleFrequency, markers });

/** A population as a search rule holds it (load-search-rules.ts's PopulationCache). */
export const rulePopulation = (id: string, name: string, kind: ProfileKind, synthetic: boolean, frequencies: PopulationFrequencies, haplotypes: readonly HaplotypeEntry[]): MatchPopulation & { name: string; synthetic: boolean } => ({ id, name, kind, synthetic, frequencies, haplotypes });
