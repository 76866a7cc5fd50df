/**
 * Pr(E | H) at one marker for every candidate genotype of a search (GENETICS.md "How the search reaches memory speed"):
 * the candidate as a typed contributor (Hp) or as a typed non-contributor (Hd under θ), each exactly
 * mixtureMarkerLikelihood with the candidate added — the same operations on the same doubles in the same order, so the
 * same number bit for bit — with everything that does not depend on the candidate computed once per marker.
 *
 * A candidate changes a leaf's term (one composition of the unknowns' alleles, mixture-likelihood.ts) only in the
 * classes it carries: there its alleles join the typed drop-outs, the carried classes and θ's counts. Every other
 * class's factor is the candidate-free one, and the products over the classes run in class order, so the part before
 * the candidate's first class is the same for every candidate that starts there: kept per leaf, each candidate
 * multiplies on from its first class only. θ's sampling product skips the classes a leaf draws no copy of (a factor
 * of exactly 1 there).
 */
import { leafEvidence, leavesOf, groupUnknowns, samplingDenominator, samplingRow, samplingTable, singleGroupFactors, typedOf, type ClassCopies, type Leaves, type MixtureHypothesisAtMarker, type MixtureMarker, type MixtureModelParameters } from './mixture-likelihood';
import { scratchFloat64, scratchInt32, scratchUint8 } from '../statistics/search-scratch';
import { everyPairWithContributor } from './contributor-pairs';
import { everyPairSum, pairSampling } from './pair-sums';

/** The first class a candidate carries (K when none). */
function firstClass(copies: ClassCopies, K: number): number {
  let k = 0;
  while (k < K && copies[k]! === 0) k++;
  return k;
}

/**
 * Where each leaf's drawn classes lie (they depend only on the leaves, which leavesOf keeps): leaf l's entries are
 * start[l] … start[l + 1] − 1, each a class's S index in `cells`; from[l · (K + 1) + f] its first entry at class f or
 * after; draws[l] the classes it draws as bits (null when K > 31).
 */
interface LeafLayout {
  start: Int32Array;
  cells: Int32Array;
  from: Int32Array;
  draws: Int32Array | null;
}

const LAYOUTS = new WeakMap<Leaves, LeafLayout>();

function leafLayout(K: number, leaves: Leaves, drawn: number): LeafLayout {
  const kept = LAYOUTS.get(leaves);
  if (kept) return kept;
  const L = leaves.count;
  const start = new Int32Array(L + 1);
  for (let leaf = 0; leaf < L; leaf++) {
    let n = 0;
    for (let k = 0; k < K; k++) if (leaves.copies[leaf * K + k]! > 0) n++;
    start[leaf + 1] = start[leaf]! + n;
  }
  const cells = new Int32Array(start[L]!);
  const from = new Int32Array(L * (K + 1));
  const draws = K <= 31 ? new Int32Array(L) : null;
  for (let leaf = 0, e = 0; leaf < L; leaf++) {
    for (let k = 0; k < K; k++) {
      from[leaf * (K + 1) + k] = e;
      const m = leaves.copies[leaf * K + k]!;
      if (m === 0) continue;
      cells[e++] = k * (drawn + 1) + m;
      if (draws) draws[leaf]! |= 1 << k;
    }
    from[leaf * (K + 1) + K] = e;
  }
  const layout = { start, cells, from, draws };
  LAYOUTS.set(leaves, layout);
  return layout;
}

/**
 * Σ over the leaves of weight × Π_k S[k, mₖ] (mixture-likelihood.ts sumLeaves) as a function of the weights and a
 * candidate's copies, S the sampling table with the candidate's copies added to θ's counts. Each leaf's product runs
 * over the classes it draws copies of (mₖ > 0), in class order; the products of its prefixes under the candidate-free
 * table are kept, and a candidate whose first class is `first` takes the prefix before it and multiplies on.
 */
function leafSampling(K: number, leaves: Leaves, drawn: number, frequencies: Float64Array, counts: Float64Array, theta: number) {
  const L = leaves.count;
  const base = samplingTable(frequencies, counts, theta, drawn);
  const { start, cells, from, draws } = leafLayout(K, leaves, drawn);
  // Leaf l's prefix products over its entries at start[l] + l + j (j = 0 … its entry count).
  const prefix = scratchFloat64(start[L]! + L);
  for (let leaf = 0; leaf < L; leaf++) {
    let product = 1;
    prefix[start[leaf]! + leaf] = product;
    for (let e = start[leaf]!; e < start[leaf + 1]!; e++) {
      product *= base[cells[e]!]!;
      prefix[e + 1 + leaf] = product;
    }
  }
  const S = scratchFloat64(base.length);
  // Methods, not named arrows: under tsx (esbuild keepNames) each named closure costs a defineProperty when made.
  const leafSums = {
    // `terms`: weight × whole product per leaf, kept when the weights are the same for every candidate (Hd's).
    sumOver(weights: Float64Array, copies: ClassCopies, terms: Float64Array | null): number {
      S.set(base);
      let carried = 0;
      for (let k = 0; k < K; k++) {
        if (copies[k]! === 0) continue;
        samplingRow(S, k, frequencies[k]!, counts[k]! + copies[k]!, theta, drawn);
        if (k < 31) carried |= 1 << k;
      }
      const first = firstClass(copies, K);
      let sum = 0;
      for (let leaf = 0; leaf < L; leaf++) {
        const w = weights[leaf]!;
        if (w === 0) continue;
        const end = start[leaf + 1]!;
        let e: number;
        if (draws) {
          // Before the first class the leaf shares with the candidate, S is the candidate-free table: its prefix holds the
          // product so far (the whole product when it shares none), the same doubles multiplied in the same order.
          const shared = draws[leaf]! & carried;
          if (shared === 0 && terms) {
            sum += terms[leaf]!;
            continue;
          }
          e = shared === 0 ? end : from[leaf * (K + 1) + 31 - Math.clz32(shared & -shared)]!;
        } else e = from[leaf * (K + 1) + first]!;
        let sampling = prefix[e + leaf]!;
        for (; e < end; e++) sampling *= S[cells[e]!]!;
        sum += w * sampling;
      }
      return sum;
    },
    over(weights: Float64Array, copies: ClassCopies): number {
      return leafSums.sumOver(weights, copies, null);
    },
    /** The same with weights fixed for every candidate: a leaf sharing no class with it adds its kept term. */
    fixed(weights: Float64Array): (copies: ClassCopies) => number {
      const terms = scratchFloat64(L);
      for (let leaf = 0; leaf < L; leaf++) terms[leaf] = weights[leaf]! * prefix[start[leaf + 1]! + leaf]!;
      return (copies: ClassCopies) => leafSums.sumOver(weights, copies, terms);
    },
    /** The sum of every class genotype at once with weights fixed (pair-sums.ts), index a · K + b; null when it cannot. */
    everyPair(weights: Float64Array) {
      return everyPairSum(K, leaves, { start, cells }, drawn, frequencies, counts, theta, base, prefix, weights);
    },
    /** The products of every genotype pattern per leaf (pair-sums.ts), for weights that vary by genotype. */
    pairs() {
      return pairSampling(K, leaves, { start, cells }, drawn, frequencies, counts, theta, base, prefix);
    },
  };
  return leafSums;
}

/**
 * Pr(E | H with the candidate as one more typed contributor of drop-out `dropout`, first among them) as a function of
 * the candidate's copies (the semi-continuous model, GENETICS.md "Mixtures"; Haned et al. 2012): equal bit for bit to
 * mixtureMarkerLikelihood(marker, { ...hypothesis, contributors: [{ copies, dropout }, ...hypothesis.contributors] }).
 */
export function likelihoodWithContributor(marker: MixtureMarker, hypothesis: MixtureHypothesisAtMarker, dropout: number, parameters: MixtureModelParameters): ((copies: ClassCopies) => number) & { everyPair(): Float64Array | null } {
  const K = marker.frequencies.length;
  if (K === 0) return Object.assign(() => 0, { everyPair: () => null });
  const R = marker.seen.length;
  const { dropIn, theta } = parameters;
  const base = typedOf(K, hypothesis);
  const groups = groupUnknowns(hypothesis.unknowns);
  const G = groups.length;
  const leaves = leavesOf(K, groups.map((g) => g.count));
  const L = leaves.count;
  const drawn = 2 * hypothesis.unknowns.length;
  const powers = scratchFloat64(G * (drawn + 1));
  groups.forEach((group, g) => {
    for (let m = 0; m <= drawn; m++) powers[g * (drawn + 1) + m] = group.dropout ** m;
  });
  // Group g's factor at leaf and class k: its power, or 1 where it draws no copy (a product times 1 is the same double).
  const groupFactor = scratchFloat64(L * G * K).fill(1);
  for (let at = 0; at < groupFactor.length; at++) {
    const m = leaves.groupCopies[at]!;
    if (m > 0) groupFactor[at] = powers[Math.floor(at / K) % G * (drawn + 1) + m]!;
  }
  // Without the candidate, per leaf, replicate and class: evidenceProbability's factor (1 where it multiplies nothing),
  // whether the class is a drop-in there, and per leaf and replicate how many classes are.
  const factor = scratchFloat64(L * R * K);
  const dropInAt = scratchUint8(L * R * K);
  const dropIns = scratchInt32(L * R);
  if (G === 1) {
    // One drop-out for the unknowns: each factor depends only on the replicate, the class and their copies of it.
    const M = drawn + 1;
    const byCopies = singleGroupFactors(marker, dropIn, base, powers, drawn);
    for (let leaf = 0; leaf < L; leaf++) {
      for (let k = 0; k < K; k++) {
        const m = leaves.copies[leaf * K + k]!;
        for (let r = 0; r < R; r++) {
          const at = (leaf * R + r) * K + k;
          const from = (r * K + k) * M + m;
          factor[at] = byCopies.factor[from]!;
          if (byCopies.dropped[from]! === 1) {
            dropInAt[at] = 1;
            dropIns[leaf * R + r]!++;
          }
        }
      }
    }
  } else {
    for (let leaf = 0; leaf < L; leaf++) {
      for (let k = 0; k < K; k++) {
        const carried = base.typedCarried[k]! === 1 || leaves.copies[leaf * K + k]! > 0;
        const d = dropoutAt(groupFactor, G, K, base.typedDropout[k]!, leaf, k);
        for (let r = 0; r < R; r++) {
          const seen = marker.seen[r]![k]! === 1;
          const at = (leaf * R + r) * K + k;
          if (carried) factor[at] = seen ? 1 - d : d;
          else if (seen) {
            factor[at] = dropIn * marker.frequencies[k]!;
            dropInAt[at] = 1;
            dropIns[leaf * R + r]!++;
          } else factor[at] = 1;
        }
      }
    }
  }
  // The evidence product of the first replicate over classes 0 … j − 1, per leaf: the same for every candidate from j on.
  const evidencePrefix = scratchFloat64(L * (K + 1));
  for (let leaf = 0; leaf < L; leaf++) {
    let p = 1;
    evidencePrefix[leaf * (K + 1)] = p;
    for (let k = 0; k < K; k++) {
      if (R > 0) p *= factor[leaf * R * K + k]!;
      evidencePrefix[leaf * (K + 1) + k + 1] = p;
    }
  }
  // θ's counts with the candidate are the typed contributors' plus its copies (whole numbers: exact in any order).
  const sampling = leafSampling(K, leaves, drawn, marker.frequencies, base.counts, theta);
  const sumOver = sampling.over;
  const weights = scratchFloat64(L);
  const typedDropout = new Float64Array(K);
  const candidateDropout = new Float64Array(K);
  const carried = new Int32Array(K);
  // The function and its method made inline, not as named arrows: under tsx (esbuild keepNames) each named closure
  // costs a defineProperty when made, and this runs per marker and hypothesis.
  return Object.assign((copies: ClassCopies) => {
    const first = firstClass(copies, K);
    let added = 0;
    let n = 0;
    for (let k = first; k < K; k++) {
      if (copies[k]! === 0) continue;
      typedDropout[k] = typedDropoutProduct(dropout, hypothesis.contributors, k, copies[k]!);
      added += copies[k]!;
      carried[n++] = k;
    }
    for (let leaf = 0; leaf < L; leaf++) {
      for (let i = 0; i < n; i++) candidateDropout[carried[i]!] = dropoutAt(groupFactor, G, K, typedDropout[carried[i]!]!, leaf, carried[i]!);
      // evidenceProbability with the candidate's classes carried: a zero product stays zero, as its early return gives.
      let p = R > 0 ? evidencePrefix[leaf * (K + 1) + first]! : 1;
      for (let r = 0; r < R; r++) {
        const seen = marker.seen[r]!;
        let droppedIn = dropIns[leaf * R + r]!;
        for (let k = r === 0 ? first : 0; k < K; k++) {
          const at = (leaf * R + r) * K + k;
          if (copies[k]! > 0) {
            droppedIn -= dropInAt[at]!;
            p *= seen[k]! === 1 ? 1 - candidateDropout[k]! : candidateDropout[k]!;
          } else p *= factor[at]!;
        }
        if (droppedIn === 0 && p !== 0) p *= 1 - dropIn;
      }
      weights[leaf] = leaves.orders[leaf]! * p;
    }
    return sumOver(weights, copies) / samplingDenominator(base.total + added, drawn, theta);
  }, {
    /** Every genotype at once (contributor-pairs.ts), each the number the function gives it. */
    everyPair(): Float64Array | null {
      const pairs = sampling.pairs();
      if (!pairs) return null;
      const denominator = samplingDenominator(base.total + 2, drawn, theta);
      const { contributors } = hypothesis;
      return everyPairWithContributor({
        K, R, G, L, seen: marker.seen, factor, dropInAt, dropIns, evidencePrefix, groupFactor, orders: leaves.orders, dropIn, sampling: pairs, denominator,
        typedDropoutWith(k: number, c: number) {
          return typedDropoutProduct(dropout, contributors, k, c);
        },
      });
    },
  });
}

/** All copies of class k drop out at a leaf: the typed drop-out product, then each group's power (groupFactor[(leaf · G + g) · K + k]), as leafEvidence multiplies them. */
function dropoutAt(groupFactor: Float64Array, G: number, K: number, typed: number, leaf: number, k: number): number {
  let d = typed;
  for (let g = 0; g < G; g++) d *= groupFactor[(leaf * G + g) * K + k]!;
  return d;
}

/** typedOf's drop-out product of class k when the candidate (drop-out `dropout`) carries c copies of it: the candidate's first, then the typed contributors'. */
function typedDropoutProduct(dropout: number, contributors: MixtureHypothesisAtMarker['contributors'], k: number, c: number): number {
  let d = 1;
  d *= dropout ** c;
  for (const typed of contributors) if (typed.copies[k]! !== 0) d *= typed.dropout ** typed.copies[k]!;
  return d;
}

/**
 * Pr(E | H with one more typed non-contributor) as a function of that person's copies (the person of interest under
 * Hd, θ > 0; Balding & Nichols 1994 sampling): a non-contributor changes only θ's sampling counts, so the unknowns'
 * compositions and their evidence probabilities are computed once. Equal bit for bit to mixtureMarkerLikelihood with
 * the copies appended to `nonContributors`.
 */
export function likelihoodWithNonContributor(marker: MixtureMarker, hypothesis: MixtureHypothesisAtMarker, parameters: MixtureModelParameters): ((copies: ClassCopies) => number) & { everyPair(): Float64Array | null } {
  const K = marker.frequencies.length;
  if (K === 0) return Object.assign(() => 0, { everyPair: () => null });
  const typed = typedOf(K, hypothesis);
  const { leaves, weights, drawn } = leafEvidence(marker, hypothesis, parameters, typed);
  const sampling = leafSampling(K, leaves, drawn, marker.frequencies, typed.counts, parameters.theta);
  // The kept terms made when a genotype is first weighed alone (a search weighs them all with everyPair).
  let sumOver: ((copies: ClassCopies) => number) | undefined;
  // Made inline, not as a named arrow (a defineProperty each under tsx: likelihoodWithContributor).
  return Object.assign((copies: ClassCopies) => {
    let added = 0;
    for (let k = 0; k < K; k++) added += copies[k]!;
    return (sumOver ??= sampling.fixed(weights))(copies) / samplingDenominator(typed.total + added, drawn, parameters.theta);
  }, {
    /** Every genotype's likelihood (index a · K + b, a ≤ b: the copies of classes a and b, two of a when a = b), as the function gives it. */
    everyPair() {
      const sums = sampling.everyPair(weights);
      if (!sums) return null;
      // A genotype's copies add two to θ's total.
      const denominator = samplingDenominator(typed.total + 2, drawn, parameters.theta);
      for (let a = 0; a < K; a++) for (let b = a; b < K; b++) sums[a * K + b] = sums[a * K + b]! / denominator;
      return sums;
    },
  });
}
