import type { PopulationFrequencies } from '../types';

/** A peak of one replicate at one marker: the allele, its height (RFU) and, when the file gives it, its size (bp). */
export interface Peak {
  allele: string;
  height: number;
  size?: number | undefined;
}

/** One replicate (a run of the stain): its peaks per marker; a marker absent was not typed in this run. */
export type ReplicatePeaks = ReadonlyMap<string, readonly Peak[]>;

/** A typed person: alleles per marker (one allele written for a homozygote); a marker absent was not typed. */
export type TypedPerson = ReadonlyMap<string, readonly string[]>;

/** Which parts of the gamma model are on (EuroForMix DEG, BWS, FWS; a forward stutter needs the backward one). */
export interface ModelSwitches {
  degradation: boolean;
  backwardStutter: boolean;
  forwardStutter: boolean;
}

/**
 * The model's parameters (Bleka, Storvik & Gill 2016): mixture proportions per contributor (sum 1), peak-height
 * expectation μ (RFU), coefficient of variation σ, degradation slope β (1: none), stutter proportions ξB, ξF.
 */
export interface GammaParameters {
  mx: readonly number[];
  mu: number;
  sigma: number;
  beta: number;
  xiB: number;
  xiF: number;
}

/** The evidence and what is fixed around it, the same under both hypotheses. */
export interface ContinuousEvidence {
  replicates: readonly ReplicatePeaks[];
  population: PopulationFrequencies;
  /** Rescale each marker's frequencies (table and seen alleles) to sum to 1 (EuroForMix's default). */
  normalizeFrequencies: boolean;
  /** The analytical threshold (RFU) per marker: a peak under it is not seen. */
  analyticalThreshold: (marker: string) => number;
  dropIn: number;
  /** Rate λ of the drop-in peak height above the threshold (exponential). */
  dropInLambda: number;
  theta: number;
  model: ModelSwitches;
  /** Fragment size (bp) of an allele at a marker, for degradation; undefined when unknown. */
  fragmentSize: (marker: string, allele: string) => number | undefined;
  /** The size given to the merged allele Q at a marker (the kit's longest fragment). */
  qAlleleSize: (marker: string) => number | undefined;
}

/** A hypothesis: each contributor typed (a person, untyped markers unknown there) or unknown; typed non-contributors counted for θ. */
export interface ContinuousHypothesis {
  contributors: readonly (TypedPerson | null)[];
  nonContributors: readonly TypedPerson[];
}

/** Bad input the caller answers with a 400 and this message. */
export class ContinuousModelError extends Error {
  override readonly name = 'ContinuousModelError';
}
