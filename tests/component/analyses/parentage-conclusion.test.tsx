/**
 * GENETICS.md "Parentage with inconsistencies" in the calculator: a full-sibling pair run through
 * Parent–child states Excluded with the inconsistent markers above the table, and marks them in it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import { analyses, analysisGroups, caseTypes, chemistries, markers } from '../../../server/db/schema';
import { seedReferenceData } from '../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { multipartBody } from '../../helpers/multipart';
import { meOf, renderScreen } from '../screen-fixtures';

// KaTeX in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/frequencies/fbi2015.csv'));

let t: TestApp;
let orgId: string;
let caseId: string;
let adminToken: string;
let analystToken: string;
const analysisIds: Record<string, string> = {};
const groupIds: Record<string, string> = {};

// Full siblings: D3S1358 and vWA share no allele, the other markers share at least one.
const SIBLING_1 = { D3S1358: ['15', '16'], vWA: ['16', '17'], FGA: ['21', '24'], TH01: ['6', '9.3'], TPOX: ['8'], D18S51: ['14', '17'] };
const SIBLING_2 = { D3S1358: ['17', '18'], vWA: ['14', '18'], FGA: ['21', '22'], TH01: ['6', '7'], TPOX: ['8', '11'], D18S51: ['14', '17'] };

function call(token: string, method: 'POST' | 'PUT', url: string, payload: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
}

async function addProfile(sampleName: string, genotypes: Record<string, string[]>) {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = (await call(analystToken, 'POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: sampleName, markerValues: [] }] })).json() as { items: Profile[] };
  const p = added.items[0]!;
  const res = await call(analystToken, 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(genotypes).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles })) });
  if (res.statusCode !== 200) throw new Error(res.body);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id);
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'] } });
  analystToken = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  for (const a of await db.select().from(analyses)) analysisIds[a.name] = a.id;
  for (const g of await db.select().from(analysisGroups)) groupIds[g.name] = g.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await call(analystToken, 'POST', '/api/cases', { caseNumber: 'KIN-9', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] })).json().id;
  const pop = (await call(adminToken, 'POST', '/api/populations', { name: 'FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [orgId] })).json();
  const form = await multipartBody({ version: String(pop.version), population: 'Caucasian' }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${pop.id}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${adminToken}` } });
  if (saved.statusCode !== 200) throw new Error(saved.body);
  await addProfile('SIB-1', SIBLING_1);
  await addProfile('SIB-2', SIBLING_2);
}, 90_000);
afterAll(() => t.close());

async function choose(role: string, sampleName: string) {
  await userEvent.type(await screen.findByLabelText(`Find a profile for ${role}`), sampleName);
  const select = screen.getByLabelText(role, { selector: 'select' });
  await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toContain(`${sampleName} (case KIN-9, pending)`));
  await userEvent.selectOptions(select, within(select).getByRole('option', { name: `${sampleName} (case KIN-9, pending)` }));
}

const markerRow = (table: ReturnType<typeof within>, marker: string) => table.getByRole('rowheader', { name: marker }).closest('tr')!;

describe('the calculator on a full-sibling pair run as Parent–child', () => {
  it('states Excluded with the two inconsistent markers above the table, and marks them in it', async () => {
    await renderScreen(`/${orgId}/analyses/${groupIds.Kinship}/${analysisIds['Parent–child']}?caseId=${caseId}`, { t, token: analystToken, me: await meOf(t, analystToken) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Parent–child' })).toBeInTheDocument();
    await choose('Child', 'SIB-1');
    await choose('Alleged parent', 'SIB-2');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));

    const section = within(await screen.findByRole('region', { name: 'Result over FBI 2015 Caucasian' }));
    const conclusion = section.getByRole('status', { name: 'Parentage conclusion' });
    expect(conclusion).toHaveTextContent('Excluded: 2 markers inconsistent with the relationship (D3S1358, vWA), more than the 1 allowed');
    // Above the figures and the table: it is read first.
    const table = section.getByRole('table', { name: 'Markers over FBI 2015 Caucasian' });
    expect(conclusion.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(section.getByText('Probability').nextSibling).toHaveTextContent(/^Excluded$/);
    expect(section.getByText('Combined index').nextSibling).toHaveTextContent('0.00e+0');

    const rows = within(table);
    for (const marker of ['D3S1358', 'vWA']) {
      expect(markerRow(rows, marker)).toHaveClass('calculator__inconsistent');
      expect(within(markerRow(rows, marker)).getAllByRole('cell')[4]).toHaveTextContent(/inconsistent$/);
    }
    expect(markerRow(rows, 'FGA')).not.toHaveClass('calculator__inconsistent');
    expect(within(markerRow(rows, 'FGA')).getAllByRole('cell')[4]).not.toHaveTextContent('inconsistent');
  });
});
