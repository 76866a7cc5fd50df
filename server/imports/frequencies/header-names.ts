// Column and row titles that are not markers, as the example files spell them (FORMATS.md §4, §3).

/** A header cell reduced for comparison: lower case, without spaces, dots, underscores or dashes. */
export function headerKey(cell: string | undefined): string {
  return (cell ?? '').replace(/[\s_.\-"']+/g, '').toLowerCase();
}

/** The allele column of a wide table or long table. */
export const ALLELE_HEADERS = new Set(['allele', 'alleles']);

/** The marker column of a long table, or the first cell of a preamble table's marker row. */
export const MARKER_HEADERS = new Set(['marker', 'markers', 'locus', 'loci', 'str', 'system']);

/** The frequency column of a long table. */
export const FREQUENCY_HEADERS = new Set(['frequency', 'frequencies', 'freq', 'allelefrequency', 'af', 'p']);

/** A column naming the population (or database) a row belongs to. */
export const POPULATION_HEADERS = new Set(['population', 'pop', 'origin', 'database', 'db', 'group', 'ethnicity', 'ethnicgroup']);

/** A sample size counted in individuals (N). */
export const INDIVIDUALS_HEADERS = new Set(['n', 'samplesize', 'individuals', 'nindividuals']);

/** A sample size counted in alleles (2N, or fewer when some were not typed). */
export const ALLELE_COUNT_HEADERS = new Set(['nalleles', '2n', 'allelecount', 'allelestyped']);

/** Summary rows some published tables add under the alleles (heterozygosity, power of discrimination…). */
export const SUMMARY_ROWS = new Set([
  'hobs', 'hexp', 'ho', 'he', 'het', 'heterozygosity', 'pd', 'pe', 'pic', 'tpi', 'pi', 'mp', 'pm', 'pvalue', 'p',
  'hwe', 'hwp', 'total', 'sum', 'mean', 'fs', 'fst', 'fis', 'in',
]);

/** Columns of a haplotype table that describe the man, not a locus. */
export const HAPLOTYPE_INFO_HEADERS = new Set([
  'sample', 'samplename', 'sampleid', 'samplenumber', 'sampleno', 'id', 'name', 'individual', 'specimen', 'specimenid',
  'population', 'pop', 'group', 'region', 'country', 'origin', 'ethnicity', 'haplogroup', 'yhaplogroup', 'hg',
  'mtdna', 'mtdnahaplogroup', 'mthaplogroup', 'sex', 'gender', 'kit', 'comment', 'comments', 'remark', 'remarks',
  'note', 'notes', 'source', 'lab', 'batch', 'reference',
]);

/** A haplotype table column holding how many men carry the row's haplotype. */
export const HAPLOTYPE_COUNT_HEADERS = new Set(['count', 'n', 'number', 'observations']);
