import { and, eq, inArray, ne } from 'drizzle-orm';
import type { HitFigures, PopulationFigures } from '../../core/schemas/hit-figures';
import { sampleTypeRole } from '../../core/schemas/search-rules';
import { hitProbabilityText } from '../../core/hit-weighing';
import type { Db } from '../db/database';
import { hitHistory, hitProfiles, hits } from '../db/schema';
import type { MatchRule, RuleMatch } from '../matching/rule-match';
import type { HitRow } from './record-hits';

/** Rows per insert statement: far below PostgreSQL's 65,535 parameters. */
const CHUNK = 500;

/** How a hit lists its profiles when the analysis lets it choose: what was found before what it was found in. */
const ROLE_ORDER = ['Evidence', 'Unidentified remains', 'Missing person', 'Reference', 'Relative'];

/** The profiles of a hit, sorted and joined: one text per set of profiles, whatever the analysis (hits.profile_set). */
export const profileSetOf = (ids: readonly string[]): string => [...ids].sort().join(',');

/** One hit per match (ARCHITECTURE.md "Hits"): the analysis and the set of profiles, whichever rule, direction or population found it. */
export const matchDedupeKey = (analysisId: string, profileIds: readonly string[]): string => `match|${analysisId}|${profileSetOf(profileIds)}`;

export interface RecordMatchesInput {
  /** The organization of the searched profile: who sees the hits. */
  organizationId: string;
  matches: readonly RuleMatch[];
  /** The rules that found them, by id (their populations' names and synthetic flags). */
  rules: ReadonlyMap<string, MatchRule>;
  /** Sample type by profile id: the roles are named from them (core/schemas/search-rules.ts sampleTypeRole). */
  sampleTypes: ReadonlyMap<string, string>;
  at?: Date;
  /** Who found the hits, as their history names them: a user promoting familial candidates; absent, the database search. */
  foundBy?: { userId: string; userName: string };
}

/** The figures a hit stores: every population side by side (the reported one marked) and the stringency counts. */
export function hitFigures(match: RuleMatch, rule: MatchRule | undefined): HitFigures {
  const populations: PopulationFigures[] = match.populations.map((r) => {
    const population = rule?.populations.find((p) => p.id === r.populationId);
    return {
      populationId: r.populationId,
      populationName: population?.name ?? null,
      synthetic: population?.synthetic ?? false,
      combinedIndex: r.combinedIndex,
      log10: r.log10,
      markerCount: r.markerCount,
      nonExclusionMarkerCount: r.nonExclusionMarkerCount,
      probability: hitProbabilityText({ matchKind: match.matchKind, combinedIndex: r.combinedIndex, markerCount: r.markerCount, nonExclusionMarkerCount: r.nonExclusionMarkerCount, figures: null }),
      reported: r.populationId === match.reportedPopulationId,
      chance: r.chance,
      ...(r.continuous ? { continuous: r.continuous } : {}),
    };
  });
  const s = match.stringency;
  return {
    populations,
    stringency: s && rule ? { ...s, minMarkers: rule.minMarkers, maxMismatches: rule.maxMismatches } : null,
    ...(match.skippedPopulations?.length ? { skippedPopulations: match.skippedPopulations } : {}),
  };
}

/** The hit's columns that come from its figures: the reported population's (else the first's) LR and chance, the figures themselves. */
export function hitFigureColumns(figures: HitFigures) {
  const shown = figures.populations.find((p) => p.reported) ?? figures.populations[0];
  return {
    populationId: shown?.populationId ?? null,
    combinedIndex: shown?.combinedIndex ?? null,
    markerCount: shown?.markerCount ?? figures.stringency?.comparedMarkers ?? 0,
    nonExclusionMarkerCount: shown?.nonExclusionMarkerCount ?? null,
    figures,
    expectedChanceHits: figures.stringency?.expectedChanceHits ?? shown?.chance?.expectedChanceHits ?? null,
    pValue: shown?.chance?.pValue ?? null,
    // Both numbers of a continuous hit are kept: the scan's beside the exact one.
    scanCombinedIndex: shown?.continuous?.scanLog10Lr == null ? null : 10 ** shown.continuous.scanLog10Lr,
  };
}

/**
 * Stores a search's matches as pending hits (ARCHITECTURE.md "Hits"): one hit per analysis and set of
 * profiles, never twice (whatever state the first one is in); an identity match supersedes the kinship
 * and exclusion hits of the same profiles (pending ones are withdrawn, none is made afterwards: a
 * second source of the same person is not a relative). Returns the hits this call added. Run it in
 * one transaction.
 */
export async function recordRuleMatches(tx: Db, input: RecordMatchesInput): Promise<HitRow[]> {
  const { organizationId } = input;
  // The analysis's role order; where the table is symmetric, the stain or the missing person first, whoever searched.
  const rank = (id: string, m: RuleMatch) => ROLE_ORDER.indexOf(sampleTypeRole(input.sampleTypes.get(id) ?? '', m.matchKind));
  const ordered = (m: RuleMatch) => {
    const ids = m.queryRole === 0 ? [m.queryId, m.candidateId] : [m.candidateId, m.queryId];
    return m.symmetric && rank(ids[1]!, m) < rank(ids[0]!, m) ? [ids[1]!, ids[0]!] : ids;
  };
  const sets = [...new Set(input.matches.map((m) => profileSetOf(ordered(m))))];
  if (sets.length === 0) return [];
  const identityMatched = new Set(input.matches.filter((m) => m.matchKind === 'identity').map((m) => profileSetOf(ordered(m))));
  const existing = await tx
    .select({ profileSet: hits.profileSet })
    .from(hits)
    .where(and(eq(hits.organizationId, organizationId), eq(hits.matchKind, 'identity'), inArray(hits.profileSet, sets)));
  for (const e of existing) identityMatched.add(e.profileSet);
  if (identityMatched.size > 0) {
    await tx
      .delete(hits)
      .where(and(eq(hits.organizationId, organizationId), eq(hits.status, 'pending'), ne(hits.matchKind, 'identity'), inArray(hits.profileSet, [...identityMatched])));
  }

  const byKey = new Map<string, RuleMatch>();
  for (const m of input.matches) {
    const ids = ordered(m);
    if (m.matchKind !== 'identity' && identityMatched.has(profileSetOf(ids))) continue;
    byKey.set(matchDedupeKey(m.analysisId, ids), m);
  }
  const added: HitRow[] = [];
  const entries = [...byKey.entries()];
  for (let i = 0; i < entries.length; i += CHUNK) {
    const values = entries.slice(i, i + CHUNK).map(([dedupeKey, m]) => {
      return {
        organizationId,
        analysisId: m.analysisId,
        ...hitFigureColumns(hitFigures(m, input.rules.get(m.ruleId))),
        dedupeKey,
        searchRuleId: m.ruleId,
        matchKind: m.matchKind,
        profileSet: profileSetOf(ordered(m)),
        ...(input.at ? { createdAt: input.at, updatedAt: input.at } : {}),
      };
    });
    const rows = await tx.insert(hits).values(values).onConflictDoNothing({ target: hits.dedupeKey }).returning();
    if (rows.length === 0) continue;
    await tx.insert(hitProfiles).values(
      rows.flatMap((row) => {
        const m = byKey.get(row.dedupeKey)!;
        return ordered(m).map((profileId, position) => ({ hitId: row.id, role: sampleTypeRole(input.sampleTypes.get(profileId) ?? '', m.matchKind), position, profileId }));
      }),
    );
    await tx.insert(hitHistory).values(rows.map((row) => ({ hitId: row.id, fromStatus: null, toStatus: 'pending', userId: input.foundBy?.userId ?? null, userName: input.foundBy?.userName ?? 'Database search', ...(input.at ? { at: input.at } : {}) })));
    added.push(...rows);
  }
  return added;
}
