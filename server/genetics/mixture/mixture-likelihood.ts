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

/** log(n!) for the small counts of allele copies (at most 2 per unknown). */
const LOG_FACTORIAL = Array.from({ length: 64 }, (_, n) => {
  let s = 0;
  for (let i = 2; i <= n; i++) s += Math.log(i);
  return s;
});

/**
 * Pr(E | H) at one marker, exactly (GENETICS.md "Mixtures"). The unknowns are summed over by their allele counts:
 * unknowns sharing a drop-out probability form a group, and a group of u unknowns contributes a composition m of 2u
 * allele copies over the classes, weighted by the number of allele orders (2u)!/Π mₖ! — summing over the unknowns'
 * genotypes gives exactly that, since under Balding–Nichols every order of the same alleles is equally likely.
 */
export function mixtureMarkerLikelihood(marker: MixtureMarker, hypothesis: MixtureHypothesisAtMarker, parameters: MixtureModelParameters): number {
  const K = marker.frequencies.length;
  const { theta } = parameters;
  // The typed persons' allele counts (θ's sampling counts) and the typed contributors' drop-out products per class.
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
  const groups = groupUnknowns(hypothesis.unknowns);
  const drawn = 2 * hypothesis.unknowns.length;
  // Π over the draws of the Balding–Nichols denominators, which depend only on how many alleles were drawn before.
  let denominator = 1;
  for (let j = 0; j < drawn; j++) denominator *= 1 + (total + j - 1) * theta;

  const evidence = evidenceProbability(marker, parameters);
  const unknownCopies = new Int32Array(K);
  const dropout = new Float64Array(K);
  let sum = 0;
  // Depth-first over the groups, each over its compositions: copies[k] and the log of the order count so far.
  const byGroup = groups.map(() => new Int32Array(K));
  const visit = (g: number, logOrders: number) => {
    if (g === groups.length) {
      let sampling = 1;
      for (let k = 0; k < K; k++) {
        const m = unknownCopies[k]!;
        for (let j = 0; j < m; j++) sampling *= (counts[k]! + j) * theta + (1 - theta) * marker.frequencies[k]!;
      }
      if (sampling === 0) return;
      for (let k = 0; k < K; k++) {
        let d = typedDropout[k]!;
        for (let gi = 0; gi < groups.length; gi++) if (byGroup[gi]![k]! > 0) d *= groups[gi]!.dropout ** byGroup[gi]![k]!;
        dropout[k] = d;
      }
      const e = evidence(dropout, typedCarried, unknownCopies);
      if (e !== 0) sum += Math.exp(logOrders) * (sampling / denominator) * e;
      return;
    }
    const group = groups[g]!;
    const copies = byGroup[g]!;
    const place = (k: number, left: number, logOrders: number) => {
      if (k === K - 1) {
        copies[k] = left;
        unknownCopies[k]! += left;
        visit(g + 1, logOrders - LOG_FACTORIAL[left]!);
        unknownCopies[k]! -= left;
        copies[k] = 0;
        return;
      }
      for (let m = 0; m <= left; m++) {
        copies[k] = m;
        unknownCopies[k]! += m;
        place(k + 1, left - m, logOrders - LOG_FACTORIAL[m]!);
        unknownCopies[k]! -= m;
      }
      copies[k] = 0;
    };
    place(0, 2 * group.count, logOrders + LOG_FACTORIAL[2 * group.count]!);
  };
  if (K === 0) return 0;
  visit(0, 0);
  return sum;
}

/** Unknowns with the same drop-out probability, counted together. */
function groupUnknowns(dropouts: readonly number[]): { dropout: number; count: number }[] {
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
  return (dropout: Float64Array, typedCarried: Uint8Array, unknownCopies: Int32Array): number => {
    let p = 1;
    for (const seen of marker.seen) {
      let droppedIn = false;
      for (let k = 0; k < K; k++) {
        const carried = typedCarried[k]! === 1 || unknownCopies[k]! > 0;
        if (carried) p *= seen[k]! === 1 ? 1 - dropout[k]! : dropout[k]!;
        else if (seen[k]! === 1) {
          droppedIn = true;
          p *= dropIn * marker.frequencies[k]!;
        }
        if (p === 0) return 0;
      }
      if (!droppedIn) p *= 1 - dropIn;
    }
    return p;
  };
}
