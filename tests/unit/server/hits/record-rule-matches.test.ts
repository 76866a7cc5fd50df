/**
 * A search's matches become hits (ARCHITECTURE.md "Hits"): one hit per analysis and set of profiles,
 * whichever rule, direction or population found it; an identity hit supersedes the kinship and
 * exclusion hits of the same profiles; roles are named from the sample types.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { analyses, analysisGroups, cases, caseTypes, chemistries, hitProfiles, hits, populations, profiles, searchRules } from '../../../../server/db/schema';
import { recordRuleMatches } from '../../../../server/hits/record-rule-matches';
import type { MatchRule, RuleMatch } from '../../../../server/matching/rule-match';
import { freshPglite } from '../../../helpers/database';
import { createOrganization } from '../../../helpers/factories';

let database: Database;
let orgId: string;
const ids: Record<string, string> = {};
const analysisIds: Record<string, string> = {};
const popIds: string[] = [];
const sampleTypes = new Map<string, string>();
const ruleIds: Record<string, string> = {};
const rules = new Map<string, MatchRule>();

beforeAll(async () => {
  database = await freshPglite();
  const db = database.db;
  orgId = (await createOrganization(db)).id;
  const [type] = await db.insert(caseTypes).values({ name: 'Missing person' }).returning();
  const [caseRow] = await db.insert(cases).values({ caseNumber: 'MP-1', caseTypeId: type!.id, organizationId: orgId }).returning();
  const [chemistry] = await db.insert(chemistries).values({ name: 'Kit', kind: 'Autosomal' }).returning();
  for (const [name, sampleType] of [
    ['remains', 'Unidentified Human (Remains)'],
    ['mother', 'Biological Mother'],
    ['missing', 'Missing Person'],
    ['stain', 'Forensic, Unknown'],
    ['offender', 'Convicted Offender'],
  ] as const) {
    const [row] = await db.insert(profiles).values({ profileId: name, caseId: caseRow!.id, organizationId: orgId, kind: 'Autosomal', chemistryId: chemistry!.id, sampleType, status: 'approved' }).returning();
    ids[name] = row!.id;
    sampleTypes.set(row!.id, sampleType);
  }
  const [group] = await db.insert(analysisGroups).values({ name: 'Seed' }).returning();
  for (const name of ['Identity', 'Parent–child']) analysisIds[name] = (await db.insert(analyses).values({ analysisGroupId: group!.id, name, kind: 'Computational', roles: ['A', 'B'] }).returning())[0]!.id;
  for (const name of ['Pop 1', 'Pop 2']) popIds.push((await db.insert(populations).values({ name, synthetic: name === 'Pop 2' }).returning())[0]!.id);
  for (const [kind, analysis] of [['identity', 'Identity'], ['kinship', 'Parent–child']] as const) {
    const [row] = await db.insert(searchRules).values({ name: kind, searchingSampleTypes: ['x'], searchedSampleTypes: ['y'], analysisId: analysisIds[analysis]! }).returning();
    ruleIds[kind] = row!.id;
    rules.set(row!.id, rule(row!.id));
  }
}, 30_000);
afterAll(() => database.close());

const rule = (id: string): MatchRule =>
  ({ id, name: id, populations: popIds.map((pid, i) => ({ id: pid, name: `Pop ${i + 1}`, synthetic: i === 1, kind: 'Autosomal' })) }) as unknown as MatchRule;

function match(kind: 'identity' | 'kinship', query: string, candidate: string, queryRole: 0 | 1 = 0): RuleMatch {
  const population = (pid: string, combinedIndex: number) => ({ populationId: pid, combinedIndex, log10: Math.log10(combinedIndex), markerCount: 20, nonExclusionMarkerCount: null, chance: { searchedProfiles: 1000, thresholdLog10: 4, probability: 1e-6, probabilityBracket: { lower: 9e-7, upper: 1e-6 }, expectedChanceHits: 1e-3, pValue: 1e-9, pValueBracket: { lower: 9e-10, upper: 1e-9 }, gridStep: 0.001 } });
  return {
    ruleId: ruleIds[kind]!,
    analysisId: kind === 'identity' ? analysisIds.Identity! : analysisIds['Parent–child']!,
    matchKind: kind,
    queryId: ids[query]!,
    candidateId: ids[candidate]!,
    queryRole,
    populations: [population(popIds[0]!, 5e5), population(popIds[1]!, 2e5)],
    reportedPopulationId: popIds[1]!,
    stringency: null,
  };
}

const record = (...matches: RuleMatch[]) => database.db.transaction((tx) => recordRuleMatches(tx as never, { organizationId: orgId, matches, rules, sampleTypes }));
const hitsOf = async (a: string, b: string) => (await database.db.select().from(hits)).filter((h) => h.profileSet === [ids[a], ids[b]].sort().join(','));

describe('recording a search’s matches', () => {
  it('makes one hit per match with every population side by side, reporting the smallest, roles from the sample types', async () => {
    const [hit] = await record(match('kinship', 'remains', 'mother'));
    expect(hit).toMatchObject({ status: 'pending', matchKind: 'kinship', searchRuleId: ruleIds.kinship, populationId: popIds[1], combinedIndex: 2e5, expectedChanceHits: 1e-3, pValue: 1e-9 });
    expect(hit!.figures!.populations.map((p) => [p.populationName, p.reported, p.synthetic, p.probability])).toEqual([
      ['Pop 1', false, false, '99.99% (CI 5.00e+5)'],
      ['Pop 2', true, true, '99.99% (CI 2.00e+5)'],
    ]);
    const roles = await database.db.select().from(hitProfiles).where(eq(hitProfiles.hitId, hit!.id));
    expect(Object.fromEntries(roles.map((r) => [r.profileId, r.role]))).toEqual({ [ids.remains!]: 'Missing person', [ids.mother!]: 'Relative' });
  });

  it('never records the same match twice: from the other direction, another rule or a second search', async () => {
    expect(await record(match('kinship', 'mother', 'remains', 1))).toEqual([]);
    expect(await record(match('kinship', 'remains', 'mother'))).toEqual([]);
    expect(await hitsOf('remains', 'mother')).toHaveLength(1);
  });

  it('lets an identity match supersede the pending kinship hit of the same profiles, and makes none after it', async () => {
    // The "mother" turns out to be the same person as the remains (a second source).
    const [identity] = await record(match('identity', 'remains', 'mother'));
    expect(identity!.matchKind).toBe('identity');
    expect((await hitsOf('remains', 'mother')).map((h) => h.matchKind)).toEqual(['identity']);
    const roles = await database.db.select().from(hitProfiles).where(eq(hitProfiles.hitId, identity!.id));
    expect(Object.fromEntries(roles.map((r) => [r.profileId, r.role]))).toEqual({ [ids.remains!]: 'Unidentified remains', [ids.mother!]: 'Relative' });
    expect(await record(match('kinship', 'mother', 'remains', 1))).toEqual([]);
  });

  it('keeps a decided kinship hit when an identity match comes later, and names a stain Evidence and an offender Reference', async () => {
    const [kinship] = await record(match('kinship', 'stain', 'offender'));
    await database.db.update(hits).set({ status: 'published' }).where(eq(hits.id, kinship!.id));
    const [identity] = await record(match('identity', 'stain', 'offender'));
    expect((await hitsOf('stain', 'offender')).map((h) => [h.matchKind, h.status]).sort()).toEqual([
      ['identity', 'pending'],
      ['kinship', 'published'],
    ]);
    const roles = await database.db.select().from(hitProfiles).where(eq(hitProfiles.hitId, identity!.id));
    expect(Object.fromEntries(roles.map((r) => [r.profileId, r.role]))).toEqual({ [ids.stain!]: 'Evidence', [ids.offender!]: 'Reference' });
  });

  it('lists the found profile first where the analysis lets it, whoever searched: the remains before the missing person', async () => {
    const [hit] = await record({ ...match('identity', 'missing', 'remains'), symmetric: true });
    const rows = await database.db.select().from(hitProfiles).where(eq(hitProfiles.hitId, hit!.id));
    expect(rows.sort((a, b) => a.position - b.position).map((r) => [r.role, r.profileId])).toEqual([
      ['Unidentified remains', ids.remains],
      ['Missing person', ids.missing],
    ]);
  });
});
