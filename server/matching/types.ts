import type { Peak } from '../genetics/continuous/continuous-types';
import type { MixtureSetting } from '../../core/schemas/mixtures';
import type { PedigreeWeighing } from './pedigree-evaluator';
import type { EngineAnalysis } from '../genetics/evaluate-analysis';
import type { HaplotypeEntry } from '../genetics/statistics';
import type { Genotype, PopulationFrequencies } from '../genetics/types';

/** CODIS search stringency per marker (GENETICS.md "Database search"): identical sets, one set inside the other, one shared allele. */
export type Stringency = 'high' | 'moderate' | 'low';

export type ProfileKind = 'Autosomal' | 'YStr';

/** A profile as the matcher sees it: genotypes by marker name (canonical allele text, core/alleles). */
export interface MatchProfile {
  id: string;
  kind: ProfileKind;
  chemistryId: string;
  organizationId: string;
  /** The CMF specimen category (core/schemas/profiles.ts SAMPLE_TYPES): what the search rules search it with and against. */
  sampleType?: string;
  genotypes: ReadonlyMap<string, Genotype>;
  /** A stain's replicates with peak heights (issue 31): a mixture rule then weighs it with the continuous model. */
  heights?: StainHeights | undefined;
}

/** A stain's replicates with peak heights and its kit's analytical thresholds (RFU; null: the search's default). */
export interface StainHeights {
  replicates: { marker: string; peaks: Peak[] }[][];
  analyticalThreshold: number | null;
  markerThresholds: ReadonlyMap<string, number>;
  /** The kit's allele sizes per marker and its longest (degradation weighs unseen alleles too); empty when the kit has none. */
  fragmentSizes: ReadonlyMap<string, { alleles: ReadonlyMap<string, number>; longest: number | undefined }>;
}

/** What a CODIS identity search asks for (GENETICS.md "Database search"). */
export interface IdentityOptions {
  stringency: Stringency;
  /** Fewest markers typed (and comparable) in both profiles. */
  minMarkers: number;
  /** Most compared markers allowed to fail the stringency (CODIS default 0). */
  maxMismatches: number;
}

/** A profile an identity search found, with the counts a reviewer judges it by. */
export interface IdentityCandidate {
  profileId: string;
  comparedMarkers: number;
  mismatches: number;
}

/** An active analysis as the database search runs it: the engine's formula table plus its id and hit threshold. */
export interface MatchAnalysis extends EngineAnalysis {
  id: string;
  /** A pairwise analysis with a mutation model weighs each marker through its pedigree (issue 16) instead of its formula table. */
  weighing?: PedigreeWeighing | undefined;
  /** Computational: the combined index a hit must reach; Exclusion: the most exclusions a hit may have; null: never a hit. */
  threshold: number | null;
  /** Mixture analyses' parameters (issue 17). */
  mixture?: MixtureSetting | null | undefined;
}

/** A population as the search uses it (server/http/populations/engine-population.ts loads it). */
export interface MatchPopulation {
  id: string;
  kind: ProfileKind;
  frequencies: PopulationFrequencies;
  haplotypes: readonly HaplotypeEntry[];
}

/** One result of a database search over an analysis threshold: the lead turns each into a pending hit. */
export interface HitCandidate {
  analysisId: string;
  /** Null for exclusion analyses (no population is used). */
  populationId: string | null;
  /** In the analysis's role order. */
  profiles: { role: string; profileId: string }[];
  combinedIndex: number | null;
  markerCount: number;
  nonExclusionMarkerCount: number | null;
}

/** Limits of a database search that the analysis record does not hold. */
export interface SearchOptions {
  /** Fewest evaluated markers a hit needs (an exclusion result with 2 markers compared says little). */
  minMarkers: number;
}

export const DEFAULT_SEARCH_OPTIONS: SearchOptions = { minMarkers: 6 };
