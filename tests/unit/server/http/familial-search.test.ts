import type { SampleType } from '../../../../core/schemas/profiles';
/**
 * Familial search on request (issue 12): a user with Hits Publish ranks an approved profile's possible
 * relatives among the organization's offenders and arrestees with an on-request kinship rule, then
 * promotes chosen candidates to pending hits; the request and the promotion are audited.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator, siblingOf } from '../../../../bench/synthetic-profiles';
import type { FamilialPromoteAnswer, FamilialSearchAnswer, FamilialSearchOptions } from '../../../../core/schemas/familial-search';
import type { HitSummary } from '../../../../core/schemas/hits';
import { appendAudit } from '../../../../server/audit/audit-trail';
import { systemClock } from '../../../../server/clock';
import { analyses, auditLog, caseTypes, cases, chemistries, markers, populationOrganizations, populations, profiles, searchRules, users } from '../../../../server/db/schema';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { loadPrincipal } from '../../../../server/identity/load-principal';
import { familialSearch } from '../../../../server/http/familial-search/familial-search';
import { createAccessGroup, createUser, osloAndBergen } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { searchesDone as waitForSearches } from '../../../helpers/searches-done';
import { multipartBody } from '../../../helpers/multipart';

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../../shared/data/frequencies/fbi2015.csv'));
const caucasian = fbi2015Population('Caucasian');

let t: TestApp;
const org = { a: '', b: '' };
const tokens = {} as Record<'admin' | 'a' | 'b' | 'reader', string>;
let userA = '';
let chemistryId = '';
const markerIds = new Map<string, string>();
const pop = { caucasian: '', african: '', synthetic: '', ystr: '', bergenOnly: '' };
const rule = { parentChild: '', siblings: '', approval: '', stringency: '' };
/** Profile ids by sample name. */
const ids = new Map<string, string>();

function call<T = unknown>(who: keyof typeof tokens, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) }).then((res) => ({ status: res.statusCode, body: res.json() as T, raw: res.body }));
}
const run = (who: keyof typeof tokens, name: string, body: object) => call<FamilialSearchAnswer>(who, 'POST', `/api/profiles/${ids.get(name)}/familial-search`, body);
const promote = (who: keyof typeof tokens, name: string, body: object) => call<FamilialPromoteAnswer>(who, 'POST', `/api/profiles/${ids.get(name)}/familial-search/promote`, body);

/** A profile entered pending, then approved through the route, so the server's matcher indexes it. */
async function approvedProfile(who: 'a' | 'b', caseId: string, name: string, sampleType: SampleType, genotypes: ReadonlyMap<string, readonly string[]>, approve = true) {
  const db = t.database.db;
  const [row] = await db.insert(profiles).values({ profileId: name, caseId, organizationId: org[who], kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
  const markerValues = [...genotypes].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
  await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
  ids.set(name, row!.id);
  if (!approve) return;
  const approved = await call('admin', 'POST', `/api/profiles/${row!.id}/approve`, { markerValues, comments: '', version: row!.version });
  expect(approved.status, approved.raw).toBe(200);
}

async function uploadPopulation(name: string, population: string, organizationIds: string[]) {
  const created = (await call<{ id: string; version: number }>('admin', 'POST', '/api/populations', { name, kind: 'Autosomal', organizationIds })).body;
  const form = await multipartBody({ version: String(created.version), population }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${created.id}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${tokens.admin}` } });
  expect(saved.statusCode, saved.body).toBe(200);
  return created.id;
}

const searchesDone = () => waitForSearches(t.app, tokens.admin);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  Object.assign(org, await osloAndBergen(db));
  const admin = await createAccessGroup(db, { isAdmin: true });
  const reviewer = await createAccessGroup(db, { grants: { Cases: ['Read', 'ViewAudit'], Profiles: ['Read'], Hits: ['Read', 'Publish'], Populations: ['Read'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  userA = (await createUser(db, { accessGroupId: reviewer.id, organizationIds: [org.a] })).id;
  tokens.a = t.verifier.issue(userA);
  tokens.b = t.verifier.issue((await createUser(db, { accessGroupId: reviewer.id, organizationIds: [org.b] })).id);
  tokens.reader = t.verifier.issue((await createUser(db, { accessGroupId: reader.id, organizationIds: [org.a] })).id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);

  pop.caucasian = await uploadPopulation('FBI 2015 Caucasian', 'Caucasian', [org.a, org.b]);
  pop.african = await uploadPopulation('FBI 2015 African American', 'African American', [org.a, org.b]);
  pop.bergenOnly = await uploadPopulation('FBI 2015 SE Hispanic', 'SE Hispanic', [org.b]);
  pop.ystr = (await call<{ id: string }>('admin', 'POST', '/api/populations', { name: 'Y-STR Oslo', kind: 'YStr', organizationIds: [org.a] })).body.id;
  pop.synthetic = (await db.select().from(populations).where(eq(populations.synthetic, true)))[0]!.id;

  const ruleId = async (name: string) => (await db.select().from(searchRules).where(eq(searchRules.name, name)))[0]!.id;
  rule.parentChild = await ruleId('Familial search of offenders and arrestees (parent–child)');
  rule.siblings = await ruleId('Familial search of offenders and arrestees (full siblings)');
  rule.approval = await ruleId('Forensic unknowns against forensic, offender, arrestee and suspect profiles');
  const identity = (await db.select().from(analyses).where(eq(analyses.name, 'Identity')))[0]!;
  rule.stringency = (await db.insert(searchRules).values({ name: 'On-request identity', trigger: 'request', searchingSampleTypes: ['Forensic, Unknown'], searchedSampleTypes: ['Convicted Offender'], analysisId: identity.id, stringency: 'moderate' }).returning())[0]!.id;

  const [caseType] = await db.select().from(caseTypes).limit(1);
  const caseOf = async (who: 'a' | 'b') => (await db.insert(cases).values({ caseNumber: `FAM-${who}`, caseTypeId: caseType!.id, organizationId: org[who] }).returning())[0]!.id;
  const caseA = await caseOf('a');
  const caseB = await caseOf('b');
  const stain = profileGenerator(caucasian, 42)();
  const strangers = profileGenerator(caucasian, 43);
  await approvedProfile('a', caseA, 'STAIN', 'Forensic, Unknown', stain);
  for (let i = 0; i < 3; i++) await approvedProfile('a', caseA, `BROTHER-${i}`, 'Convicted Offender', siblingOf(stain, caucasian, 10 + i));
  await approvedProfile('a', caseA, 'ARRESTEE-SIB', 'Arrestee', siblingOf(stain, caucasian, 20));
  for (let i = 0; i < 12; i++) await approvedProfile('a', caseA, `OFFENDER-${i}`, i % 2 ? 'Arrestee' : 'Convicted Offender', strangers());
  // Never searched: a forensic relative, Bergen's offender relative, a pending offender relative.
  await approvedProfile('a', caseA, 'FORENSIC-SIB', 'Forensic, Unknown', siblingOf(stain, caucasian, 30));
  await approvedProfile('b', caseB, 'BERGEN-SIB', 'Convicted Offender', siblingOf(stain, caucasian, 40));
  await approvedProfile('a', caseA, 'PENDING-SIB', 'Convicted Offender', siblingOf(stain, caucasian, 50), false);
  await searchesDone();
}, 180_000);
afterAll(() => t.close());

describe('familial search options', () => {
  it('offers the on-request kinship rules that search with the profile’s sample type, and the organization’s populations of its kind', async () => {
    const res = await call<FamilialSearchOptions>('a', 'GET', `/api/profiles/${ids.get('STAIN')}/familial-search/options`);
    expect(res.status, res.raw).toBe(200);
    // Neither the approval rules nor the stringency rule: they do not rank by a kinship LR on request.
    expect(res.body.rules.map((r) => r.id).sort()).toEqual([rule.parentChild, rule.siblings].sort());
    const siblings = res.body.rules.find((r) => r.id === rule.siblings)!;
    expect(siblings).toMatchObject({ analysisName: 'Full siblings', searchedSampleTypes: ['Convicted Offender', 'Arrestee'] });
    // No population named by the rule: the organization's, the synthetic one left out.
    expect(siblings.defaultPopulationIds.sort()).toEqual([pop.caucasian, pop.african].sort());
    expect(res.body.populations.map((p) => [p.id, p.synthetic]).sort()).toEqual([[pop.african, false], [pop.caucasian, false], [pop.synthetic, true]].sort());
  });

  it('offers nothing for a sample type no on-request rule searches with', async () => {
    const res = await call<FamilialSearchOptions>('a', 'GET', `/api/profiles/${ids.get('BROTHER-0')}/familial-search/options`);
    expect(res.body.rules).toEqual([]);
  });
});

describe('a familial search', () => {
  it('ranks the organization’s offenders and arrestees by their smallest LR, with each population’s figures and the chance candidates expected at each rank', async () => {
    const res = await run('a', 'STAIN', { searchRuleId: rule.siblings });
    expect(res.status, res.raw).toBe(200);
    const answer = res.body;
    expect(answer.rule).toEqual({ id: rule.siblings, name: 'Familial search of offenders and arrestees (full siblings)' });
    expect(answer.analysis.name).toBe('Full siblings');
    expect(answer.populations.map((p) => p.id).sort()).toEqual([pop.caucasian, pop.african].sort());
    // N: Oslo's approved offenders and arrestees (3 brothers, the arrestee sibling, 12 strangers).
    expect(answer.searchedProfiles).toBe(16);
    expect(answer.limit).toBe(50);
    const names = answer.candidates.map((c) => c.sampleName);
    expect(names.slice(0, 4).sort()).toEqual(['ARRESTEE-SIB', 'BROTHER-0', 'BROTHER-1', 'BROTHER-2']);
    for (const never of ['STAIN', 'FORENSIC-SIB', 'BERGEN-SIB', 'PENDING-SIB']) expect(names).not.toContain(never);
    expect(answer.candidates.map((c) => c.rank)).toEqual(answer.candidates.map((_, i) => i + 1));
    for (const [i, c] of answer.candidates.entries()) {
      expect(c.caseNumber).toBe('FAM-a');
      expect(['Convicted Offender', 'Arrestee']).toContain(c.sampleType);
      expect(c.populations).toHaveLength(2);
      expect(c.smallestCombinedIndex).toBe(Math.min(...c.populations.map((p) => p.combinedIndex)));
      expect(c.reportedPopulationId).toBe(c.populations.find((p) => p.combinedIndex === c.smallestCombinedIndex)!.populationId);
      if (i > 0) expect(c.smallestCombinedIndex).toBeLessThanOrEqual(answer.candidates[i - 1]!.smallestCombinedIndex);
      for (const p of c.populations) {
        expect(p.probability).toMatch(/%/);
        expect(p.pValue).toBeGreaterThan(0);
        expect(p.pValue).toBeLessThanOrEqual(1);
        // GENETICS.md "Expected chance hits": N × P(LR ≥ this | unrelated).
        expect(p.expectedChanceCandidates).toBeCloseTo(answer.searchedProfiles * p.pValue!, 12);
      }
      expect(c.alreadyHit).toBe(false);
    }
  });

  it('keeps the top N asked for, and audits the request with its parameters', async () => {
    const before = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'FamilialSearch'));
    const res = await run('a', 'STAIN', { searchRuleId: rule.parentChild, populationIds: [pop.caucasian], limit: 2 });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.candidates.length).toBeLessThanOrEqual(2);
    expect(res.body.limit).toBe(2);
    const rows = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'FamilialSearch'), eq(auditLog.action, 'Search')));
    expect(rows).toHaveLength(before.filter((r) => r.action === 'Search').length + 1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ organizationId: org.a, entityId: ids.get('STAIN'), userId: userA });
    expect(row.after).toEqual({ profileId: ids.get('STAIN'), searchRuleId: rule.parentChild, populationIds: [pop.caucasian], limit: 2, candidateCount: res.body.candidates.length });
  });

  it('computes with a synthetic population when chosen, flagged so the screen labels it', async () => {
    const res = await run('a', 'STAIN', { searchRuleId: rule.siblings, populationIds: [pop.synthetic, pop.caucasian], limit: 3 });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.populations).toEqual([
      { id: pop.synthetic, name: expect.any(String), synthetic: true },
      { id: pop.caucasian, name: 'FBI 2015 Caucasian', synthetic: false },
    ]);
  });

  it('refuses what is not a familial search: 400 naming the field', async () => {
    const cases: [string, string, object, RegExp][] = [
      ['STAIN', 'an approval rule', { searchRuleId: rule.approval }, /runs on approval/],
      ['STAIN', 'a stringency rule', { searchRuleId: rule.stringency }, /CODIS identity rule/],
      ['STAIN', 'an unknown rule', { searchRuleId: '00000000-0000-4000-8000-000000000000' }, /No search rule/],
      ['BROTHER-0', 'a sample type the rule does not search with', { searchRuleId: rule.siblings }, /does not search with Convicted Offender profiles/],
      ['PENDING-SIB', 'a profile not approved', { searchRuleId: rule.siblings }, /pending: only an approved profile/],
      ['STAIN', 'a population of the wrong kind', { searchRuleId: rule.siblings, populationIds: [pop.ystr] }, /does not hold autosomal frequencies/],
      ['STAIN', 'a population not shared with the organization', { searchRuleId: rule.siblings, populationIds: [pop.bergenOnly] }, /not shared|No population/],
      ['STAIN', 'a limit over 500', { searchRuleId: rule.siblings, limit: 501 }, /validate your input/],
    ];
    for (const [name, what, body, message] of cases) {
      const res = await run('a', name, body);
      expect(res.status, `${what}: ${res.raw}`).toBe(400);
      expect((res.body as unknown as { error: string }).error, what).toMatch(message);
    }
  });

  it('answers 403 without Hits Publish and 404 for another organization’s profile', async () => {
    expect((await run('reader', 'STAIN', { searchRuleId: rule.siblings })).status).toBe(403);
    expect((await promote('reader', 'STAIN', { searchRuleId: rule.siblings, candidateIds: [ids.get('BROTHER-0')] })).status).toBe(403);
    expect((await call('reader', 'GET', `/api/profiles/${ids.get('STAIN')}/familial-search/options`)).status).toBe(403);
    expect((await run('b', 'STAIN', { searchRuleId: rule.siblings })).status).toBe(404);
    expect((await promote('b', 'STAIN', { searchRuleId: rule.siblings, candidateIds: [ids.get('BROTHER-0')] })).status).toBe(404);
    expect((await call('b', 'GET', `/api/profiles/${ids.get('STAIN')}/familial-search/options`)).status).toBe(404);
  });

  it('answers 503 when the server runs no database search', async () => {
    const db = t.database.db;
    const user = await loadPrincipal(db, (await db.select().from(users).where(eq(users.id, userA)))[0]!);
    await expect(familialSearch({ db, clock: systemClock, search: undefined }, user, ids.get('STAIN')!, { searchRuleId: rule.siblings, limit: 5 })).rejects.toMatchObject({ statusCode: 503 });
  });
});

describe('promoting candidates', () => {
  const pendingHits = async () => (await call<{ items: HitSummary[] }>('a', 'GET', `/api/organizations/${org.a}/pending-hits?pageSize=100`)).body.items;

  it('records each chosen candidate as a pending hit with the figures recomputed and roles named from the sample types', async () => {
    const before = (await pendingHits()).length;
    const searched = (await run('a', 'STAIN', { searchRuleId: rule.siblings })).body;
    const brother = searched.candidates.find((c) => c.sampleName === 'BROTHER-0')!;
    const arrestee = searched.candidates.find((c) => c.sampleName === 'ARRESTEE-SIB')!;
    const res = await promote('a', 'STAIN', { searchRuleId: rule.siblings, candidateIds: [brother.profileId, arrestee.profileId] });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.skipped).toEqual([]);
    expect(res.body.hits.map((h) => h.sampleName).sort()).toEqual(['ARRESTEE-SIB', 'BROTHER-0']);
    const hit = res.body.hits.find((h) => h.candidateId === brother.profileId)!;
    expect(hit.combinedIndex! / brother.smallestCombinedIndex).toBeCloseTo(1, 9);
    expect(hit.populationId).toBe(brother.reportedPopulationId);

    const pending = await pendingHits();
    expect(pending).toHaveLength(before + 2);
    const stored = pending.find((h) => h.id === hit.id)!;
    expect(stored).toMatchObject({ matchKind: 'kinship', searchRuleName: 'Familial search of offenders and arrestees (full siblings)', status: 'pending' });
    expect(Object.fromEntries(stored.profiles.map((p) => [p.sampleName, p.role]))).toEqual({ STAIN: 'Evidence', 'BROTHER-0': 'Relative' });
    expect(stored.figures!.populations.map((p) => p.populationId).sort()).toEqual([pop.caucasian, pop.african].sort());
    // The hit's expected chance hits are the candidate's expected chance candidates in the reported population.
    const reported = brother.populations.find((p) => p.populationId === brother.reportedPopulationId)!;
    expect(stored.expectedChanceHits).toBeCloseTo(reported.expectedChanceCandidates!, 12);
    expect(stored.pValue).toBe(reported.pValue);

    const audit = await t.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'FamilialSearch'), eq(auditLog.action, 'Promote')));
    expect(audit.at(-1)!.after).toMatchObject({ profileId: ids.get('STAIN'), searchRuleId: rule.siblings, candidateIds: [brother.profileId, arrestee.profileId], hitIds: expect.arrayContaining([hit.id]) });
  });

  it('skips a candidate promoted before, and the next search marks it as already a hit', async () => {
    const brother = ids.get('BROTHER-0')!;
    const again = await promote('a', 'STAIN', { searchRuleId: rule.siblings, candidateIds: [brother] });
    expect(again.status, again.raw).toBe(200);
    expect(again.body.hits).toEqual([]);
    expect(again.body.skipped).toEqual([{ candidateId: brother, sampleName: 'BROTHER-0', reason: 'Already a hit (pending)' }]);
    const searched = (await run('a', 'STAIN', { searchRuleId: rule.siblings })).body;
    expect(searched.candidates.find((c) => c.profileId === brother)!.alreadyHit).toBe(true);
    expect(searched.candidates.find((c) => c.sampleName === 'BROTHER-1')!.alreadyHit).toBe(false);
  });

  it('never trusts the browser: another organization’s, an unsearched, a pending profile and the query itself are skipped with the reason', async () => {
    const before = (await pendingHits()).length;
    const res = await promote('a', 'STAIN', { searchRuleId: rule.siblings, candidateIds: [ids.get('BERGEN-SIB'), ids.get('FORENSIC-SIB'), ids.get('PENDING-SIB'), ids.get('STAIN')] });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.hits).toEqual([]);
    expect(res.body.skipped).toEqual([
      // Bergen's profile is not even named.
      { candidateId: ids.get('BERGEN-SIB'), sampleName: null, reason: 'No profile with this id in the profile’s organization' },
      { candidateId: ids.get('FORENSIC-SIB'), sampleName: 'FORENSIC-SIB', reason: expect.stringMatching(/does not search Forensic, Unknown profiles/) },
      { candidateId: ids.get('PENDING-SIB'), sampleName: 'PENDING-SIB', reason: 'It is pending, not approved' },
      { candidateId: ids.get('STAIN'), sampleName: 'STAIN', reason: expect.stringMatching(/does not search Forensic, Unknown profiles/) },
    ]);
    expect(await pendingHits()).toHaveLength(before);
    // Issue 30: the audit row, read in organization A, names only A's profiles; Bergen's refused id is not even echoed.
    const [stain] = await t.database.db.select({ caseId: profiles.caseId }).from(profiles).where(eq(profiles.id, ids.get('STAIN')!));
    const trail = await call<{ items: { action: string; after: unknown; names: Record<string, string> }[] }>('a', 'GET', `/api/cases/${stain!.caseId}/audit?sort=at:desc`);
    expect(trail.status, trail.raw).toBe(200);
    const row = trail.body.items.find((r) => r.action === 'Promote')!;
    expect(row.after).toMatchObject({ candidateIds: [ids.get('FORENSIC-SIB'), ids.get('PENDING-SIB'), ids.get('STAIN')], candidatesNotFound: 1 });
    expect(trail.raw).not.toContain(ids.get('BERGEN-SIB'));
    expect(trail.raw).not.toContain('BERGEN-SIB');
  });

  it('names no other organization’s profile to a reader, even in a row written before the fix (issue 30)', async () => {
    const [stain] = await t.database.db.select({ caseId: profiles.caseId, organizationId: profiles.organizationId }).from(profiles).where(eq(profiles.id, ids.get('STAIN')!));
    await t.database.db.transaction((tx) =>
      appendAudit(tx as never, { id: userA, name: 'Old promote' }, systemClock, { entity: 'FamilialSearch', entityId: ids.get('STAIN')!, action: 'Promote', caseId: stain!.caseId, organizationId: stain!.organizationId, after: { candidateIds: [ids.get('BERGEN-SIB')] } }),
    );
    const read = async (who: 'a' | 'admin') => {
      const trail = await call<{ items: { userName: string; names: Record<string, string> }[] }>(who, 'GET', `/api/cases/${stain!.caseId}/audit?sort=at:desc`);
      expect(trail.status, trail.raw).toBe(200);
      return trail.body.items.find((r) => r.userName === 'Old promote')!.names;
    };
    expect(await read('a')).toEqual({ [ids.get('STAIN')!]: 'STAIN' });
    // An administrator with scope All reads every organization: the name is theirs to see.
    expect(await read('admin')).toEqual({ [ids.get('STAIN')!]: 'STAIN', [ids.get('BERGEN-SIB')!]: 'BERGEN-SIB' });
  });

  it('refuses more than 100 candidates at once', async () => {
    const res = await promote('a', 'STAIN', { searchRuleId: rule.siblings, candidateIds: Array.from({ length: 101 }, () => ids.get('BROTHER-1')) });
    expect(res.status).toBe(400);
  });
});
