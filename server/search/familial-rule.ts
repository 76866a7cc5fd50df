import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FamilialPopulation, FamilialRuleOption } from '../../core/schemas/familial-search';
import type { Db } from '../db/database';
import { populationOrganizations, populations, searchRulePopulations, searchRules } from '../db/schema';
import { familialRuleProblem } from '../matching/familial-search';
import { loadActiveAnalyses } from '../matching/load-search-inputs';
import type { MatchRule } from '../matching/rule-match';
import type { MatchAnalysis, ProfileKind, Stringency } from '../matching/types';
import type { PopulationCache, SearchedProfile } from './load-search-rules';

type RuleRow = typeof searchRules.$inferSelect;

/** A familial search's rule with the populations chosen, or why it cannot run (the field of the request at fault, and a message for the user). */
export type FamilialRuleLoad = { ok: true; rule: MatchRule; analysisName: string } | { ok: false; field: 'searchRuleId' | 'populationIds'; message: string };

/** The populations shared with an organization (ARCHITECTURE.md "Permissions and tenancy"), every kind, by name. */
async function sharedPopulations(db: Db, organizationId: string) {
  return db
    .select({ id: populations.id, name: populations.name, kind: populations.kind, synthetic: populations.synthetic })
    .from(populations)
    .innerJoin(populationOrganizations, eq(populationOrganizations.populationId, populations.id))
    .where(eq(populationOrganizations.organizationId, organizationId))
    .orderBy(asc(populations.name));
}

type SharedPopulation = Awaited<ReturnType<typeof sharedPopulations>>[number];

/**
 * The populations a familial search computes with unless the user chooses: the rule's own that are
 * shared with the organization, else every population of the organization of the profile's kind except
 * the synthetic one (ARCHITECTURE.md "Search policy": demo data never decides by default).
 */
function defaultPopulationIds(own: readonly string[], shared: readonly SharedPopulation[], kind: ProfileKind): string[] {
  const usable = shared.filter((p) => p.kind === kind);
  const named = own.filter((id) => usable.some((p) => p.id === id));
  return named.length > 0 ? named : usable.filter((p) => !p.synthetic).map((p) => p.id);
}

/** Why a rule cannot run a familial search for the profile, or null (active, on request, searching with its sample type, ranked by a kinship LR). */
function ruleProblem(row: RuleRow, profile: SearchedProfile, analysis: (MatchAnalysis & { name: string }) | undefined): string | null {
  if (!row.active) return `Search rule ${row.name} is not active`;
  if (row.trigger !== 'request') return `Search rule ${row.name} runs on approval; a familial search runs a rule that runs on request`;
  if (!row.searchingSampleTypes.includes(profile.sampleType)) return `Search rule ${row.name} does not search with ${profile.sampleType} profiles`;
  if (!analysis) return `Search rule ${row.name} has an inactive analysis, or one for another kind of profile`;
  const problem = familialRuleProblem({ analysis, stringency: row.stringency as Stringency | null });
  return problem ? `Search rule ${row.name} cannot run a familial search: ${problem}` : null;
}

/** Each rule's own populations, in its order. */
async function ownPopulations(db: Db, ruleIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ruleIds.map((id) => [id, []]));
  if (ruleIds.length === 0) return out;
  const rows = await db.select().from(searchRulePopulations).where(inArray(searchRulePopulations.searchRuleId, [...ruleIds])).orderBy(asc(searchRulePopulations.position));
  for (const r of rows) out.get(r.searchRuleId)?.push(r.populationId);
  return out;
}

/** What the familial search form offers for a profile: the on-request rules it may run (by name) with their default populations, and the organization's populations of its kind. */
export async function familialRuleOptions(db: Db, profile: SearchedProfile): Promise<{ rules: FamilialRuleOption[]; populations: FamilialPopulation[] }> {
  const rows = await db.select().from(searchRules).where(and(eq(searchRules.active, true), eq(searchRules.trigger, 'request'))).orderBy(asc(searchRules.name));
  const analyses = new Map((await loadActiveAnalyses(db, profile.kind)).map((a) => [a.id, a]));
  const shared = await sharedPopulations(db, profile.organizationId);
  const usable = rows.filter((row) => ruleProblem(row, profile, analyses.get(row.analysisId)) === null);
  const own = await ownPopulations(db, usable.map((r) => r.id));
  return {
    rules: usable.map((row) => ({
      id: row.id,
      name: row.name,
      analysisId: row.analysisId,
      analysisName: analyses.get(row.analysisId)!.name,
      searchedSampleTypes: row.searchedSampleTypes,
      defaultPopulationIds: defaultPopulationIds(own.get(row.id) ?? [], shared, profile.kind),
    })),
    populations: shared.filter((p) => p.kind === profile.kind).map(({ id, name, synthetic }) => ({ id, name, synthetic })),
  };
}

/**
 * The rule of a familial search as the matcher runs it (ARCHITECTURE.md "Search policy"), its
 * populations resolved: those chosen — each of the profile's kind and shared with its organization;
 * a synthetic one is allowed on request — or the defaults (defaultPopulationIds). Refused: a rule
 * that is unknown, inactive, automatic, not searching with the profile's sample type, or not ranked
 * by an autosomal two-role kinship LR.
 */
export async function loadFamilialRule(db: Db, cache: PopulationCache, profile: SearchedProfile, searchRuleId: string, populationIds?: readonly string[]): Promise<FamilialRuleLoad> {
  const [row] = await db.select().from(searchRules).where(eq(searchRules.id, searchRuleId));
  if (!row) return { ok: false, field: 'searchRuleId', message: `No search rule with id ${searchRuleId}` };
  const analysis = (await loadActiveAnalyses(db, profile.kind)).find((a) => a.id === row.analysisId);
  const problem = ruleProblem(row, profile, analysis);
  if (problem || !analysis) return { ok: false, field: 'searchRuleId', message: problem ?? 'The rule’s analysis is inactive' };

  const shared = await sharedPopulations(db, profile.organizationId);
  let ids: string[];
  if (populationIds) {
    ids = [...new Set(populationIds)];
    const known = new Map((await db.select({ id: populations.id, name: populations.name, kind: populations.kind }).from(populations).where(inArray(populations.id, ids))).map((p) => [p.id, p]));
    for (const id of ids) {
      const population = known.get(id);
      // Another organization's population is not even confirmed to exist.
      if (!population || !shared.some((p) => p.id === id)) return { ok: false, field: 'populationIds', message: `No population with id ${id} is shared with the profile’s organization` };
      if (population.kind !== profile.kind) return { ok: false, field: 'populationIds', message: `Population ${population.name} does not hold ${profile.kind === 'YStr' ? 'Y-STR haplotypes' : 'autosomal frequencies'}` };
    }
  } else {
    ids = defaultPopulationIds((await ownPopulations(db, [row.id])).get(row.id) ?? [], shared, profile.kind);
    if (ids.length === 0) return { ok: false, field: 'populationIds', message: 'No population of this kind is shared with the profile’s organization: choose one, or ask an administrator to share one' };
  }
  const chosen = await cache.load(db, ids);
  return {
    ok: true,
    analysisName: analysis.name,
    rule: {
      id: row.id,
      name: row.name,
      analysis,
      stringency: null,
      minMarkers: row.minMarkers,
      maxMismatches: row.maxMismatches,
      threshold: { kind: row.thresholdKind as MatchRule['threshold']['kind'], value: row.threshold },
      searchedSampleTypes: row.searchedSampleTypes,
      populations: chosen,
    },
  };
}
