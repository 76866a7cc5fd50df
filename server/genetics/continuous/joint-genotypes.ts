import type { EvidenceMarker } from './evidence-marker';
import { genotypeList, type HypothesisMarker } from './hypothesis-marker';

// What one contributor puts at a position: copies of the allele there, of the allele one repeat above (its
// backward stutter falls here) and of the one below (forward). A genotype has two alleles, so at most 10
// combinations (EuroForMix's compact outcome); a position's key is these digits over contributors, base 10.
const DIGIT = new Int8Array(27).fill(-1);
export const DIGIT_COPIES: [number, number, number][] = [];
for (let own = 0; own <= 2; own++)
  for (let above = 0; above <= 2 - own; above++)
    for (let below = 0; below <= 2 - own - above; below++) {
      DIGIT[own + 3 * above + 9 * below] = DIGIT_COPIES.length;
      DIGIT_COPIES.push([own, above, below]);
    }
export const RADIX = DIGIT_COPIES.length;

/** digit[g × P + p]: what genotype g puts at position p (a DIGIT_COPIES index). */
export function genotypeDigits(evidence: EvidenceMarker, genotypes: readonly [number, number][]): Int32Array {
  const positionCount = evidence.positions.length;
  const digit = new Int32Array(genotypes.length * positionCount);
  genotypes.forEach(([a, b], g) => {
    for (let p = 0; p < positionCount; p++) {
      const copies = (i: number) => (i < 0 ? 0 : (a === i ? 1 : 0) + (b === i ? 1 : 0));
      const above = evidence.backwardFrom[p]!;
      const below = evidence.forwardFrom[p]!;
      // Q does not stutter (EuroForMix: the drop-out allele gives no stutter).
      const stutters = (i: number) => (i >= 0 && evidence.givesStutter[i] ? copies(i) : 0);
      digit[g * positionCount + p] = DIGIT[(p < evidence.alleleCount ? copies(p) : 0) + 3 * stutters(above) + 9 * stutters(below)]!;
    }
  });
  return digit;
}

/** The Balding–Nichols probability of drawing allele a given the copies drawn before (Balding & Nichols 1994; EuroForMix `prob_a`). */
export function drawProbability(p: number, copies: number, total: number, theta: number): number {
  return (copies * theta + (1 - theta) * p) / (1 + (total - 1) * theta);
}

/** The drop-in term of a joint genotype: per replicate Σ log(c·p·λe^(−λ(y−AT))) over its unexplained peaks, else log(1 − c) (EuroForMix). */
export function dropInTerm(evidence: EvidenceMarker, key: Int32Array, noDropIn: number): number {
  let term = 0;
  for (let r = 0; r < evidence.peaks.length; r++) {
    let dropIns = 0;
    let any = false;
    for (const i of evidence.seenIn[r]!) {
      if (key[i] === 0) {
        dropIns += evidence.dropInWeights[r]![i]!;
        any = true;
      }
    }
    term += any ? dropIns : noDropIn;
  }
  return term;
}

/**
 * Walks every joint genotype of the unknowns in EuroForMix's order (Balding & Nichols 1994 for the prior under θ,
 * drawn in turn after the typed persons): `leaf` gets each position's key (the contributors' DIGIT_COPIES indices in
 * base RADIX), the log prior and the genotype index chosen per unknown. Returns the unknowns and the key range.
 */
export function walkJointGenotypes(evidence: EvidenceMarker, hypothesis: HypothesisMarker, leaf: (key: Int32Array, logPrior: number, chosen: Int32Array) => void): { unknowns: number[]; tableSize: number } {
  const { frequencies, theta } = evidence;
  const positionCount = evidence.positions.length;
  const genotypes = genotypeList(evidence.alleleCount);
  const contributors = hypothesis.genotypes.length;
  const power = Array.from({ length: contributors }, (_, k) => RADIX ** k);
  const digit = genotypeDigits(evidence, genotypes);
  const unknowns = Array.from(hypothesis.genotypes.keys()).filter((k) => hypothesis.genotypes[k]! < 0);
  const keys = Array.from({ length: unknowns.length + 1 }, () => new Int32Array(positionCount));
  hypothesis.genotypes.forEach((g, k) => {
    if (g >= 0) for (let p = 0; p < positionCount; p++) keys[0]![p]! += digit[g * positionCount + p]! * power[k]!;
  });
  const counts = Float64Array.from(hypothesis.typedCounts);
  let total = hypothesis.typedTotal;
  const chosen = new Int32Array(unknowns.length);
  const visit = (depth: number, logPrior: number) => {
    if (depth === unknowns.length) return leaf(keys[depth]!, logPrior, chosen);
    const step = power[unknowns[depth]!]!;
    const from = keys[depth]!;
    const to = keys[depth + 1]!;
    for (let g = 0; g < genotypes.length; g++) {
      const [a, b] = genotypes[g]!;
      const first = drawProbability(frequencies[a]!, counts[a]!, total, theta);
      const probability = a === b ? first * drawProbability(frequencies[a]!, counts[a]! + 1, total + 1, theta) : first * 2 * drawProbability(frequencies[b]!, counts[b]!, total + 1, theta);
      for (let p = 0; p < positionCount; p++) to[p] = from[p]! + digit[g * positionCount + p]! * step;
      counts[a]! += 1;
      counts[b]! += 1;
      total += 2;
      chosen[depth] = g;
      visit(depth + 1, logPrior + Math.log(probability));
      counts[a]! -= 1;
      counts[b]! -= 1;
      total -= 2;
    }
  };
  visit(0, 0);
  return { unknowns, tableSize: RADIX ** contributors };
}
