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
/** Buckets per allele of a marker's guide table (the draw's starting point: about one comparison a draw). */
const GUIDE_BUCKETS = 4;

/** One marker of the simulation, its alleles as numbers (the frequency table's index; a typed allele outside the table one of its own). */
interface SimulatedMarker {
  typedCodes: Int32Array;
  unknowns: number;
  replicates: number;
  cumulative: Float64Array;
  /** guide[b]: the first allele whose cumulative frequency reaches b / buckets. */
  guide: Int32Array;
  /** The most distinct alleles one replicate can show here: every copy and a drop-in, at most every allele. */
  mostPerReplicate: number;
  /** Numbers a try draws here when no drop-in happens: the unknowns' copies, then per replicate a number per copy and the drop-in's. */
  fixedDraws: number;
  /** Where this marker's alleles are stamped in the shared stamp array. */
  stampBase: number;
}

/**
 * The drop-out probability by Monte Carlo (Gill et al. 2007; Haned et al. 2012; SmartRank): a drop-out value d is
 * drawn uniformly, the hypothesis's contributors are drawn (typed ones as typed, unknowns from the frequencies), each
 * allele copy drops out with probability d, a replicate receives a drop-in with probability c; d is kept when the
 * number of alleles seen over the markers and replicates equals the evidence's. Returns the 95th percentile of the
 * kept values (null when none is kept), seeded (mulberry32) so the same case gives the same value.
 *
 * The numbers are drawn in the order a plain loop draws them (tests hold it to one). A try that can no longer match —
 * more alleles than the evidence's, or too few left to reach it — stops early: mulberry32 reaches any number of its
 * sequence directly, so the rest of the try's numbers are stepped over (only the drop-in draws, which decide whether
 * a drop-in allele is drawn, are read) and the next try starts where the plain loop's would.
 */
export function monteCarloDropout(c: MixtureCase, hypothesis: MixtureHypothesisName, seed = 20_240_601): MonteCarloDropout {
  const markers = evidenceMarkers(c.replicates).filter((m) => c.population.markers.has(m));
  const observedAlleles = markers.reduce((s, m) => s + c.replicates.reduce((t, r) => t + new Set(r.get(m) ?? []).size, 0), 0);
  let stampSize = 0;
  let copiesSize = 1;
  const setup: SimulatedMarker[] = markers.map((marker) => {
    const poi = c.personOfInterest.get(marker);
    const knownTyped = c.knownContributors.flatMap((k) => (k.get(marker)?.length ? [k.get(marker)!] : []));
    const typed = (hypothesis === 'Hp' && poi?.length ? [poi, ...knownTyped] : knownTyped).map((g) => (g.length === 1 ? [g[0]!, g[0]!] : [...g]));
    const table = [...(c.population.markers.get(marker)?.frequencies.keys() ?? [])];
    const weights = table.map((a) => alleleFrequency(c.population, marker, a));
    const total = weights.reduce((s, w) => s + w, 0);
    const cumulative = new Float64Array(table.length);
    weights.reduce((s, w, i) => ((cumulative[i] = (s + w) / total), s + w), 0);
    const buckets = Math.max(1, GUIDE_BUCKETS * table.length);
    const guide = new Int32Array(buckets);
    for (let b = 0, i = 0; b < buckets; b++) {
      while (i < table.length - 1 && cumulative[i]! < b / buckets) i++;
      guide[b] = i;
    }
    const codes = new Map(table.map((a, i) => [a, i]));
    const typedCodes = Int32Array.from(typed.flat(), (a) => {
      if (!codes.has(a)) codes.set(a, codes.size);
      return codes.get(a)!;
    });
    const unknowns = c.contributors - typed.length;
    const copies = typedCodes.length + 2 * Math.max(0, unknowns);
    const replicates = c.replicates.filter((r) => r.has(marker)).length;
    const stampBase = stampSize;
    stampSize += Math.max(1, codes.size);
    copiesSize = Math.max(copiesSize, copies);
    return { typedCodes, unknowns, replicates, cumulative, guide, mostPerReplicate: Math.min(copies + 1, Math.max(1, codes.size)), fixedDraws: 2 * Math.max(0, unknowns) + replicates * (copies + 1), stampBase };
  });
  // mostAfter[m]: the most alleles the markers after m can still add.
  const mostAfter = new Float64Array(setup.length + 1);
  for (let m = setup.length - 1; m >= 0; m--) mostAfter[m] = mostAfter[m + 1]! + setup[m]!.replicates * setup[m]!.mostPerReplicate;
  const copies = new Int32Array(copiesSize);
  const stamps = new Int32Array(Math.max(1, stampSize));
  const dropIn = c.dropIn;
  // Imported bindings are read through getters once transpiled: the loop reads local copies.
  const STEP = step;
  const numberAt = at;
  let state = seed >>> 0;
  /** The allele a uniform number u falls on: the first whose cumulative frequency reaches u (the last when rounding leaves u past every one), as a bisection finds it. */
  const alleleAt = (marker: SimulatedMarker, u: number) => {
    const { cumulative, guide } = marker;
    const last = cumulative.length - 1;
    let i = guide[Math.min(guide.length - 1, Math.floor(u * guide.length))]!;
    // The bucket's rounding may start one past the answer: step back while the one before still reaches u.
    while (i > 0 && cumulative[i - 1]! >= u) i--;
    while (i < last && cumulative[i]! < u) i++;
    return i < 0 ? 0 : i;
  };
  const kept: number[] = [];
  let tried = 0;
  let stamp = 0;
  while (kept.length < WANTED && tried < MOST_TRIES) {
    tried++;
    state = (state + STEP) >>> 0;
    const d = numberAt(state);
    let count = 0;
    let m = 0;
    for (; m < setup.length; m++) {
      const marker = setup[m]!;
      const { typedCodes, unknowns, stampBase } = marker;
      let n = 0;
      for (; n < typedCodes.length; n++) copies[n] = typedCodes[n]!;
      for (let u = 0; u < unknowns; u++) {
        state = (state + STEP) >>> 0;
        copies[n++] = alleleAt(marker, numberAt(state));
        state = (state + STEP) >>> 0;
        copies[n++] = alleleAt(marker, numberAt(state));
      }
      for (let r = 0; r < marker.replicates; r++) {
        stamp++;
        for (let k = 0; k < n; k++) {
          state = (state + STEP) >>> 0;
          const at = stampBase + copies[k]!;
          // An allele already seen in this replicate needs its number stepped over, not read.
          if (stamps[at] !== stamp && numberAt(state) >= d) {
            stamps[at] = stamp;
            count++;
          }
        }
        state = (state + STEP) >>> 0;
        if (numberAt(state) < dropIn) {
          state = (state + STEP) >>> 0;
          const at = stampBase + alleleAt(marker, numberAt(state));
          if (stamps[at] !== stamp) {
            stamps[at] = stamp;
            count++;
          }
        }
      }
      if (count > observedAlleles || count + mostAfter[m + 1]! < observedAlleles) break;
    }
    if (m === setup.length) {
      if (count === observedAlleles) kept.push(d);
      continue;
    }
    // The try cannot match: step over the numbers the rest of it would draw.
    for (m++; m < setup.length; m++) {
      const marker = setup[m]!;
      if (!(dropIn > 0)) {
        state = (state + Math.imul(marker.fixedDraws, STEP)) >>> 0;
        continue;
      }
      state = (state + Math.imul(2 * Math.max(0, marker.unknowns), STEP)) >>> 0;
      const copiesHere = marker.typedCodes.length + 2 * Math.max(0, marker.unknowns);
      for (let r = 0; r < marker.replicates; r++) {
        state = (state + Math.imul(copiesHere + 1, STEP)) >>> 0;
        // A drop-in draws its allele: one number more.
        if (numberAt(state) < dropIn) state = (state + STEP) >>> 0;
      }
    }
  }
  kept.sort((a, b) => a - b);
  const conservative = kept.length === 0 ? null : kept[Math.min(kept.length - 1, Math.ceil(0.95 * kept.length) - 1)]!;
  return { conservative, observedAlleles, accepted: kept.length, tried, seed };
}
