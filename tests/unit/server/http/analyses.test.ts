import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analysis, Constant, Formula } from '../../../../core/schemas/analyses';
import { analysisGroups, searchRules } from '../../../../server/db/schema';
import { createAccessGroup, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let groupId: string;
const tokens = {} as Record<'admin' | 'reader', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  groupId = (await db.insert(analysisGroups).values({ name: 'Kinship' }).returning())[0]!.id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const reader = await createAccessGroup(db, { grants: { Analyses: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.reader = t.verifier.issue((await createUser(db, { accessGroupId: reader.id })).id);
}, 60_000);
afterAll(() => t.close());

const call = (who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

const duo = { name: 'Parent–child', label: 'Parent–child (duo)', kind: 'Computational', profileKind: 'Autosomal', roles: ['Child', 'Alleged parent'], threshold: 10000, active: true };

describe('analyses, formulae and constants', () => {
  let analysis: Analysis;

  it('adds an analysis and lists every allele expression its table still lacks', async () => {
    const res = await call('admin', 'POST', '/api/analyses', { ...duo, analysisGroupId: groupId });
    expect(res.statusCode, res.body).toBe(201);
    analysis = res.json() as Analysis;
    expect(analysis).toMatchObject({ analysisGroupName: 'Kinship', formulaCount: 0 });
    // Two diploid roles produce these nine canonical patterns (GENETICS.md "Analyses are data").
    expect(analysis.missingPatterns).toEqual(['PP-PP', 'PP-PQ', 'PP-QQ', 'PP-QR', 'PQ-PP', 'PQ-PQ', 'PQ-PR', 'PQ-RR', 'PQ-RS']);
    expect((await call('reader', 'POST', '/api/analyses', { ...duo, name: 'x', analysisGroupId: groupId })).statusCode).toBe(403);
  });

  it('adds constants, refusing frequency letters and duplicates', async () => {
    const kappa1 = await call('admin', 'POST', `/api/analyses/${analysis.id}/constants`, { name: 'kappa1', notation: '\\kappa_1', value: 1 });
    expect(kappa1.statusCode).toBe(201);
    expect((kappa1.json() as Constant).value).toBe(1);
    expect((await call('admin', 'POST', `/api/analyses/${analysis.id}/constants`, { name: 'kappa0', notation: '\\kappa_0', value: 0 })).statusCode).toBe(201);
    const letter = await call('admin', 'POST', `/api/analyses/${analysis.id}/constants`, { name: 'p', notation: '', value: 1 });
    expect(letter.statusCode).toBe(400);
    expect(JSON.stringify(letter.json())).toContain('p, q, r, s, t and u are allele frequencies');
    const dup = await call('admin', 'POST', `/api/analyses/${analysis.id}/constants`, { name: 'kappa1', notation: '', value: 2 });
    expect(dup.json().error).toBe('This analysis already has a constant named kappa1');
  });

  it('validates a formula before saving it and shows it in LaTeX', async () => {
    const bad = await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PQ-PR', expression: 'kappa1/(4*q', isExclusion: null });
    expect(bad.statusCode).toBe(400);
    const letter = await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PQ-PR', expression: 'kappa1/(4*s)', isExclusion: null });
    expect(letter.json().error).toMatch(/'s'.*not in the pattern/);
    const unknown = await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PQ-PR', expression: 'kappa2/(4*p)', isExclusion: null });
    expect(unknown.json().error).toMatch(/Unknown constant 'kappa2'/);
    const notCanonical = await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PR-PQ', expression: 'kappa1/(4*p)', isExclusion: null });
    expect(notCanonical.json().error).toBe('Write it in canonical form: PQ-PR');
    const ok = await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PQ-PR', expression: 'kappa0 + kappa1/(4*p)', isExclusion: null });
    expect(ok.statusCode, ok.body).toBe(201);
    const formula = ok.json() as Formula;
    expect(formula.latex).toContain('\\kappa_1');
    expect(formula.value).toBeNull();
    const unrelated = (await call('admin', 'POST', `/api/analyses/${analysis.id}/formulae`, { pattern: 'PQ-RS', expression: 'kappa0', isExclusion: null })).json() as Formula;
    // Constants only: the value is shown.
    expect(unrelated.value).toBe(0);
    const now = (await call('reader', 'GET', `/api/analyses/${analysis.id}`)).json() as Analysis;
    expect(now.formulaCount).toBe(2);
    expect(now.missingPatterns).not.toContain('PQ-PR');
    expect(now.missingPatterns).toHaveLength(7);
  });

  it('keeps a constant a formula uses from being renamed or deleted', async () => {
    const constants = (await call('reader', 'GET', `/api/analyses/${analysis.id}/constants?sort=value:desc`)).json() as { items: Constant[] };
    expect(constants.items.map((c) => c.name)).toEqual(['kappa1', 'kappa0']);
    const kappa1 = constants.items[0]!;
    const del = await call('admin', 'DELETE', `/api/analyses/${analysis.id}/constants/${kappa1.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe('Constant kappa1 cannot be deleted: the formulae of PQ-PR use it.');
    const rename = await call('admin', 'PUT', `/api/analyses/${analysis.id}/constants/${kappa1.id}`, { name: 'k1', notation: '', value: 1, version: kappa1.version });
    expect(rename.statusCode).toBe(409);
  });

  it('refuses to change the number of roles while formulae exist', async () => {
    const res = await call('admin', 'PUT', `/api/analyses/${analysis.id}`, { ...duo, roles: ['Mother', 'Child', 'Alleged father'], version: analysis.version });
    expect(res.statusCode).toBe(409);
  });

  it('keeps an exclusion analysis to Exclusion / Non Exclusion rows over haploid patterns', async () => {
    const lineage = (await call('admin', 'POST', '/api/analyses', { ...duo, name: 'Y-STR lineage', kind: 'Exclusion', profileKind: 'YStr', roles: ['Unknown', 'Reference'], threshold: 1, analysisGroupId: groupId })).json() as Analysis;
    expect(lineage.missingPatterns).toEqual(['P-P', 'P-Q']);
    const row = await call('admin', 'POST', `/api/analyses/${lineage.id}/formulae`, { pattern: 'P-Q', expression: null, isExclusion: true });
    expect(row.statusCode, row.body).toBe(201);
    expect((await call('admin', 'POST', `/api/analyses/${lineage.id}/formulae`, { pattern: 'P-P', expression: null, isExclusion: null })).statusCode).toBe(400);
    expect((await call('admin', 'POST', `/api/analyses/${lineage.id}/constants`, { name: 'theta', notation: '', value: 0 })).statusCode).toBe(400);
  });

  it('refuses to delete an analysis a search rule uses, naming the rule (409, not a server error)', async () => {
    const kept = (await call('admin', 'POST', '/api/analyses', { ...duo, name: 'Searched by a rule', analysisGroupId: groupId })).json() as Analysis;
    await t.database.db.insert(searchRules).values({ name: 'Relatives of remains', searchingSampleTypes: ['Unidentified Human (Remains)'], searchedSampleTypes: ['Biological Mother'], analysisId: kept.id });
    const del = await call('admin', 'DELETE', `/api/analyses/${kept.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().error).toBe('Analysis Searched by a rule cannot be deleted: the search rule Relatives of remains uses it. Change or delete that rule first, or deactivate the analysis.');
  });
});
