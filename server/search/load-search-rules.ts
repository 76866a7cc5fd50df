import { and, asc, eq, inArray } from 'drizzle-orm';
import type { SearchTrigger } from '../../core/schemas/search-rules';
import type { Db } from '../db/database';
import { populations, searchRulePopulations, searchRules } from '../db/schema';
import { loadEnginePopulation } from '../http/populations/engine-population';
import { loadActiveAnalyses } from '../matching/load-search-inputs';
import type { MatchRule } from '../matching/rule-search';
import type { MatchPopulation, ProfileKind, Stringency } from '../matching/types';
import { organizationPopulationIds } from './organization-populations';

type RulePopulation = MatchRule['populations'][number];

/**
 * Populations with their statistics, read once per version: a search reads the population rows (a
 * small query) and reuses the statistics it loaded before unless the population changed since
 * (a new upload bumps its version), so an approval does not reload frequency tables.
 */
export class PopulationCache {
  private readonly loaded = new Map<string, { version: string; population: RulePopulation }>();

  async load(db: Db, ids: readonly string[]): Promise<RulePopulation[]> {
    if (ids.length === 0) return [];
    const rows = await db.select().from(populations).where(inArray(populations.id, [...ids]));
    const out = await Promise.all(
      rows.map(async (row) => {
        // An edit bumps the version; a statistics upload sets its time.
        const version = `${row.version}:${row.statisticsUploadedAt?.getTime() ?? ''}:${row.minimumAlleleFrequency}`;
        const cached = this.loaded.get(row.id);
        if (cached && cached.version === version) return cached.population;
        const { frequencies, haplotypes } = await loadEnginePopulation(db, row);
        const population: RulePopulation = { id: row.id, name: row.name, kind: row.kind as ProfileKind, synthetic: row.synthetic, frequencies, haplotypes } satisfies MatchPopulation & { name: string; synthetic: boolean };
        this.loaded.set(row.id, { version, population });
        return population;
      }),
    );
    return ids.flatMap((id) => out.filter((p) => p.id === id));
  }
}

/** What decides which rules a profile runs: its organization, sample type and kind. */
export interface SearchedProfile {
  organizationId: string;
  sampleType: string;
  kind: ProfileKind;
}

/**
 * The active rules of a trigger whose searching sample types include the profile's (ARCHITECTURE.md
 * "Search policy"), with their analyses and populations: the rule's own, else every population of
 * the organization of the profile's kind. An automatic rule never uses the synthetic demo population;
 * a rule whose analysis is inactive or of another kind does not run. Ordered by name.
 */
export async function loadSearchRules(db: Db, cache: PopulationCache, profile: SearchedProfile, trigger: SearchTrigger, onlyId?: string): Promise<MatchRule[]> {
  const rows = (await db.select().from(searchRules).where(and(eq(searchRules.active, true), eq(searchRules.trigger, trigger), onlyId ? eq(searchRules.id, onlyId) : undefined)).orderBy(asc(searchRules.name))).filter((r) =>
    r.searchingSampleTypes.includes(profile.sampleType),
  );
  if (rows.length === 0) return [];
  const analyses = new Map((await loadActiveAnalyses(db, profile.kind)).map((a) => [a.id, a]));
  const named = await db.select().from(searchRulePopulations).where(inArray(searchRulePopulations.searchRuleId, rows.map((r) => r.id))).orderBy(asc(searchRulePopulations.position));
  const organizationIds = await organizationPopulationIds(db, profile.organizationId, profile.kind);
  const rules: MatchRule[] = [];
  for (const row of rows) {
    const analysis = analyses.get(row.analysisId);
    if (!analysis) continue;
    const own = named.filter((n) => n.searchRuleId === row.id).map((n) => n.populationId);
    const chosen = (await cache.load(db, own.length > 0 ? own : organizationIds)).filter((p) => p.kind === profile.kind && !(trigger === 'approval' && p.synthetic));
    rules.push({
      id: row.id,
      name: row.name,
      analysis,
      stringency: row.stringency as Stringency | null,
      minMarkers: row.minMarkers,
      maxMismatches: row.maxMismatches,
      threshold: { kind: row.thresholdKind as MatchRule['threshold']['kind'], value: row.threshold },
      searchedSampleTypes: row.searchedSampleTypes,
      populations: chosen,
    });
  }
  return rules;
}
