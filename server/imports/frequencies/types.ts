/** A marker as the caller's catalogue knows it; the caller handles case and aliases (GENETICS.md). */
export type MarkerResolver = (name: string) => ResolvedMarker | undefined;

/** What a resolver returns for a known marker name. */
export interface ResolvedMarker {
  id: string;
  name: string;
  kind: 'Autosomal' | 'YStr';
}

/** One problem a lab user reads; `row` is the 1-based line (text) or row (spreadsheet), null for the whole file. */
export interface FrequencyRowError {
  row: number | null;
  marker?: string;
  message: string;
}

// `sampleSize` is N, the number of individuals (GENETICS.md: minimum frequency 5/(2N)); where the source counts
// alleles instead (n_alleles, count tables) it is half that count, rounded down.
/** The allele frequencies of one marker, with its sample size N when the file states it. */
export interface MarkerFrequencies {
  markerId: string;
  marker: string;
  sampleSize: number | null;
  alleles: { allele: string; frequency: number }[];
}

/** One Y-STR haplotype: values per marker id (a multi-copy marker holds several), and how many men carry it. */
export interface Haplotype {
  values: Record<string, string[]>;
  count: number;
}

/** Which population of a multi-population file was read, and which ones the file holds. */
interface PopulationChoice {
  /** The population read (sheet, origin, database or column value), null when the file names none. */
  population: string | null;
  /** Every population the file holds, in file order; empty when it names none. */
  populations: string[];
}

/** The outcome of parsing one upload: the statistics plus everything wrong with them. */
export type ParsedFrequencies =
  | ({
      kind: 'Autosomal';
      format: string;
      markers: MarkerFrequencies[];
      errors: FrequencyRowError[];
      warnings: FrequencyRowError[];
    } & PopulationChoice)
  | ({
      kind: 'YStr';
      format: string;
      markerIds: string[];
      markerNames: string[];
      haplotypes: Haplotype[];
      errors: FrequencyRowError[];
      warnings: FrequencyRowError[];
    } & PopulationChoice);

/** The uploaded file. */
export interface FrequencyFileInput {
  fileName: string;
  bytes: Uint8Array;
}

/** Options of parseFrequencyFile. */
export interface ParseFrequencyOptions {
  /** The kind of population the caller expects; only breaks ties the content leaves open. */
  kind?: 'Autosomal' | 'YStr';
  /** Which population to read from a file that holds several (matched case-insensitively). */
  population?: string;
  /** A companion table of sample sizes (`population,marker,n_alleles`, as fbi2015-n.csv) for the frequency file. */
  sampleSizes?: FrequencyFileInput;
}

/** A row of a table read from text or a spreadsheet: its 1-based line (or sheet row) and its cells as text. */
export interface TableRow {
  line: number;
  cells: string[];
}

/** Rows handed one at a time to `visit`, none kept (eachDelimitedRow). */
export type RowSource = (visit: (row: TableRow) => void) => void;

/** A delimited text file or one worksheet, as rows of text cells. */
export interface Table {
  rows: TableRow[];
  /** The field separator of a text file, null for a spreadsheet. */
  delimiter: ',' | ';' | '\t' | null;
  /** Short label of the container, used in the format name: "CSV", "TSV", "Excel"… */
  container: string;
}

/** Where a parser reports problems. */
export interface Issues {
  errors: FrequencyRowError[];
  warnings: FrequencyRowError[];
}

/** What every parser is given. */
export interface ParseContext {
  fileName: string;
  resolve: MarkerResolver;
  /** The population asked for, if any (ParseFrequencyOptions.population). */
  population: string | undefined;
  issues: Issues;
}

/** An autosomal parser's result before index.ts adds the problems it collected. */
export interface AutosomalDraft {
  kind: 'Autosomal';
  format: string;
  markers: MarkerFrequencies[];
  population: string | null;
  populations: string[];
}

/** A haplotype parser's result before index.ts adds the problems it collected. */
export interface HaplotypeDraft {
  kind: 'YStr';
  format: string;
  markerIds: string[];
  markerNames: string[];
  haplotypes: Haplotype[];
  population: string | null;
  populations: string[];
}
