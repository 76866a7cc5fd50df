/** Whether a designation is a repeat number a stutter model can shift (EuroForMix: `as.numeric` succeeds). */
export function isRepeatNumber(allele: string): boolean {
  return allele.trim() !== '' && Number.isFinite(Number(allele));
}

/**
 * The allele one repeat away (step −1: backward stutter, +1: forward), named as EuroForMix names it
 * (`as.character(as.numeric(a) ± 1)`, 15 significant digits: 10.3 → 9.3, 10 → 9).
 */
export function stutterAllele(allele: string, step: -1 | 1): string {
  return String(Number((Number(allele) + step).toPrecision(15)));
}
