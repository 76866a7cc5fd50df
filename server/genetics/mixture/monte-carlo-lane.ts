// The Monte-Carlo drop-out's tables (monte-carlo-dropout.ts): where each marker's numbers lie in a try, and one
// population's side of them in flat arrays, which the simulation loops read at every draw.
import { alleleFrequency } from '../statistics/allele-frequency';
import { evidenceMarkers, type MixtureCase } from './mixture-lr';

/** Accepted values the Monte-Carlo estimate aims for, and the most values it tries. */
export const WANTED = 1000;
export const MOST_TRIES = 200_000;
/** Buckets of a marker's guide table (a power of two, so a bucket's ends are exact): nearly every draw falls in a bucket one allele covers. */
const GUIDE_BUCKETS = 256;

/** Where a marker's numbers lie in a try, the same in every population of a group: its copies and replicates. */
export interface MarkerLayout {
  marker: string;
  /** Copies of the typed persons (first), then two per unknown; where the typed copies' alleles start in a lane's typedCodes. */
  typed: number;
  typedBase: number;
  unknowns: number;
  copies: number;
  replicates: number;
  /** Where this marker's survival flags (replicate × copy) and drop-ins (replicate) start in the try's arrays. */
  flagBase: number;
  dropInBase: number;
}

/**
 * One case of a group: its population's side of every marker, in flat arrays (the loop reads them at every draw) —
 * alleles as numbers (the frequency table's index; a typed allele outside the table one of its own) — its stamps,
 * and the values it kept so far.
 */
export interface Lane {
  /** guide[m × GUIDE_BUCKETS + b]: the allele every number of marker m's bucket b falls on, or −1 − the bucket's first allele when several share it. */
  guide: Int32Array;
  /** Every marker's cumulative frequencies, marker m's from cumulativeBase[m], cumulativeLength[m] of them. */
  cumulative: Float64Array;
  cumulativeBase: Int32Array;
  cumulativeLength: Int32Array;
  /** The typed copies' alleles, marker m's from the layout's typedBase. */
  typedCodes: Int32Array;
  /** Where marker m's alleles are stamped in `stamps`, and how many distinct alleles it can show. */
  stampBase: Int32Array;
  alleles: Int32Array;
  stamps: Int32Array;
  stamp: number;
  kept: number[];
  tried: number;
  /** The alleles counted so far in this try. */
  count: number;
  /** A copy's allele drawn in this try (per copy of the current marker). */
  codes: Int32Array;
}

/** The layout's key: cases with equal keys draw their numbers at the same places of the sequence. */
export function layoutOf(c: MixtureCase, hypothesis: MixtureHypothesisName): { markers: MarkerLayout[]; observedAlleles: number; key: string } {
  const names = evidenceMarkers(c.replicates).filter((m) => c.population.markers.has(m));
  const observedAlleles = names.reduce((s, m) => s + c.replicates.reduce((t, r) => t + new Set(r.get(m) ?? []).size, 0), 0);
  let flagBase = 0;
  let dropInBase = 0;
  let typedBase = 0;
  const markers = names.map((marker) => {
    const typed = typedGenotypes(c, hypothesis, marker).length * 2;
    const unknowns = Math.max(0, c.contributors - typed / 2);
    const copies = typed + 2 * unknowns;
    const replicates = c.replicates.filter((r) => r.has(marker)).length;
    const layout = { marker, typed, typedBase, unknowns, copies, replicates, flagBase, dropInBase };
    typedBase += typed;
    flagBase += replicates * copies;
    dropInBase += replicates;
    return layout;
  });
  return { markers, observedAlleles, key: JSON.stringify([c.dropIn, observedAlleles, markers.map((m) => [m.marker, m.typed, m.unknowns, m.replicates])]) };
}

/** The typed persons' genotypes at a marker under the hypothesis (a homozygote as two copies). */
function typedGenotypes(c: MixtureCase, hypothesis: MixtureHypothesisName, marker: string): string[][] {
  const poi = c.personOfInterest.get(marker);
  const knownTyped = c.knownContributors.flatMap((k) => (k.get(marker)?.length ? [k.get(marker)!] : []));
  return (hypothesis === 'Hp' && poi?.length ? [poi, ...knownTyped] : knownTyped).map((g) => (g.length === 1 ? [g[0]!, g[0]!] : [...g]));
}

/** A case's population side of the layout: cumulative frequencies, guide tables, typed alleles as numbers. */
export function laneOf(c: MixtureCase, hypothesis: MixtureHypothesisName, layout: readonly MarkerLayout[]): Lane {
  const M = layout.length;
  const guide = new Int32Array(Math.max(1, M * GUIDE_BUCKETS));
  const cumulativeBase = new Int32Array(M);
  const cumulativeLength = new Int32Array(M);
  const stampBase = new Int32Array(M);
  const alleles = new Int32Array(M);
  const cumulatives: Float64Array[] = [];
  const typedCodes: number[] = [];
  let cumulativeSize = 0;
  let stampSize = 0;
  layout.forEach(({ marker }, m) => {
    const table = [...(c.population.markers.get(marker)?.frequencies.keys() ?? [])];
    const weights = table.map((a) => alleleFrequency(c.population, marker, a));
    const total = weights.reduce((s, w) => s + w, 0);
    const cumulative = new Float64Array(table.length);
    weights.reduce((s, w, i) => ((cumulative[i] = (s + w) / total), s + w), 0);
    for (let b = 0, i = 0; b < GUIDE_BUCKETS; b++) {
      while (i < table.length - 1 && cumulative[i]! < b / GUIDE_BUCKETS) i++;
      // Every number of the bucket falls on allele i when its cumulative frequency reaches the bucket's end.
      guide[m * GUIDE_BUCKETS + b] = i === Math.max(0, table.length - 1) || cumulative[i]! >= (b + 1) / GUIDE_BUCKETS ? i : -1 - i;
    }
    const codes = new Map(table.map((a, i) => [a, i]));
    for (const a of typedGenotypes(c, hypothesis, marker).flat()) {
      if (!codes.has(a)) codes.set(a, codes.size);
      typedCodes.push(codes.get(a)!);
    }
    cumulatives.push(cumulative);
    cumulativeBase[m] = cumulativeSize;
    cumulativeLength[m] = table.length;
    cumulativeSize += table.length;
    stampBase[m] = stampSize;
    alleles[m] = Math.max(1, codes.size);
    stampSize += alleles[m]!;
  });
  const cumulative = new Float64Array(Math.max(1, cumulativeSize));
  cumulatives.forEach((values, m) => cumulative.set(values, cumulativeBase[m]));
  const mostCopies = layout.reduce((n, m) => Math.max(n, m.copies), 1);
  return { guide, cumulative, cumulativeBase, cumulativeLength, typedCodes: Int32Array.from(typedCodes), stampBase, alleles, stamps: new Int32Array(Math.max(1, stampSize)), stamp: 0, kept: [], tried: 0, count: 0, codes: new Int32Array(mostCopies) };
}

/** The allele of marker m a uniform number u falls on: the first whose cumulative frequency reaches u (the last when rounding leaves u past every one), as a bisection finds it. */
export function alleleAt(lane: Lane, m: number, u: number): number {
  // u < 1, and a power of two scales it exactly: the floor is the bucket.
  const g = lane.guide[m * GUIDE_BUCKETS + ((u * GUIDE_BUCKETS) | 0)]!;
  if (g >= 0) return g;
  const { cumulative } = lane;
  const base = lane.cumulativeBase[m]!;
  const last = lane.cumulativeLength[m]! - 1;
  let i = -1 - g;
  while (i < last && cumulative[base + i]! < u) i++;
  return i < 0 ? 0 : i;
}

/** A layout's numbers as flat arrays (the loops read them at every draw). */
export function layoutColumns(layout: readonly MarkerLayout[]) {
  const column = (field: 'unknowns' | 'copies' | 'typed' | 'typedBase' | 'replicates' | 'flagBase' | 'dropInBase') => Int32Array.from(layout, (m) => m[field]);
  return { unknownsOf: column('unknowns'), copiesOf: column('copies'), typedOf: column('typed'), typedBaseOf: column('typedBase'), replicatesOf: column('replicates'), flagBaseOf: column('flagBase'), dropInBaseOf: column('dropInBase') };
}

/** The hypothesis a Monte-Carlo drop-out estimate is made under. */
export type MixtureHypothesisName = 'Hp' | 'Hd';
