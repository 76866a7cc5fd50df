/**
 * The semi-continuous (qualitative, "drop model") likelihood of one marker of a mixture (GENETICS.md "Mixtures"):
 * Pr(E | H) = Σ over the unknowns' genotypes of Pr(genotypes | typed alleles, θ) · Π over replicates Pr(E_r | all
 * contributors), where every allele copy of contributor i drops out with probability dᵢ, a carried allele is seen
 * unless all its copies drop out, each seen allele no contributor carries is a drop-in with probability c·pₐ and a
 * replicate without drop-in has probability 1 − c (Curran et al. 1999; Gill et al. 2007; Haned et al. 2012, LRmix;
 * the qualitative model of EuroForMix and forensim's likEvid).
 *
 * Alleles are "classes" here: each allele seen in some replicate is its own class, and every other allele (typed
 * but never seen, or neither) is merged into one class with the remaining frequency. That is exact: an allele never
 * seen contributes Π dᵢ^copies whichever allele it is, and under Balding–Nichols sampling drawing "some allele of
 * the class" has the class's summed count and frequency.
 */

/** One marker, prepared: K allele classes with their frequencies, and which classes each replicate shows. */
export interface MixtureMarker {
  frequencies: Float64Array;
  /** seen[r][k] = 1 when replicate r shows class k (the merged class is never seen). */
  seen: Uint8Array[];
}

/** A typed person of the hypothesis: allele copies per class (a homozygote has 2 in one class). */
export type ClassCopies = Int32Array;

/** One hypothesis at one marker. */
export interface MixtureHypothesisAtMarker {
  /** Typed contributors (the person of interest under Hp, the known contributors) and each one's drop-out. */
  contributors: readonly { copies: ClassCopies; dropout: number }[];
  /** Typed persons who are not contributors (the person of interest under Hd): their alleles only enter θ's counts. */
  nonContributors: readonly ClassCopies[];
  /** The unknown contributors' drop-out probabilities, one per unknown. */
  unknowns: readonly number[];
}

export interface MixtureModelParameters {
  /** c: the probability of a drop-in in a replicate (each dropped-in allele a has c·pₐ). */
  dropIn: number;
  /** θ (F_ST) of the Balding–Nichols sampling formula; 0 gives Hardy–Weinberg. */
  theta: number;
}

/**
 * The unknowns' allele-count compositions for K classes and groups of the given sizes, flattened: per composition
 * (a "leaf") each group's copies per class and its number of allele orders Π (2uᵍ)!/Π mₖ!. They depend only on K
 * and the group sizes, so they are built once and kept.
 */
export interface Leaves {
  count: number;
  /** groupCopies[(leaf · G + g) · K + k]: group g's copies of class k. */
  groupCopies: Int32Array;
  /** copies[leaf · K + k]: all unknowns' copies of class k. */
  copies: Int32Array;
  orders: Float64Array;
}

const FACTORIAL = Array.from({ length: 32 }, (_, n) => {
  let f = 1;
  for (let i = 2; i <= n; i++) f *= i;
  return f;
});

const LEAVES = new Map<string, Leaves>();

export function leavesOf(K: number, sizes: readonly number[]): Leaves {
  const key = `${K}:${sizes.join(',')}`;
  const cached = LEAVES.get(key);
  if (cached) return cached;
  const G = sizes.length;
  const groupCopies: number[] = [];
  const copies: number[] = [];
  const orders: number[] = [];
  const current = sizes.map(() => new Int32Array(K));
  const visit = (g: number, weight: number) => {
    if (g === G) {
      for (const c of current) groupCopies.push(...c);
      for (let k = 0; k < K; k++) copies.push(current.reduce((sum, c) => sum + c[k]!, 0));
      orders.push(weight);
      return;
    }
    const group = current[g]!;
    const place = (k: number, left: number, w: number) => {
      if (k === K - 1) {
        group[k] = left;
        visit(g + 1, w / FACTORIAL[left]!);
        group[k] = 0;
        return;
      }
      for (let m = 0; m <= left; m++) {
        group[k] = m;
        place(k + 1, left - m, w / FACTORIAL[m]!);
      }
      group[k] = 0;
    };
    place(0, 2 * sizes[g]!, weight * FACTORIAL[2 * sizes[g]!]!);
  };
  visit(0, 1);
  const leaves = { count: orders.length, groupCopies: Int32Array.from(groupCopies), copies: Int32Array.from(copies), orders: Float64Array.from(orders) };
  // A handful of shapes ever occur (K up to a few dozen, at most a few unknowns); the cap only guards memory.
  if (LEAVES.size > 256) LEAVES.clear();
  LEAVES.set(key, leaves);
  return leaves;
}

/**
 * The Balding–Nichols sampling products by class and number drawn: S[k · (drawn + 1) + m] = Π_{j<m} ((nₖ + j)θ +
 * (1 − θ)pₖ), nₖ the typed persons' copies of class k.
 */
export function samplingTable(frequencies: Float64Array, counts: Float64Array, theta: number, drawn: number): Float64Array {
  const K = frequencies.length;
  const S = new Float64Array(K * (drawn + 1));
  for (let k = 0; k < K; k++) samplingRow(S, k, frequencies[k]!, counts[k]!, theta, drawn);
  return S;
}

/** Row k of samplingTable (Balding & Nichols 1994): class k of frequency p with n typed copies, into S. */
export function samplingRow(S: Float64Array, k: number, p: number, n: number, theta: number, drawn: number): void {
  let product = 1;
  S[k * (drawn + 1)] = 1;
  for (let j = 0; j < drawn; j++) {
    product *= (n + j) * theta + (1 - theta) * p;
    S[k * (drawn + 1) + j + 1] = product;
  }
}

/** The typed persons' allele counts (θ's sampling counts), their total, and the typed contributors' drop-out products and carried classes. */
export function typedOf(K: number, hypothesis: MixtureHypothesisAtMarker) {
  const counts = new Float64Array(K);
  let total = 0;
  const typedDropout = new Float64Array(K).fill(1);
  const typedCarried = new Uint8Array(K);
  for (const { copies, dropout } of hypothesis.contributors) {
    for (let k = 0; k < K; k++) {
      if (copies[k]! === 0) continue;
      counts[k]! += copies[k]!;
      total += copies[k]!;
      typedDropout[k]! *= dropout ** copies[k]!;
      typedCarried[k] = 1;
    }
  }
  for (const copies of hypothesis.nonContributors) {
    for (let k = 0; k < K; k++) {
      counts[k]! += copies[k]!;
      total += copies[k]!;
    }
  }
  return { counts, total, typedDropout, typedCarried };
}

/** Π over the draws of the Balding–Nichols denominators, which depend only on how many alleles were drawn before. */
export function samplingDenominator(total: number, drawn: number, theta: number): number {
  let denominator = 1;
  for (let j = 0; j < drawn; j++) denominator *= 1 + (total + j - 1) * theta;
  return denominator;
}

/**
 * Each leaf's orders × Pr(E | its alleles), the part of its term that does not depend on θ's counts; the
 * composition enumeration of the unknowns grouped by drop-out.
 */
export function leafEvidence(marker: MixtureMarker, hypothesis: MixtureHypothesisAtMarker, parameters: MixtureModelParameters, typed: ReturnType<typeof typedOf>) {
  const K = marker.frequencies.length;
  const groups = groupUnknowns(hypothesis.unknowns);
  const G = groups.length;
  const leaves = leavesOf(K, groups.map((g) => g.count));
  const drawn = 2 * hypothesis.unknowns.length;
  // powers[g · (drawn + 1) + m] = d_g^m
  const powers = new Float64Array(G * (drawn + 1));
  groups.forEach((group, g) => {
    for (let m = 0; m <= drawn; m++) powers[g * (drawn + 1) + m] = group.dropout ** m;
  });
  const weights = new Float64Array(leaves.count);
  if (G === 1 && marker.seen.length > 0) {
    singleGroupWeights(marker, parameters, typed, leaves, powers, drawn, weights);
    return { leaves, weights, drawn };
  }
  const evidence = evidenceProbability(marker, parameters);
  const dropout = new Float64Array(K);
  const { groupCopies, copies, orders } = leaves;
  const { typedDropout, typedCarried } = typed;
  for (let leaf = 0; leaf < leaves.count; leaf++) {
    for (let k = 0; k < K; k++) {
      let d = typedDropout[k]!;
      for (let g = 0; g < G; g++) {
        const m = groupCopies[(leaf * G + g) * K + k]!;
        if (m > 0) d *= powers[g * (drawn + 1) + m]!;
      }
      dropout[k] = d;
    }
    weights[leaf] = orders[leaf]! * evidence(dropout, typedCarried, copies, leaf * K);
  }
  return { leaves, weights, drawn };
}

/**
 * evidenceProbability's factors when the unknowns share one drop-out d (a group of leafEvidence, powers[m] = d^m): class
 * k's in replicate r when the unknowns carry m of its copies at factor[(r · K + k) · M + m], M = drawn + 1 (1 where it
 * multiplies nothing), and dropped there 1 when it is a drop-in; the typed persons' drop-out product first, as leafEvidence multiplies them.
 */
export function singleGroupFactors(marker: MixtureMarker, dropIn: number, typed: Pick<ReturnType<typeof typedOf>, 'typedDropout' | 'typedCarried'>, powers: Float64Array, drawn: number): { factor: Float64Array; dropped: Uint8Array } {
  const K = marker.frequencies.length;
  const R = marker.seen.length;
  const M = drawn + 1;
  const { typedDropout, typedCarried } = typed;
  const factor = new Float64Array(R * K * M);
  const dropped = new Uint8Array(R * K * M);
  for (let r = 0; r < R; r++) {
    const seen = marker.seen[r]!;
    for (let k = 0; k < K; k++) {
      for (let m = 0; m < M; m++) {
        const at = (r * K + k) * M + m;
        const d = m > 0 ? typedDropout[k]! * powers[m]! : typedDropout[k]!;
        if (typedCarried[k]! === 1 || m > 0) factor[at] = seen[k]! === 1 ? 1 - d : d;
        else if (seen[k]! === 1) {
          factor[at] = dropIn * marker.frequencies[k]!;
          dropped[at] = 1;
        } else factor[at] = 1;
      }
    }
  }
  return { factor, dropped };
}

/**
 * leafEvidence's weights when the unknowns share one drop-out (issue 29): each factor of evidenceProbability depends only
 * on the replicate, the class and the unknowns' copies of it (d^m), so it is read from a table of those; and the leaves
 * are the compositions in lexicographic order (leavesOf), so the first replicate's product over classes 0 … j, which
 * depends only on their copies, is multiplied once per start of a composition and shared by every leaf that starts so.
 * The same factors in the same order (1 where evidenceProbability multiplies nothing; a product that reached 0 stays
 * 0, as its early return gives): the same doubles.
 */
function singleGroupWeights(marker: MixtureMarker, { dropIn }: MixtureModelParameters, typed: ReturnType<typeof typedOf>, leaves: Leaves, powers: Float64Array, drawn: number, weights: Float64Array): void {
  const K = marker.frequencies.length;
  const R = marker.seen.length;
  const M = drawn + 1;
  const { factor, dropped } = singleGroupFactors(marker, dropIn, typed, powers, drawn);
  walkLeaves({ K, R, M, dropIn, factor, dropped, copies: leaves.copies, orders: leaves.orders, weights }, 0, 0, drawn, 1, 0);
}

/** What singleGroupWeights' walk reads: the factors by replicate, class and copies, the leaves, the weights it writes. */
interface LeafWalk {
  K: number;
  R: number;
  M: number;
  dropIn: number;
  factor: Float64Array;
  dropped: Uint8Array;
  copies: Int32Array;
  orders: Float64Array;
  weights: Float64Array;
}

/**
 * singleGroupWeights' walk over the compositions from class k on (`left` copies to place, the first replicate's
 * product p so far): writes the weights of its leaves from `leaf` on and returns the next leaf. A function of the
 * module, not a closure per marker: under tsx (esbuild keepNames) each named closure costs a defineProperty when made.
 */
function walkLeaves(w: LeafWalk, leaf: number, k: number, left: number, p: number, droppedIn: number): number {
  const { K, R, M, dropIn, factor, dropped, copies } = w;
  if (k < K - 1) {
    for (let m = 0; m <= left; m++) leaf = walkLeaves(w, leaf, k + 1, left - m, p * factor[k * M + m]!, droppedIn | dropped[k * M + m]!);
    return leaf;
  }
  p *= factor[k * M + left]!;
  if ((droppedIn | dropped[k * M + left]!) === 0) p *= 1 - dropIn;
  for (let r = 1; r < R; r++) {
    let any = 0;
    for (let j = 0; j < K; j++) {
      const at = (r * K + j) * M + copies[leaf * K + j]!;
      p *= factor[at]!;
      any |= dropped[at]!;
    }
    if (any === 0) p *= 1 - dropIn;
  }
  w.weights[leaf] = w.orders[leaf]! * p;
  return leaf + 1;
}

/** Σ over the leaves of weight × sampling probability of their copies (S from samplingTable). */
function sumLeaves(K: number, leaves: Leaves, weights: Float64Array, S: Float64Array, drawn: number): number {
  let sum = 0;
  for (let leaf = 0; leaf < leaves.count; leaf++) {
    const w = weights[leaf]!;
    if (w === 0) continue;
    let sampling = 1;
    for (let k = 0; k < K; k++) sampling *= S[k * (drawn + 1) + leaves.copies[leaf * K + k]!]!;
    sum += w * sampling;
  }
  return sum;
}

/**
 * Pr(E | H) at one marker, exactly (GENETICS.md "Mixtures"). The unknowns are summed over by their allele counts:
 * unknowns sharing a drop-out probability form a group, and a group of u unknowns contributes a composition m of 2u
 * allele copies over the classes, weighted by the number of allele orders (2u)!/Π mₖ! — summing over the unknowns'
 * genotypes gives exactly that, since under Balding–Nichols every order of the same alleles is equally likely.
 */
export function mixtureMarkerLikelihood(marker: MixtureMarker, hypothesis: MixtureHypothesisAtMarker, parameters: MixtureModelParameters): number {
  const K = marker.frequencies.length;
  if (K === 0) return 0;
  const typed = typedOf(K, hypothesis);
  const { leaves, weights, drawn } = leafEvidence(marker, hypothesis, parameters, typed);
  const S = samplingTable(marker.frequencies, typed.counts, parameters.theta, drawn);
  return sumLeaves(K, leaves, weights, S, drawn) / samplingDenominator(typed.total, drawn, parameters.theta);
}

/** Unknowns with the same drop-out probability, counted together. */
export function groupUnknowns(dropouts: readonly number[]): { dropout: number; count: number }[] {
  const groups: { dropout: number; count: number }[] = [];
  for (const d of dropouts) {
    const group = groups.find((g) => g.dropout === d);
    if (group) group.count++;
    else groups.push({ dropout: d, count: 1 });
  }
  return groups;
}

/**
 * Pr(E | every contributor's alleles) as a function of the per-class probability that all copies drop out
 * (`dropout[k]`, 1 where no contributor carries k) and which classes the contributors carry.
 */
function evidenceProbability(marker: MixtureMarker, { dropIn }: MixtureModelParameters) {
  const K = marker.frequencies.length;
  const { seen: replicates, frequencies } = marker;
  // The unknowns' copies of class k are unknownCopies[at + k] (a leaf's row of Leaves.copies).
  return (dropout: Float64Array, typedCarried: Uint8Array, unknownCopies: Int32Array, at: number): number => {
    let p = 1;
    for (let r = 0; r < replicates.length; r++) {
      const seen = replicates[r]!;
      let droppedIn = false;
      for (let k = 0; k < K; k++) {
        const carried = typedCarried[k]! === 1 || unknownCopies[at + k]! > 0;
        if (carried) p *= seen[k]! === 1 ? 1 - dropout[k]! : dropout[k]!;
        else if (seen[k]! === 1) {
          droppedIn = true;
          p *= dropIn * frequencies[k]!;
        }
        if (p === 0) return 0;
      }
      if (!droppedIn) p *= 1 - dropIn;
    }
    return p;
  };
}
