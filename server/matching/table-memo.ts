import type { EngineAnalysis } from '../genetics/evaluate-analysis';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import type { MarkerColumn } from './profile-index';

/** One query marker's tables over a column: the value per genotype code, which codes were evaluated, which are inconsistent. */
export interface MarkerTables<T extends Uint32Array | Float64Array> {
  table: T;
  evaluated: Uint8Array;
  inconsistent: Uint8Array;
}

/** Bytes of tables kept; past it the memo starts again (a search's tables are a few hundred kilobytes). */
const MAX_BYTES = 32 << 20;
const TABLES = new Map<string, MarkerTables<Uint32Array | Float64Array>>();
let bytes = 0;
const ANALYSES = new WeakMap<object, string>();
// Keys of a marker's frequencies and of a column's dictionary, by object: a search builds them once, not per table.
const FREQUENCIES = new WeakMap<object, string>();
const DICTIONARIES = new WeakMap<readonly string[], { size: number; key: string }>();

/** Long keys (an analysis's formulae, a marker's frequencies) stand for a short number in the tables' keys, hashed per table. */
const SHORT = new Map<string, string>();
// Never reused, so a key made before the map was cleared cannot name another analysis or population.
let issued = 0;
function short(long: string): string {
  let id = SHORT.get(long);
  if (id === undefined) {
    if (SHORT.size > 100_000) SHORT.clear();
    SHORT.set(long, (id = String(issued++)));
  }
  return id;
}

function frequencyKey(frequencies: NonNullable<ReturnType<PopulationFrequencies['markers']['get']>>): string {
  let key = FREQUENCIES.get(frequencies);
  if (key === undefined) FREQUENCIES.set(frequencies, (key = short(`${frequencies.sampleSize}:${[...frequencies.frequencies].join(';')}`)));
  return key;
}

/** A dictionary only grows (ProfileIndex): its key is made again when it has. */
function dictionaryKey(alleles: readonly string[]): string {
  let known = DICTIONARIES.get(alleles);
  if (known?.size !== alleles.length) DICTIONARIES.set(alleles, (known = { size: alleles.length, key: alleles.join('/') }));
  return known.key;
}

/** What fixes an analysis's formula tables: its formulae, constants, kind and roles (a worker gets a fresh object per task). */
function analysisKey(analysis: EngineAnalysis): string {
  let key = ANALYSES.get(analysis);
  if (key === undefined) ANALYSES.set(analysis, (key = short(JSON.stringify([analysis.kind, analysis.profileKind, analysis.roles, analysis.formulae, analysis.constants]))));
  return key;
}

/**
 * A query marker's tables over a column, kept by everything they depend on (issue 29: planning dominated a kinship
 * search): the analysis's formulae, the query's role and genotype, the marker's frequencies and the column's dictionary.
 * The same genotype at a marker recurs across searches, so most of a search's tables are found made. Tables are shared
 * and never written after `make` returns them.
 */
export function memoTables<T extends Uint32Array | Float64Array>(
  analysis: EngineAnalysis,
  role: 0 | 1,
  population: PopulationFrequencies | null,
  column: MarkerColumn,
  query: Genotype,
  make: () => MarkerTables<T>,
): MarkerTables<T> {
  const frequencies = population?.markers.get(column.name);
  const key = [
    analysisKey(analysis),
    role,
    column.name,
    population ? population.minimumAlleleFrequency : 'none',
    frequencies ? frequencyKey(frequencies) : '',
    query.join('/'),
    dictionaryKey(column.alleles),
  ].join('\u0001');
  const known = TABLES.get(key);
  if (known) return known as MarkerTables<T>;
  const made = make();
  bytes += made.table.byteLength + 2 * made.evaluated.byteLength + key.length;
  if (bytes > MAX_BYTES) (TABLES.clear(), (bytes = 0));
  TABLES.set(key, made);
  return made;
}
