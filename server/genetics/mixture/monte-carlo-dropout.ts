import { MULBERRY32_STEP as step, mulberry32At as at } from '../../../core/seeded-random';
import { alleleFrequency } from '../statistics/allele-frequency';
import { evidenceMarkers, type MixtureCase } from './mixture-lr';

/** Which hypothesis a drop-out estimate is made under. */
export type MixtureHypothesisName = 'Hp' | 'Hd';

/** The Monte-Carlo drop-out estimate and how it was reached. */
export interface MonteCarloDropout {
  /** The 95th percentile of the accepted drop-out values (SmartRank's conservative choice); null when none was accepted. */
  conservative: number | null;
  /** The alleles counted in the evidence, the values accepted out of those tried, the seed. */
  observedAlleles: number;
  accepted: number;
  tried: number;
  seed: number;
}

/** Accepted values the Monte-Carlo estimate aims for, and the most values it tries. */
const WANTED = 1000;
const MOST_TRIES = 200_000;
/** Buckets of a marker's guide table (a power of two, so a bucket's ends are exact): nearly every draw falls in a bucket one allele covers. */
const GUIDE_BUCKETS = 256;
const DEFAULT_SEED = 20_240_601;
/** The most cases simulated together. */
const LANES = 30;

/** Where a marker's numbers lie in a try, the same in every population of a group: its copies and replicates. */
interface MarkerLayout {
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
interface Lane {
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
  /** Still trying in this try: fewer than WANTED kept, fewer than MOST_TRIES tried before it. */
  active: boolean;
  /** The alleles counted so far in this try. */
  count: number;
  /** A copy's allele drawn in this try (per copy of the current marker). */
  codes: Int32Array;
}

/** The layout's key: cases with equal keys draw their numbers at the same places of the sequence. */
function layoutOf(c: MixtureCase, hypothesis: MixtureHypothesisName): { markers: MarkerLayout[]; observedAlleles: number; key: string } {
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
function laneOf(c: MixtureCase, hypothesis: MixtureHypothesisName, layout: readonly MarkerLayout[]): Lane {
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
  return { guide, cumulative, cumulativeBase, cumulativeLength, typedCodes: Int32Array.from(typedCodes), stampBase, alleles, stamps: new Int32Array(Math.max(1, stampSize)), stamp: 0, kept: [], tried: 0, active: true, count: 0, codes: new Int32Array(mostCopies) };
}

/** The allele of marker m a uniform number u falls on: the first whose cumulative frequency reaches u (the last when rounding leaves u past every one), as a bisection finds it. */
function alleleAt(lane: Lane, m: number, u: number): number {
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

/**
 * The drop-out probability by Monte Carlo (Gill et al. 2007; Haned et al. 2012; SmartRank): a drop-out value d is
 * drawn uniformly, the hypothesis's contributors are drawn (typed ones as typed, unknowns from the frequencies), each
 * allele copy drops out with probability d, a replicate receives a drop-in with probability c; d is kept when the
 * number of alleles seen over the markers and replicates equals the evidence's. Returns the 95th percentile of the
 * kept values (null when none is kept), seeded (mulberry32) so the same case gives the same value.
 */
export function monteCarloDropout(c: MixtureCase, hypothesis: MixtureHypothesisName, seed = DEFAULT_SEED): MonteCarloDropout {
  return monteCarloDropouts([c], hypothesis, seed)[0]!;
}

/**
 * monteCarloDropout of each case (Gill et al. 2007; SmartRank), the same numbers as one at a time, with less work.
 *
 * The numbers are drawn where a plain loop draws them (tests hold it to one): per try d, then per marker the unknowns'
 * alleles, then per replicate a number per copy (it survives when ≥ d) and the drop-in's (and its allele). An allele
 * is seen in a replicate when any copy of it survives, so a copy that survives nowhere never needs its allele. Cases
 * that differ only in their population (a search's populations) draw at the same places of the same sequence, and
 * differ only in which allele a number falls on: one pass reads every try's survivals and drop-ins for all of them,
 * and rejects the try at once when the survivors cannot reach the evidence's count; each population then draws only
 * the surviving copies' alleles and counts the distinct ones, stopping as soon as the try cannot match.
 */
export function monteCarloDropouts(cases: readonly MixtureCase[], hypothesis: MixtureHypothesisName, seed = DEFAULT_SEED): MonteCarloDropout[] {
  const out = new Array<MonteCarloDropout>(cases.length);
  const groups = new Map<string, number[]>();
  const sizes = new Map<string, number>();
  const layouts = cases.map((c, i) => {
    const layout = layoutOf(c, hypothesis);
    // A group's live lanes are the bits of one 32-bit word.
    const size = sizes.get(layout.key) ?? 0;
    sizes.set(layout.key, size + 1);
    const key = `${layout.key}#${Math.floor(size / LANES)}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
    return layout;
  });
  for (const members of groups.values()) {
    const { markers, observedAlleles } = layouts[members[0]!]!;
    const lanes = members.map((i) => laneOf(cases[i]!, hypothesis, markers));
    const kept = simulate(markers, observedAlleles, cases[members[0]!]!.dropIn, lanes, seed);
    members.forEach((i, l) => {
      const values = kept[l]!.sort((a, b) => a - b);
      const conservative = values.length === 0 ? null : values[Math.min(values.length - 1, Math.ceil(0.95 * values.length) - 1)]!;
      out[i] = { conservative, observedAlleles, accepted: values.length, tried: lanes[l]!.tried, seed };
    });
  }
  return out;
}

/** The tries of one group, each lane until it has kept WANTED values or tried MOST_TRIES; each lane's kept values. */
function simulate(layout: readonly MarkerLayout[], observed: number, dropIn: number, lanes: Lane[], seed: number): number[][] {
  const M = layout.length;
  // mostAfter[m]: the most alleles the markers from m on can still add, in any lane of the group.
  const mostAfter = new Float64Array(M + 1);
  for (let m = M - 1; m >= 0; m--) mostAfter[m] = mostAfter[m + 1]! + layout[m]!.replicates * lanes.reduce((n, lane) => Math.max(n, Math.min(layout[m]!.copies + 1, lane.alleles[m]!)), 1);
  const flagCount = layout.reduce((n, m) => n + m.replicates * m.copies, 0);
  const dropInCount = layout.reduce((n, m) => n + m.replicates, 0);
  /** survives[flagBase + r × copies + k]: copy k survives in replicate r; survivesAnywhere: in some replicate. */
  const survives = new Uint8Array(Math.max(1, flagCount));
  const mostCopies = layout.reduce((n, m) => Math.max(n, m.copies), 1);
  const survivesAnywhere = new Uint8Array(M * mostCopies);
  /** The drop-in's allele number in a replicate, or −1 without one. */
  const dropInNumber = new Float64Array(Math.max(1, dropInCount));
  /** The state before each marker's first number, and the most alleles it can show in this try (its survivors and drop-ins). */
  const markerState = new Int32Array(M);
  const upperAfter = new Float64Array(M + 1);
  /** The fewest alleles the markers from m on show in this try: one in each replicate where something survives or drops in. */
  const lowerAfter = new Float64Array(M + 1);
  /** The numbers the surviving unknowns' alleles are drawn with at the current marker. */
  const unknownNumber = new Float64Array(mostCopies);
  // Imported bindings are read through getters once transpiled: the loop reads local copies.
  const STEP = step;
  const numberAt = at;
  let state = seed >>> 0;
  const running = () => lanes.some((lane) => lane.kept.length < WANTED && lane.tried < MOST_TRIES);
  while (running()) {
    for (const lane of lanes) {
      lane.active = lane.kept.length < WANTED && lane.tried < MOST_TRIES;
      if (lane.active) lane.tried++;
    }
    state = (state + STEP) >>> 0;
    const d = numberAt(state);
    // The shared pass: survivals and drop-ins, the alleles' numbers stepped over.
    let upper = 0;
    let m = 0;
    for (; m < M; m++) {
      const { unknowns, copies, replicates, flagBase, dropInBase } = layout[m]!;
      markerState[m] = state | 0;
      state = (state + Math.imul(2 * unknowns, STEP)) >>> 0;
      for (let k = 0; k < copies; k++) survivesAnywhere[m * mostCopies + k] = 0;
      let here = 0;
      let least = 0;
      for (let r = 0; r < replicates; r++) {
        const before = here;
        const flags = flagBase + r * copies;
        for (let k = 0; k < copies; k++) {
          state = (state + STEP) >>> 0;
          if (numberAt(state) >= d) {
            survives[flags + k] = 1;
            survivesAnywhere[m * mostCopies + k] = 1;
            here++;
          } else survives[flags + k] = 0;
        }
        state = (state + STEP) >>> 0;
        if (numberAt(state) < dropIn) {
          state = (state + STEP) >>> 0;
          dropInNumber[dropInBase + r] = numberAt(state);
          here++;
        } else dropInNumber[dropInBase + r] = -1;
        if (here > before) least++;
      }
      upperAfter[m] = here;
      lowerAfter[m] = least;
      upper += here;
      if (upper + mostAfter[m + 1]! < observed) break;
    }
    if (m < M) {
      // No lane can reach the evidence's count: step over the numbers the rest of the try would draw.
      for (m++; m < M; m++) {
        const { unknowns, copies, replicates } = layout[m]!;
        state = (state + Math.imul(2 * unknowns, STEP)) >>> 0;
        for (let r = 0; r < replicates; r++) {
          state = (state + Math.imul(copies + 1, STEP)) >>> 0;
          // A drop-in draws its allele: one number more.
          if (dropIn > 0 && numberAt(state) < dropIn) state = (state + STEP) >>> 0;
        }
      }
      continue;
    }
    upperAfter[M] = 0;
    lowerAfter[M] = 0;
    for (let k = M - 1; k >= 0; k--) {
      upperAfter[k] = upperAfter[k]! + upperAfter[k + 1]!;
      lowerAfter[k] = lowerAfter[k]! + lowerAfter[k + 1]!;
    }
    // Each lane counts its distinct alleles marker by marker; the unknowns' numbers are read once for every lane.
    let alive = 0;
    for (let l = 0; l < lanes.length; l++) {
      lanes[l]!.count = 0;
      if (lanes[l]!.active) alive |= 1 << l;
    }
    for (m = 0; m < M && alive !== 0; m++) {
      const { typed, typedBase, copies, replicates, flagBase, dropInBase } = layout[m]!;
      for (let k = typed; k < copies; k++) if (survivesAnywhere[m * mostCopies + k]) unknownNumber[k] = numberAt((markerState[m]! + Math.imul(k - typed + 1, STEP)) >>> 0);
      for (let l = 0; l < lanes.length; l++) {
        if (!(alive & (1 << l))) continue;
        const lane = lanes[l]!;
        const stampBase = lane.stampBase[m]!;
        const { stamps, codes, typedCodes } = lane;
        for (let k = 0; k < typed; k++) codes[k] = typedCodes[typedBase + k]!;
        for (let k = typed; k < copies; k++) if (survivesAnywhere[m * mostCopies + k]) codes[k] = alleleAt(lane, m, unknownNumber[k]!);
        let count = lane.count;
        for (let r = 0; r < replicates; r++) {
          const stamp = ++lane.stamp;
          const flags = flagBase + r * copies;
          for (let k = 0; k < copies; k++) {
            if (!survives[flags + k]) continue;
            const place = stampBase + codes[k]!;
            if (stamps[place] !== stamp) {
              stamps[place] = stamp;
              count++;
            }
          }
          const dropped = dropInNumber[dropInBase + r]!;
          if (dropped >= 0) {
            const place = stampBase + alleleAt(lane, m, dropped);
            if (stamps[place] !== stamp) {
              stamps[place] = stamp;
              count++;
            }
          }
        }
        lane.count = count;
        if (count + lowerAfter[m + 1]! > observed || count + upperAfter[m + 1]! < observed) alive &= ~(1 << l);
      }
    }
    for (let l = 0; l < lanes.length; l++) if (alive & (1 << l) && lanes[l]!.count === observed) lanes[l]!.kept.push(d);
  }
  return lanes.map((lane) => lane.kept);
}
