import { asc, eq, inArray } from 'drizzle-orm';
import type { SearchRule } from '../../../core/schemas/search-rules';
import type { Db } from '../../db/database';
import { analyses, populations, searchRulePopulations, searchRules } from '../../db/schema';

export type SearchRuleRow = typeof searchRules.$inferSelect;

/**
 * Search rules as the API returns them: with the analysis's name and kinds and the populations'
 * names in the rule's order, so the table, the form and the audit trail read without more calls.
 */
export async function toSearchRules(db: Db, rows: readonly SearchRuleRow[]): Promise<SearchRule[]> {
  if (rows.length === 0) return [];
  const analysisIds = [...new Set(rows.map((r) => r.analysisId))];
  const analysisRows = await db
    .select({ id: analyses.id, name: analyses.name, kind: analyses.kind, profileKind: analyses.profileKind })
    .from(analyses)
    .where(inArray(analyses.id, analysisIds));
  const analysisById = new Map(analysisRows.map((a) => [a.id, a]));
  const memberRows = await db
    .select({ ruleId: searchRulePopulations.searchRuleId, id: populations.id, name: populations.name })
    .from(searchRulePopulations)
    .innerJoin(populations, eq(populations.id, searchRulePopulations.populationId))
    .where(
      inArray(
        searchRulePopulations.searchRuleId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(searchRulePopulations.position), asc(populations.name));
  return rows.map((row) => {
    const analysis = analysisById.get(row.analysisId);
    const members = memberRows.filter((m) => m.ruleId === row.id);
    return {
      id: row.id,
      version: row.version,
      name: row.name,
      active: row.active,
      trigger: row.trigger as SearchRule['trigger'],
      searchingSampleTypes: row.searchingSampleTypes as SearchRule['searchingSampleTypes'],
      searchedSampleTypes: row.searchedSampleTypes as SearchRule['searchedSampleTypes'],
      analysisId: row.analysisId,
      analysisName: analysis?.name ?? '',
      analysisKind: (analysis?.kind ?? 'Computational') as SearchRule['analysisKind'],
      profileKind: (analysis?.profileKind ?? 'Autosomal') as SearchRule['profileKind'],
      stringency: row.stringency as SearchRule['stringency'],
      minMarkers: row.minMarkers,
      maxMismatches: row.maxMismatches,
      thresholdKind: row.thresholdKind as SearchRule['thresholdKind'],
      threshold: row.threshold,
      populationIds: members.map((m) => m.id),
      populationNames: members.map((m) => m.name),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** One rule as the API returns it. */
export async function toSearchRule(db: Db, row: SearchRuleRow): Promise<SearchRule> {
  return (await toSearchRules(db, [row]))[0]!;
}
