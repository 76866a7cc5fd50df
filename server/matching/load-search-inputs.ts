import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../db/database';
import { analyses, analysisConstants, analysisFormulae, populations } from '../db/schema';
import { loadEnginePopulation } from './engine-population';
import type { MatchAnalysis, MatchPopulation, ProfileKind } from './types';
import { modelsFor } from '../genetics/evaluate-pedigree';
import { analysisHypotheses, PedigreeError } from '../genetics/pedigree';
import type { PedigreeWeighing } from './pedigree-evaluator';

/**
 * How a pairwise analysis with a pedigree and a mutation model weighs a marker (issue 16: the pedigree likelihood
 * replaces μ/A); undefined for formula tables, or a pedigree that no longer fits the roles.
 */
function pedigreeWeighing(row: typeof analyses.$inferSelect): PedigreeWeighing | undefined {
  if (row.kind !== 'Computational' || row.profileKind !== 'Autosomal' || row.roles.length !== 2 || !row.pedigree || !row.mutation) return undefined;
  try {
    return { hypotheses: analysisHypotheses(row.pedigree, row.roles), models: modelsFor(row.mutation), mutation: row.mutation };
  } catch (error) {
    if (error instanceof PedigreeError) return undefined;
    throw error;
  }
}

/**
 * The active analyses of a profile kind with their formulae and constants (mixture analyses with their parameters),
 * as searches run them. Pedigree analyses are not among them: a family searches from its missing-person case (server/missing-persons).
 */
export async function loadActiveAnalyses(db: Db, kind: ProfileKind): Promise<(MatchAnalysis & { name: string })[]> {
  const rows = await db.select().from(analyses).where(and(eq(analyses.active, true), eq(analyses.profileKind, kind), ne(analyses.kind, 'Pedigree')));
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const formulae = await db.select().from(analysisFormulae).where(inArray(analysisFormulae.analysisId, ids));
  const constants = await db.select().from(analysisConstants).where(inArray(analysisConstants.analysisId, ids));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind as MatchAnalysis['kind'],
    profileKind: r.profileKind as ProfileKind,
    roles: r.roles,
    threshold: r.threshold,
    formulae: formulae.filter((f) => f.analysisId === r.id),
    constants: Object.fromEntries(constants.filter((c) => c.analysisId === r.id).map((c) => [c.name, c.value])),
    weighing: pedigreeWeighing(r),
    mixture: r.mixture ?? null,
  }));
}

/**
 * Where a search reads its populations' statistics, in the order asked: loadMatchPopulations, or the search queue's
 * PopulationCache, which reads them again only when a population changed.
 */
export type PopulationStatistics = (db: Db, ids: readonly string[]) => Promise<(MatchPopulation & { name: string })[]>;

/** Populations by id with their statistics (server/http/populations/engine-population.ts), in the order asked. */
export async function loadMatchPopulations(db: Db, ids: readonly string[]): Promise<(MatchPopulation & { name: string })[]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(populations).where(inArray(populations.id, [...ids]));
  const loaded = await Promise.all(
    rows.map(async (row) => {
      const { frequencies, haplotypes } = await loadEnginePopulation(db, row);
      return { id: row.id, name: row.name, kind: row.kind as ProfileKind, frequencies, haplotypes };
    }),
  );
  return ids.flatMap((id) => loaded.filter((p) => p.id === id));
}
