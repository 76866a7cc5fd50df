import { compareAlleles } from '../../../core/alleles';
import { alleleFrequency } from '../statistics/allele-frequency';
import { ContinuousModelError, type ContinuousEvidence } from './continuous-types';
import { isRepeatNumber, stutterAllele } from './stutter-allele';

/** The name reports give the merged allele: every allele not seen, with the remaining frequency. */
export const Q_ALLELE = 'Q';

/**
 * One marker of the evidence, ready for the likelihood (EuroForMix `prepareC`). Positions: the seen alleles, then
 * Q when any frequency remains (these are the genotype alleles), then the potential stutters (alleles one repeat
 * from a seen one that were not seen: drop-outs of a stutter's shape).
 */
export interface EvidenceMarker {
  marker: string;
  /** Names of every position: seen alleles, Q, potential stutters. */
  positions: string[];
  /** Seen alleles (≥ the analytical threshold in some replicate). */
  seenCount: number;
  /** Genotype alleles: seen + Q (Q is the last of them when present). */
  alleleCount: number;
  hasQ: boolean;
  frequencies: Float64Array;
  analyticalThreshold: number;
  dropIn: number;
  /** Rate λ of a drop-in's height over the threshold. */
  dropInLambda: number;
  theta: number;
  /** Peak heights [replicate][seen allele], 0 where the replicate shows none over the threshold. */
  peaks: Float64Array[];
  /** Seen allele indices of each replicate. */
  seenIn: Int32Array[];
  /** log(c·pₐ) + log λ − λ(y − AT) per [replicate][seen allele] (−∞ where c or λ is 0). */
  dropInWeights: Float64Array[];
  /** Fragment size (bp) per genotype allele as used (Q: the longest); null without degradation. */
  sizes: number[] | null;
  /** (size − 125)/100 per genotype allele; 0 without degradation (EuroForMix's scaling). */
  scaledSizes: Float64Array;
  /** Per position: the genotype allele whose backward (one repeat above) / forward (below) stutter falls here, or −1. */
  backwardFrom: Int32Array;
  forwardFrom: Int32Array;
  /** Per genotype allele: whether it gives away stutter (a seen allele at a marker with a stutter model). */
  givesStutter: Uint8Array;
  /** Which stutter models this marker has (none where a designation is not a repeat number). */
  stutterModels: 0 | 1 | 2;
}

/** The replicates that typed `marker`, each with its peaks at or over the threshold. */
function seenPeaks(evidence: ContinuousEvidence, marker: string, threshold: number): Map<string, number>[] {
  return evidence.replicates.flatMap((replicate, r) => {
    const peaks = replicate.get(marker);
    if (!peaks) return [];
    const heights = new Map<string, number>();
    const named = new Set<string>();
    for (const peak of peaks) {
      if (named.has(peak.allele)) throw new ContinuousModelError(`Replicate ${r + 1}, ${marker}: allele ${peak.allele} appears more than once.`);
      named.add(peak.allele);
      if (peak.height >= threshold) heights.set(peak.allele, peak.height);
    }
    return [heights];
  });
}

/** The marker's frequencies as EuroForMix takes them: table and seen alleles (NRC II minimum for rare ones), normalised on request. */
function markerFrequencies(evidence: ContinuousEvidence, marker: string, seen: readonly string[]): { seen: number[]; q: number } {
  const { population } = evidence;
  const of = (a: string) => alleleFrequency(population, marker, a);
  const table = [...(population.markers.get(marker)?.frequencies.keys() ?? [])];
  const newSeen = seen.filter((a) => !table.includes(a));
  const sum = evidence.normalizeFrequencies ? [...table, ...newSeen].reduce((s, a) => s + of(a), 0) : 1;
  const frequencies = seen.map((a) => of(a) / sum);
  return { seen: frequencies, q: 1 - frequencies.reduce((s, p) => s + p, 0) };
}

/** The fragment size of a genotype allele (null: Q), or a refusal naming what is missing. */
function fragmentSize(evidence: ContinuousEvidence, marker: string, allele: string | null): number {
  const size = allele === null ? evidence.qAlleleSize(marker) : evidence.fragmentSize(marker, allele);
  if (size === undefined) throw new ContinuousModelError(allele === null ? `${marker}: degradation needs the size of the marker's longest fragment (for the unseen alleles, Q).` : `${marker}: degradation needs the fragment size of allele ${allele}.`);
  return size;
}

/** Prepares one marker of the evidence (GENETICS.md "Continuous model"; EuroForMix 4.2.4 `prepareC`). */
export function prepareEvidenceMarker(evidence: ContinuousEvidence, marker: string): EvidenceMarker {
  const threshold = evidence.analyticalThreshold(marker);
  const replicates = seenPeaks(evidence, marker, threshold);
  const seen = [...new Set(replicates.flatMap((r) => [...r.keys()]))].sort(compareAlleles);
  const freqs = markerFrequencies(evidence, marker, seen);
  const hasQ = freqs.q > 0;
  const alleleCount = seen.length + (hasQ ? 1 : 0);
  const { model } = evidence;
  const stutterModels: 0 | 1 | 2 = !model.backwardStutter || !seen.every(isRepeatNumber) ? 0 : model.forwardStutter ? 2 : 1;
  const backwardNames = stutterModels > 0 ? seen.map((a) => stutterAllele(a, -1)) : [];
  const forwardNames = stutterModels > 1 ? seen.map((a) => stutterAllele(a, 1)) : [];
  const genotypeNames = hasQ ? [...seen, Q_ALLELE] : [...seen];
  const potential = [...new Set([...backwardNames, ...forwardNames])].filter((a) => !seen.includes(a));
  const positions = [...genotypeNames, ...potential];
  const sizes = model.degradation ? genotypeNames.map((a, i) => fragmentSize(evidence, marker, i < seen.length ? a : null)) : null;
  const fromOf = (names: string[]) => Int32Array.from(positions, (p, i) => (i < seen.length || i >= alleleCount ? names.indexOf(p) : -1));
  const logDropIn = Math.log(evidence.dropIn);
  const dropInRate = evidence.dropInLambda;
  return {
    marker,
    positions,
    seenCount: seen.length,
    alleleCount,
    hasQ,
    frequencies: Float64Array.from(hasQ ? [...freqs.seen, freqs.q] : freqs.seen),
    analyticalThreshold: threshold,
    dropIn: evidence.dropIn,
    dropInLambda: dropInRate,
    theta: evidence.theta,
    peaks: replicates.map((r) => Float64Array.from(seen, (a) => r.get(a) ?? 0)),
    seenIn: replicates.map((r) => Int32Array.from(seen.flatMap((a, i) => (r.has(a) ? [i] : [])))),
    dropInWeights: replicates.map((r) =>
      Float64Array.from(seen, (a, i) => {
        const y = r.get(a);
        if (y === undefined) return -Infinity;
        const w = Math.log(freqs.seen[i]!) + logDropIn + (Math.log(dropInRate) - dropInRate * (y - threshold));
        return Number.isFinite(w) ? w : -Infinity;
      }),
    ),
    sizes,
    scaledSizes: Float64Array.from(genotypeNames, (_, i) => (sizes ? (sizes[i]! - 125) / 100 : 0)),
    backwardFrom: fromOf(backwardNames),
    forwardFrom: fromOf(forwardNames),
    givesStutter: Uint8Array.from(genotypeNames, (_, i) => (stutterModels > 0 && i < seen.length ? 1 : 0)),
    stutterModels,
  };
}
