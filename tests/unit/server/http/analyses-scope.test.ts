/**
 * Issue 30: analyses, their formulae, constants, pedigrees and mutation models feed every organization's searches and
 * court reports. An organization-scoped administrator deleted the seeded First cousins analysis and saved the Identity
 * analysis's θ; now only an administrator with scope All writes them, as for search rules (core/permissions.ts).
 */
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses, analysisConstants, analysisFormulae, analysisGroups } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
const tokens = {} as Record<'adminAll' | 'adminOrg', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const org = await createOrganization(db, 'Lab B');
  const admin = await createAccessGroup(db, { isAdmin: true });
  tokens.adminAll = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.adminOrg = t.verifier.issue((await createUser(db, { scope: 'Organization', accessGroupId: admin.id, organizationIds: [org.id] })).id);
}, 60_000);
afterAll(() => t.close());

const call = (who: keyof typeof tokens, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });

async function seeded(name: string) {
  const db = t.database.db;
  const [analysis] = await db.select().from(analyses).where(eq(analyses.name, name));
  const [constant] = await db.select().from(analysisConstants).where(eq(analysisConstants.analysisId, analysis!.id)).orderBy(asc(analysisConstants.name));
  const [formula] = await db.select().from(analysisFormulae).where(eq(analysisFormulae.analysisId, analysis!.id)).limit(1);
  return { analysis: analysis!, constant, formula };
}

describe('writing analyses needs an administrator with scope All', () => {
  it('refuses every write route to an organization-scoped administrator, and changes nothing', async () => {
    const cousins = await seeded('First cousins');
    const identity = await seeded('Identity');
    const theta = (await t.database.db.select().from(analysisConstants).where(eq(analysisConstants.analysisId, identity.analysis.id))).find((c) => c.name === 'theta')!;
    const a = cousins.analysis;
    const groupId = a.analysisGroupId;
    const routes: [method: 'POST' | 'PUT' | 'DELETE', url: string, body?: object][] = [
      ['POST', '/api/analyses', { name: 'Mine', label: 'Mine', kind: 'Computational', profileKind: 'Autosomal', roles: ['A', 'B'], threshold: 1, active: true, analysisGroupId: groupId }],
      ['PUT', `/api/analyses/${identity.analysis.id}`, { name: 'Identity', version: identity.analysis.version }],
      ['DELETE', `/api/analyses/${a.id}`],
      ['POST', `/api/analyses/${a.id}/constants`, { name: 'kappa9', notation: '', value: 1 }],
      ['PUT', `/api/analyses/${identity.analysis.id}/constants/${theta.id}`, { name: 'theta', notation: '\\theta', value: 0.03, version: theta.version }],
      ['DELETE', `/api/analyses/${identity.analysis.id}/constants/${theta.id}`],
      ['POST', `/api/analyses/${a.id}/formulae`, { pattern: 'PQ-PR', expression: '1', isExclusion: null }],
      ['PUT', `/api/analyses/${a.id}/formulae/${cousins.formula?.id ?? a.id}`, { pattern: 'PQ-PR', expression: '1', isExclusion: null, version: 1 }],
      ['DELETE', `/api/analyses/${a.id}/formulae/${cousins.formula?.id ?? a.id}`],
      ['POST', '/api/analysis-groups', { name: 'Mine' }],
      ['PUT', `/api/analysis-groups/${groupId}`, { name: 'Renamed', version: 1 }],
      ['DELETE', `/api/analysis-groups/${groupId}`],
    ];
    for (const [method, url, body] of routes) {
      const res = await call('adminOrg', method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
    }
    expect((await seeded('First cousins')).analysis).toEqual(a);
    expect((await t.database.db.select().from(analysisConstants).where(eq(analysisConstants.id, theta.id)))[0]).toEqual(theta);
    expect(await t.database.db.$count(analysisGroups)).toBeGreaterThan(0);
  });

  it('still lets an administrator with scope All change them', async () => {
    const identity = await seeded('Identity');
    const theta = (await t.database.db.select().from(analysisConstants).where(eq(analysisConstants.analysisId, identity.analysis.id))).find((c) => c.name === 'theta')!;
    const res = await call('adminAll', 'PUT', `/api/analyses/${identity.analysis.id}/constants/${theta.id}`, { name: 'theta', notation: theta.notation, value: 0.02, version: theta.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ value: 0.02 });
  });
});
