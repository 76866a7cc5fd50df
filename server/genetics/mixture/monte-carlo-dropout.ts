import { MULBERRY32_STEP as step, mulberry32At as at } from '../../../core/seeded-random';
import type { MixtureCase } from './mixture-lr';
import type { MixtureHypothesisName } from './monte-carlo-lane';
import { alleleAt, laneOf, layoutColumns, layoutOf, MOST_TRIES, skipMarkers, WANTED, type Lane, type MarkerLayout } from './monte-carlo-lane';
import { simulateOne } from './monte-carlo-one-case';

/** Which hypothesis a drop-out estimate is made under. */
export type { MixtureHypothesisName } from './monte-carlo-lane';

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

const DEFAULT_SEED = 20_240_601;
/** The most cases simulated together. */
const LANES = 30;

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
 * the surviving copies' alleles and counts the distinct ones, stopping as soon as the try cannot match. The lanes read
 * only the copies that survived (lists, not flags). A case alone in its group (the calculator's call, a one-population
 * search) takes its own loop, monte-carlo-one-case.ts.
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
  if (lanes.length === 1) return [simulateOne(layout, observed, dropIn, lanes[0]!, seed)];
  const M = layout.length;
  const L = lanes.length;
  const { unknownsOf, copiesOf, typedOf, typedBaseOf, replicatesOf, flagBaseOf, dropInBaseOf } = layoutColumns(layout);
  // mostAfter[m]: the most alleles the markers from m on can still add, in any lane of the group.
  const mostAfter = new Float64Array(M + 1);
  for (let m = M - 1; m >= 0; m--) mostAfter[m] = mostAfter[m + 1]! + layout[m]!.replicates * lanes.reduce((n, lane) => Math.max(n, Math.min(layout[m]!.copies + 1, lane.alleles[m]!)), 1);
  const flagCount = layout.reduce((n, m) => n + m.replicates * m.copies, 0);
  const dropInCount = layout.reduce((n, m) => n + m.replicates, 0);
  const mostCopies = layout.reduce((n, m) => Math.max(n, m.copies), 1);
  /**
   * The copies surviving in each replicate, as a list (the lanes read only those): replicate r of marker m's from
   * flagBase + r × copies, survivorCount[dropInBase + r] of them. The unknowns' copies surviving in some replicate:
   * marker m's from m × mostCopies, unknownCount[m] of them (survivesAnywhere marks them while the list is built).
   */
  const survivors = new Int32Array(Math.max(1, flagCount));
  const survivorCount = new Int32Array(Math.max(1, dropInCount));
  const survivesAnywhere = new Uint8Array(mostCopies);
  const unknownList = new Int32Array(M * mostCopies);
  const unknownCount = new Int32Array(M);
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
  for (;;) {
    let alive = 0;
    for (let l = 0; l < L; l++) {
      const lane = lanes[l]!;
      lane.count = 0;
      if (lane.kept.length < WANTED && lane.tried < MOST_TRIES) {
        lane.tried++;
        alive |= 1 << l;
      }
    }
    if (alive === 0) break;
    state = (state + STEP) >>> 0;
    const d = numberAt(state);
    // The shared pass: survivals and drop-ins, the alleles' numbers stepped over.
    let upper = 0;
    let m = 0;
    for (; m < M; m++) {
      const unknowns = unknownsOf[m]!;
      const copies = copiesOf[m]!;
      const typed = typedOf[m]!;
      const replicates = replicatesOf[m]!;
      const flagBase = flagBaseOf[m]!;
      const dropInBase = dropInBaseOf[m]!;
      markerState[m] = state | 0;
      state = (state + Math.imul(2 * unknowns, STEP)) >>> 0;
      for (let k = 0; k < copies; k++) survivesAnywhere[k] = 0;
      let anywhere = 0;
      let here = 0;
      let least = 0;
      for (let r = 0; r < replicates; r++) {
        const list = flagBase + r * copies;
        let n = 0;
        for (let k = 0; k < copies; k++) {
          state = (state + STEP) >>> 0;
          if (numberAt(state) >= d) {
            survivors[list + n++] = k;
            if (k >= typed && survivesAnywhere[k] === 0) {
              survivesAnywhere[k] = 1;
              unknownList[m * mostCopies + anywhere++] = k;
            }
          }
        }
        survivorCount[dropInBase + r] = n;
        state = (state + STEP) >>> 0;
        if (numberAt(state) < dropIn) {
          state = (state + STEP) >>> 0;
          dropInNumber[dropInBase + r] = numberAt(state);
          n++;
        } else dropInNumber[dropInBase + r] = -1;
        here += n;
        if (n > 0) least++;
      }
      unknownCount[m] = anywhere;
      upperAfter[m] = here;
      lowerAfter[m] = least;
      upper += here;
      if (upper + mostAfter[m + 1]! < observed) break;
    }
    if (m < M) {
      // No lane can reach the evidence's count: step over the numbers the rest of the try would draw.
      state = skipMarkers(layout, m + 1, state, dropIn);
      continue;
    }
    upperAfter[M] = 0;
    lowerAfter[M] = 0;
    for (let k = M - 1; k >= 0; k--) {
      upperAfter[k] = upperAfter[k]! + upperAfter[k + 1]!;
      lowerAfter[k] = lowerAfter[k]! + lowerAfter[k + 1]!;
    }
    // Each lane counts its distinct alleles marker by marker; the unknowns' numbers are read once for every lane.
    for (m = 0; m < M && alive !== 0; m++) {
      const typed = typedOf[m]!;
      const typedBase = typedBaseOf[m]!;
      const copies = copiesOf[m]!;
      const replicates = replicatesOf[m]!;
      const flagBase = flagBaseOf[m]!;
      const dropInBase = dropInBaseOf[m]!;
      const unknownBase = m * mostCopies;
      const unknownsHere = unknownCount[m]!;
      for (let i = 0; i < unknownsHere; i++) {
        const k = unknownList[unknownBase + i]!;
        unknownNumber[k] = numberAt((markerState[m]! + Math.imul(k - typed + 1, STEP)) >>> 0);
      }
      for (let l = 0; l < L; l++) {
        if (!(alive & (1 << l))) continue;
        const lane = lanes[l]!;
        const stampBase = lane.stampBase[m]!;
        const { stamps, codes, typedCodes } = lane;
        for (let k = 0; k < typed; k++) codes[k] = typedCodes[typedBase + k]!;
        for (let i = 0; i < unknownsHere; i++) {
          const k = unknownList[unknownBase + i]!;
          codes[k] = alleleAt(lane, m, unknownNumber[k]!);
        }
        let count = lane.count;
        for (let r = 0; r < replicates; r++) {
          const stamp = ++lane.stamp;
          const list = flagBase + r * copies;
          const n = survivorCount[dropInBase + r]!;
          for (let i = 0; i < n; i++) {
            const place = stampBase + codes[survivors[list + i]!]!;
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
    for (let l = 0; l < L; l++) if (alive & (1 << l) && lanes[l]!.count === observed) lanes[l]!.kept.push(d);
  }
  return lanes.map((lane) => lane.kept);
}

