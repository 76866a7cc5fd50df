import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyses } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';

let t: TestApp;
let adminOrg: string;
let reader: string;
let outsider: string;
let kinship: { id: string };
let empty: { id: string };
let paternityId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = await createOrganization(db);
  // Analyses and their groups are written by an administrator with scope All only (issue 30).
  adminOrg = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [org.id] })).id);
  reader = t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db, { grants: { Analyses: ['Read'] } })).id, organizationIds: [org.id] })).id);
  outsider = t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db)).id, organizationIds: [org.id] })).id);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

describe('analysis groups API', () => {
  it('adds groups (201) and refuses a name that differs only in case (409)', async () => {
    const res = await call('POST', '/api/analysis-groups', adminOrg, { name: 'Kinship' });
    expect(res.statusCode).toBe(201);
    kinship = res.json();
    empty = (await call('POST', '/api/analysis-groups', adminOrg, { name: 'Y-STR' })).json();
    const duplicate = await call('POST', '/api/analysis-groups', adminOrg, { name: 'kinship' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error).toBe('An analysis group named "kinship" already exists');
    const [paternity] = await t.database.db
      .insert(analyses)
      .values([
        { analysisGroupId: kinship.id, name: 'Paternity', label: 'PI', kind: 'Computational' },
        { analysisGroupId: kinship.id, name: 'Siblings', label: 'SI', kind: 'Computational', active: false },
        { analysisGroupId: kinship.id, name: 'Exclusion', label: 'EX', kind: 'Exclusion' },
      ])
      .returning();
    paternityId = paternity!.id;
  });

  it('lists groups with their number of analyses, sortable by it', async () => {
    const byName = await call('GET', '/api/analysis-groups', reader);
    expect(byName.json()).toMatchObject({ count: 2, items: [{ name: 'Kinship', analysisCount: 3 }, { name: 'Y-STR', analysisCount: 0 }] });
    const byCount = await call('GET', '/api/analysis-groups?sort=analysisCount:asc', reader);
    expect(byCount.json().items.map((g: { name: string }) => g.name)).toEqual(['Y-STR', 'Kinship']);
  });

  it('lists a group\u2019s analyses (name, label, kind, active) and finds one of them', async () => {
    const list = await call('GET', `/api/analysis-groups/${kinship.id}/analyses?sort=name:asc`, reader);
    expect(list.json()).toMatchObject({
      count: 3,
      items: [
        { name: 'Exclusion', label: 'EX', kind: 'Exclusion', active: true },
        { name: 'Paternity', label: 'PI', kind: 'Computational', active: true },
        { name: 'Siblings', label: 'SI', kind: 'Computational', active: false },
      ],
    });
    expect((await call('GET', `/api/analysis-groups/${empty.id}/analyses`, reader)).json()).toEqual({ items: [], count: 0 });
    expect((await call('GET', `/api/analysis-groups/${kinship.id}/analyses/${paternityId}`, reader)).json()).toMatchObject({ name: 'Paternity', analysisGroupId: kinship.id });
    // An analysis is found only under its own group.
    expect((await call('GET', `/api/analysis-groups/${empty.id}/analyses/${paternityId}`, reader)).statusCode).toBe(404);
    expect((await call('GET', `/api/analysis-groups/00000000-0000-4000-8000-000000000000/analyses`, reader)).statusCode).toBe(404);
  });

  it('refuses to delete a group that still has analyses, naming them (409)', async () => {
    const res = await call('DELETE', `/api/analysis-groups/${kinship.id}`, adminOrg);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('Analysis group "Kinship" cannot be deleted: it still has analyses (Exclusion, Paternity, Siblings)');
  });

  it('renames with the version read; a stale version is refused (409)', async () => {
    const renamed = await call('PUT', `/api/analysis-groups/${empty.id}`, adminOrg, { name: 'Haplotypes', version: 1 });
    expect(renamed.json()).toMatchObject({ name: 'Haplotypes', version: 2 });
    expect((await call('PUT', `/api/analysis-groups/${empty.id}`, adminOrg, { name: 'Old', version: 1 })).statusCode).toBe(409);
  });

  it('follows the Analyses grants: Read alone cannot change, no grant cannot read (403)', async () => {
    expect((await call('GET', '/api/analysis-groups', outsider)).statusCode).toBe(403);
    expect((await call('GET', `/api/analysis-groups/${kinship.id}/analyses`, outsider)).statusCode).toBe(403);
    expect((await call('POST', '/api/analysis-groups', reader, { name: 'New' })).statusCode).toBe(403);
    expect((await call('PUT', `/api/analysis-groups/${empty.id}`, reader, { name: 'New', version: 2 })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/analysis-groups/${empty.id}`, reader)).statusCode).toBe(403);
  });

  it('deletes an empty group (204)', async () => {
    expect((await call('DELETE', `/api/analysis-groups/${empty.id}`, adminOrg)).statusCode).toBe(204);
    expect((await call('GET', `/api/analysis-groups/${empty.id}`, reader)).statusCode).toBe(404);
  });
});
