import { count, eq } from 'drizzle-orm';
import { isMixtureKind, type Analysis, type AnalysisKind } from '../../../core/schemas/analyses';
import type { MarkerKind } from '../../../core/schemas/markers';
import type { Db } from '../../db/database';
import { analyses, analysisConstants, analysisFormulae, analysisGroups } from '../../db/schema';
import { enumeratePatterns } from '../../genetics/patterns';
import { NotFound } from '../errors';

export type AnalysisRow = typeof analyses.$inferSelect;

/** Y-STR analyses compare single-copy alleles: one letter per role (GENETICS.md). */
export const ploidyOf = (profileKind: string) => (profileKind === 'YStr' ? ('haploid' as const) : ('diploid' as const));

/** The patterns an analysis's roles can produce that its formula table lacks (GENETICS.md: never silently skipped). */
export async function missingPatterns(db: Db, row: AnalysisRow): Promise<string[]> {
  const rows = await db.select({ pattern: analysisFormulae.pattern }).from(analysisFormulae).where(eq(analysisFormulae.analysisId, row.id));
  const present = new Set(rows.map((r) => r.pattern));
  // Without roles there is nothing to evaluate, so nothing is missing yet; a pedigree has no formula table.
  if (row.roles.length === 0 || row.kind === 'Pedigree' || isMixtureKind(row.kind as AnalysisKind)) return [];
  return enumeratePatterns(row.roles.length, { ploidy: ploidyOf(row.profileKind) }).filter((p) => !present.has(p));
}

/** An analysis as the API returns it, with its counts and the patterns its formula table lacks. */
export async function toAnalysis(db: Db, row: AnalysisRow): Promise<Analysis> {
  const [[group], [formulae], [constants], missing] = await Promise.all([
    db.select({ name: analysisGroups.name }).from(analysisGroups).where(eq(analysisGroups.id, row.analysisGroupId)),
    db.select({ n: count() }).from(analysisFormulae).where(eq(analysisFormulae.analysisId, row.id)),
    db.select({ n: count() }).from(analysisConstants).where(eq(analysisConstants.analysisId, row.id)),
    missingPatterns(db, row),
  ]);
  return {
    id: row.id,
    analysisGroupId: row.analysisGroupId,
    analysisGroupName: group?.name ?? '',
    version: row.version,
    name: row.name,
    label: row.label,
    kind: row.kind as AnalysisKind,
    profileKind: row.profileKind as MarkerKind,
    roles: row.roles,
    threshold: row.threshold,
    active: row.active,
    formulaCount: formulae?.n ?? 0,
    constantCount: constants?.n ?? 0,
    missingPatterns: missing,
    pedigree: row.pedigree ?? null,
    mutation: row.mutation ?? null,
    mixture: row.mixture ?? null,
  };
}

/** One analysis by id, or 404. */
export async function findAnalysis(db: Db, id: string): Promise<AnalysisRow> {
  const [row] = await db.select().from(analyses).where(eq(analyses.id, id));
  if (!row) throw new NotFound(`No analysis with id ${id}`);
  return row;
}
