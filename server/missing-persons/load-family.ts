import { eq, inArray } from 'drizzle-orm';
import type { MutationSetting } from '../../core/schemas/pedigrees';
import type { Db } from '../db/database';
import { analyses, families, populations, profiles } from '../db/schema';
import { analysisHypotheses, PedigreeError, type PedigreeHypotheses } from '../genetics/pedigree';
import type { Genotype, PopulationFrequencies } from '../genetics/types';
import { loadEnginePopulation } from '../matching/engine-population';
import type { IndexSet } from '../matching/index-set';
import { searchedOrganizations } from '../network/held-organizations';

export type FamilyRow = typeof families.$inferSelect;
export type AnalysisRow = typeof analyses.$inferSelect;

/** Why a family cannot be searched, in the analyst's words. */
export class FamilyProblem extends Error {}

/** A population as a family search weighs it. */
export interface FamilyPopulation {
  id: string;
  name: string;
  synthetic: boolean;
  frequencies: PopulationFrequencies;
}

/**
 * Population statistics read once and kept while unchanged (the search queue's PopulationCache): an approved
 * remains profile weighs every active family, and reading each family's tables again per approval held PGlite's
 * connection and the event loop for seconds (issue 29: /api/health 7.5 s with 20 families).
 */
export interface FamilyStatistics {
  load(db: Db, ids: readonly string[]): Promise<readonly FamilyPopulation[]>;
}

/** A family ready to search: its pedigree's hypotheses and models, the relatives' approved genotypes by role, the populations. */
export interface LoadedFamily {
  family: FamilyRow;
  analysis: AnalysisRow;
  hypotheses: PedigreeHypotheses;
  mutation: MutationSetting | null;
  relatives: Map<string, ReadonlyMap<string, Genotype>>;
  populations: FamilyPopulation[];
  /** The organizations whose remains it searches: its own; at the upper level, a held laboratory's family searches every laboratory held there (issue 32). */
  organizationIds: string[];
}

/**
 * Loads a family for a search: the pedigree analysis (active, with its pedigree), each relative's profile approved
 * (its genotypes as the matching index holds them), the populations' frequencies and the organizations searched.
 * Throws FamilyProblem naming what is missing.
 */
export async function loadFamily(db: Db, indexes: IndexSet, family: FamilyRow, statistics?: FamilyStatistics): Promise<LoadedFamily> {
  const [analysis] = await db.select().from(analyses).where(eq(analyses.id, family.analysisId));
  if (!analysis || analysis.kind !== 'Pedigree' || !analysis.pedigree) throw new FamilyProblem(`The family's analysis is not a pedigree analysis.`);
  if (!analysis.active) throw new FamilyProblem(`The pedigree analysis ${analysis.name} is not active.`);
  let hypotheses: PedigreeHypotheses;
  try {
    hypotheses = analysisHypotheses(analysis.pedigree, analysis.roles);
  } catch (error) {
    if (error instanceof PedigreeError) throw new FamilyProblem(`Analysis ${analysis.name}: ${error.message}`);
    throw error;
  }
  const ids = family.relatives.map((r) => r.profileId);
  const rows = ids.length === 0 ? [] : await db.select({ id: profiles.id, name: profiles.profileId, status: profiles.status }).from(profiles).where(inArray(profiles.id, ids));
  const relatives = new Map<string, ReadonlyMap<string, Genotype>>();
  for (const r of family.relatives) {
    const row = rows.find((p) => p.id === r.profileId);
    if (!row) throw new FamilyProblem(`The profile placed as ${r.role} no longer exists; place another.`);
    const held = indexes.find(r.profileId);
    if (row.status !== 'approved' || !held) throw new FamilyProblem(`Profile ${row.name} (${r.role}) is ${row.status}: a family searches with approved profiles only.`);
    relatives.set(r.role, held.genotypes);
  }
  const popRows = family.populationIds.length === 0 ? [] : statistics ? await statistics.load(db, family.populationIds) : await db.select().from(populations).where(inArray(populations.id, family.populationIds));
  const loaded: FamilyPopulation[] = [];
  for (const id of family.populationIds) {
    const row = popRows.find((p) => p.id === id);
    if (!row) throw new FamilyProblem('A population of the family no longer exists; choose the populations again.');
    loaded.push({ id: row.id, name: row.name, synthetic: row.synthetic, frequencies: 'frequencies' in row ? row.frequencies : (await loadEnginePopulation(db, row)).frequencies });
  }
  const organizationIds = await searchedOrganizations(db, family.organizationId);
  return { family, analysis, hypotheses, mutation: analysis.mutation ?? null, relatives, populations: loaded, organizationIds };
}
