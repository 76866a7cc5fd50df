import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { SearchTrigger } from '../../core/schemas/search-rules';
import type { Db } from '../db/database';
import { populations, searchRulePopulations, searchRules } from '../db/schema';
import { loadEnginePopulation } from '../matching/engine-population';
import { loadActiveAnalyses } from '../matching/load-search-inputs';
import { rulePopulation } from '../matching/search-input-shapes';
import type { MatchRule } from '../matching/rule-match';
import type { ProfileKind, Stringency } from '../matching/types';
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
        const population: RulePopulation = rulePopulation(row.id, row.name, row.kind as ProfileKind, row.synthetic, frequencies, haplotypes);
        this.loaded.set(row.id, { version, population });
        return population;
      }),
    );
    return ids.flatMap((id) => out.filter((p) => p.id === id));
  }
}

/**
 * One text that changes whenever anything a search's inputs come from changes: each table's row count
 * and last change (an add, edit or delete of a rule, an analysis, a formula, a constant, a population
 * or its statistics, or a population shared or unshared).
 */
const INPUTS_VERSION = sql`select concat_ws('|',
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from search_rules),
  (select count(*) from search_rule_populations),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from analyses),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from analysis_formulae),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') from analysis_constants),
  (select count(*) || ':' || coalesce(max(updated_at)::text, '') || ':' || coalesce(max(statistics_uploaded_at)::text, '') from populations),
  (select count(*) from population_organizations)) as version`;

/**
 * What searches read again only when it changed (ARCHITECTURE.md "Matching": an approval's search is a
 * scan of memory, not of the database): the rules each kind of profile runs with their analyses and
 * populations, checked against one small version query per search.
 */
export class SearchInputCache {
  readonly populations = new PopulationCache();
  private version = '';
  private readonly analyses = new Map<ProfileKind, Awaited<ReturnType<typeof loadActiveAnalyses>>>();
  private readonly rules = new Map<string, MatchRule[]>();

  /** Forgets what changed since the last look (one query). */
  async refresh(db: Db): Promise<void> {
    const { rows } = (await db.execute(INPUTS_VERSION)) as unknown as { rows: { version: string }[] };
    const version = rows[0]?.version ?? '';
    if (version === this.version) return;
    this.version = version;
    this.analyses.clear();
    this.rules.clear();
  }

  /** The active analyses of a kind with their formula tables. */
  async analysesOf(db: Db, kind: ProfileKind) {
    let loaded = this.analyses.get(kind);
    if (!loaded) {
      loaded = await loadActiveAnalyses(db, kind);
      this.analyses.set(kind, loaded);
    }
    return loaded;
  }

  /** The rules of a key, computed once per version. */
  async rulesOf(key: string, load: () => Promise<MatchRule[]>): Promise<MatchRule[]> {
    let rules = this.rules.get(key);
    if (!rules) {
      rules = await load();
      this.rules.set(key, rules);
    }
    return rules;
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
export async function loadSearchRules(db: Db, cache: SearchInputCache, profile: SearchedProfile, trigger: SearchTrigger, onlyId?: string): Promise<MatchRule[]> {
  await cache.refresh(db);
  return cache.rulesOf([profile.organizationId, profile.sampleType, profile.kind, trigger, onlyId ?? ''].join('\u0000'), () => readSearchRules(db, cache, profile, trigger, onlyId));
}

async function readSearchRules(db: Db, cache: SearchInputCache, profile: SearchedProfile, trigger: SearchTrigger, onlyId?: string): Promise<MatchRule[]> {
  const rows = (await db.select().from(searchRules).where(and(eq(searchRules.active, true), eq(searchRules.trigger, trigger), onlyId ? eq(searchRules.id, onlyId) : undefined)).orderBy(asc(searchRules.name))).filter((r) =>
    r.searchingSampleTypes.includes(profile.sampleType),
  );
  if (rows.length === 0) return [];
  const analyses = new Map((await cache.analysesOf(db, profile.kind)).map((a) => [a.id, a]));
  const named = await db.select().from(searchRulePopulations).where(inArray(searchRulePopulations.searchRuleId, rows.map((r) => r.id))).orderBy(asc(searchRulePopulations.position));
  const organizationIds = await organizationPopulationIds(db, profile.organizationId, profile.kind);
  // Every population any of the rules uses, read in one query.
  const loaded = new Map((await cache.populations.load(db, [...new Set([...organizationIds, ...named.map((n) => n.populationId)])])).map((p) => [p.id, p]));
  const rules: MatchRule[] = [];
  for (const row of rows) {
    const analysis = analyses.get(row.analysisId);
    if (!analysis) continue;
    const own = named.filter((n) => n.searchRuleId === row.id).map((n) => n.populationId);
    const chosen = (own.length > 0 ? own : organizationIds).flatMap((id) => loaded.get(id) ?? []).filter((p) => p.kind === profile.kind && !(trigger === 'approval' && p.synthetic));
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
