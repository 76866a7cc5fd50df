/** Σ pᵢᵏ, the power sums the closed forms are written in. */
function powerSum(frequencies: readonly number[], k: number): number {
  return frequencies.reduce((sum, p) => sum + p ** k, 0);
}

/**
 * Mean power of exclusion of a locus in a trio (mother known), from its allele frequencies:
 * 1 − 2a₂ + a₃ + 2a₄ − 3a₅ − 2a₂² + 3a₂a₃ with aₖ = Σpᵢᵏ (Jamieson & Taylor 1997, Anim. Genet. 28:397,
 * after Garber & Morris 1983; AABB relationship-testing practice). Two equal alleles give 3/16.
 */
export function trioExclusionPower(frequencies: readonly number[]): number {
  const [a2, a3, a4, a5] = [2, 3, 4, 5].map((k) => powerSum(frequencies, k)) as [number, number, number, number];
  return 1 - 2 * a2 + a3 + 2 * a4 - 3 * a5 - 2 * a2 ** 2 + 3 * a2 * a3;
}

/**
 * Mean power of exclusion of a locus in a duo (no mother): the chance a random man shares no allele
 * with the child, Σ pᵢ²(1−pᵢ)² + Σᵢ<ⱼ 2pᵢpⱼ(1−pᵢ−pⱼ)² (Fung & Hu 2008, motherless case; AABB).
 */
export function duoExclusionPower(frequencies: readonly number[]): number {
  let sum = 0;
  frequencies.forEach((p, i) => {
    sum += p ** 2 * (1 - p) ** 2;
    for (const q of frequencies.slice(i + 1)) sum += 2 * p * q * (1 - p - q) ** 2;
  });
  return sum;
}
