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

/** What fixes an analysis's formula tables: its formulae, constants, kind and roles (a worker gets a fresh object per task). */
function analysisKey(analysis: EngineAnalysis): string {
  let key = ANALYSES.get(analysis);
  if (key === undefined) ANALYSES.set(analysis, (key = JSON.stringify([analysis.kind, analysis.profileKind, analysis.roles, analysis.formulae, analysis.constants])));
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
    frequencies ? `${frequencies.sampleSize}:${[...frequencies.frequencies].join(';')}` : '',
    query.join('/'),
    column.alleles.join('/'),
  ].join('\u0001');
  const known = TABLES.get(key);
  if (known) return known as MarkerTables<T>;
  const made = make();
  bytes += made.table.byteLength + 2 * made.evaluated.byteLength + key.length;
  if (bytes > MAX_BYTES) (TABLES.clear(), (bytes = 0));
  TABLES.set(key, made);
  return made;
}
