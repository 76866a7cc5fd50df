/** Splits what the user typed for one marker into allele designations: comma, semicolon or space separated (`15, 16`, `X Y`, `9.3`). */
export function parseAlleleText(text: string): string[] {
  return text.split(/[\s,;]+/).filter((a) => a !== '');
}

/** How a marker's alleles read in a text field and a table. */
export const formatAlleles = (alleles: readonly string[]): string => alleles.join(', ');
