import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnalysisResult } from '../../../core/schemas/analyses';
import type { Profile } from '../../../core/schemas/profiles';
import { analyses, analysisGroups, caseTypes, chemistries, markers } from '../../../server/db/schema';
import { seedReferenceData } from '../../../server/db/seed/reference-data';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { multipartBody } from '../../helpers/multipart';
import { meOf, renderScreen } from '../screen-fixtures';

// AG Grid's first load and KaTeX in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/frequencies/fbi2015.csv'));

let t: TestApp;
let orgId: string;
let caseId: string;
let populationId: string;
let adminToken: string;
let analystToken: string;
const analysisIds: Record<string, string> = {};
const groupIds: Record<string, string> = {};
const profileIds: Record<string, string> = {};

// Two brothers and an unrelated person, typed on a few CODIS markers (Amelogenin has no frequencies).
const SIBLING_1 = { D3S1358: ['15', '16'], vWA: ['16', '17'], FGA: ['21', '24'], TH01: ['6', '9.3'], TPOX: ['8'], D18S51: ['14', '17'], Amelogenin: ['X', 'Y'] };
const SIBLING_2 = { D3S1358: ['15', '16'], vWA: ['17', '18'], FGA: ['21', '24'], TH01: ['6'], TPOX: ['8', '11'], D18S51: ['14', '17'], Amelogenin: ['X', 'Y'] };
const CHILD = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'] };
const PARENT = { D3S1358: ['16', '18'], vWA: ['17'], TH01: ['8', '10'] };
// 'Wife and two children': Child 2's paternal FGA 23 is one step from the missing person's 24 (a mutation).
const MISSING = { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], FGA: ['21', '24'] };
const WIFE = { D3S1358: ['17', '18'], vWA: ['14', '15'], TH01: ['7', '8'], FGA: ['20', '22'] };
const CHILD_A = { D3S1358: ['15', '17'], vWA: ['14', '16'], TH01: ['6', '7'], FGA: ['20', '21'] };
const CHILD_B = { D3S1358: ['16', '18'], vWA: ['15', '17'], TH01: ['8', '9.3'], FGA: ['22', '23'] };
// A two-person stain: the missing person's alleles and a second person's (issue 17); its replicate lost vWA 18.
const STAIN = { D3S1358: ['15', '16', '17'], vWA: ['16', '17', '18'], TH01: ['6', '7', '9.3'], FGA: ['21', '22', '24'] };
const STAIN_REPLICATE = { D3S1358: ['15', '16', '17'], vWA: ['16', '17'], TH01: ['6', '7', '9.3'], FGA: ['21', '22', '24'] };

function call(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
}

async function addProfile(sampleName: string, genotypes: Record<string, string[]>, sampleType = 'Reference'): Promise<string> {
  const db = t.database.db;
  const [chem] = await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler'));
  const ids = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const added = (await call(analystToken, 'POST', '/api/profiles', { caseId, chemistryId: chem!.id, sampleType, sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles: [{ profileId: sampleName, markerValues: [] }] })).json() as { items: Profile[] };
  const p = added.items[0]!;
  const res = await call(analystToken, 'PUT', `/api/profiles/${p.id}/markers`, { version: p.version, markerValues: Object.entries(genotypes).map(([m, alleles]) => ({ markerId: ids.get(m)!, alleles })) });
  if (res.statusCode !== 200) throw new Error(res.body);
  return p.id;
}

async function addPopulation(name: string): Promise<string> {
  const pop = (await call(adminToken, 'POST', '/api/populations', { name, kind: 'Autosomal', organizationIds: [orgId] })).json();
  const form = await multipartBody({ version: String(pop.version), population: 'Caucasian' }, { name: 'fbi2015.csv', bytes: FBI_2015, type: 'text/csv' });
  const saved = await t.app.inject({ method: 'POST', url: `/api/populations/${pop.id}/statistics`, payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${adminToken}` } });
  if (saved.statusCode !== 200) throw new Error(saved.body);
  return pop.id;
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
  caseId = (await call(analystToken, 'POST', '/api/cases', { caseNumber: 'KIN-7', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] })).json().id;
  populationId = await addPopulation('FBI 2015 Caucasian');
  profileIds.sibling1 = await addProfile('SIB-1', SIBLING_1);
  profileIds.sibling2 = await addProfile('SIB-2', SIBLING_2);
  profileIds.child = await addProfile('CHILD-1', CHILD);
  profileIds.parent = await addProfile('PARENT-1', PARENT);
  profileIds.missing = await addProfile('MP-REMAINS', MISSING);
  profileIds.wife = await addProfile('MP-WIFE', WIFE);
  profileIds.childA = await addProfile('MP-CHILD-A', CHILD_A);
  profileIds.childB = await addProfile('MP-CHILD-B', CHILD_B);
  profileIds.stain = await addProfile('MIX-STAIN', STAIN, 'Forensic Mixture');
  profileIds.stainReplicate = await addProfile('MIX-STAIN-R2', STAIN_REPLICATE, 'Forensic Mixture');
}, 90_000);
afterAll(() => t.close());

const asAnalyst = async (p: string) => renderScreen(p, { t, token: analystToken, me: await meOf(t, analystToken) });
const calculatorPath = (group: string, analysis: string, query = `?caseId=${caseId}`) => `/${orgId}/analyses/${groupIds[group]}/${analysisIds[analysis]}${query}`;

/** A marker's row of a result table, found by its row header (KaTeX in the row defeats jsdom's accessible-name computation). */
const markerRow = (table: ReturnType<typeof within>, marker: string) => within(table.getByRole('rowheader', { name: marker }).closest('tr')!);

/** Chooses a profile for a role by typing part of its name, as a user would. */
async function choose(role: string, sampleName: string) {
  await userEvent.type(await screen.findByLabelText(`Find a profile for ${role}`), sampleName);
  const select = screen.getByLabelText(role, { selector: 'select' });
  await waitFor(() => expect(within(select).getAllByRole('option').map((o) => o.textContent)).toContain(`${sampleName} (case KIN-7, pending)`));
  await userEvent.selectOptions(select, within(select).getByRole('option', { name: `${sampleName} (case KIN-7, pending)` }));
}

describe('the analysis calculator', () => {
  it('runs Full siblings on two profiles of the case over an uploaded population; every number equals the API’s', async () => {
    await asAnalyst(calculatorPath('Kinship', 'Full siblings'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Full siblings' })).toBeInTheDocument();
    await choose('Person 1', 'SIB-1');
    await choose('Person 2', 'SIB-2');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));

    const section = within(await screen.findByRole('region', { name: 'Result over FBI 2015 Caucasian' }));
    const expected = (await call(analystToken, 'POST', `/api/analyses/${analysisIds['Full siblings']}/analyze`, { profileIds: [profileIds.sibling1, profileIds.sibling2], populationIds: [populationId] })).json() as AnalysisResult;
    const population = expected.populations[0]!;
    expect(section.getByText('Combined index').nextSibling).toHaveTextContent(population.combinedIndex!.toExponential(2));
    expect(section.getByText('Probability').nextSibling).toHaveTextContent(population.probability);
    const table = within(section.getByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Marker', 'Person 1', 'Person 2', 'Pattern', 'Formula', 'Value']);
    for (const marker of population.markers) {
      const row = markerRow(table, marker.marker);
      const cells = row.getAllByRole('cell');
      expect(cells[0]).toHaveTextContent((marker.genotypes[0] ?? []).join(', ') || '–');
      expect(cells[2]).toHaveTextContent(marker.pattern ?? '–');
      if (marker.value !== null) expect(cells[4]).toHaveTextContent(marker.value.toExponential(2));
      else expect(cells[4]).toHaveTextContent(`not evaluated: ${marker.notEvaluated}`);
    }
    // A formula is drawn as mathematics (KaTeX), not shown as source text.
    expect(table.getByRole('rowheader', { name: 'TPOX' }).closest('tr')!.querySelector('.katex')).not.toBeNull();
    expect(section.getByText(/log10 LR per marker over FBI 2015 Caucasian: 6 markers; strongest/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  });

  it('runs a pedigree of four roles (Wife and two children): hypotheses, mutation models, likelihoods and verdicts per marker, the marker needing a mutation named', async () => {
    await asAnalyst(calculatorPath('Missing persons', 'Wife and two children'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Wife and two children' })).toBeInTheDocument();
    await choose('Missing person', 'MP-REMAINS');
    await choose('Wife', 'MP-WIFE');
    await choose('Child 1', 'MP-CHILD-A');
    await choose('Child 2', 'MP-CHILD-B');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));

    const hypotheses = within(await screen.findByRole('region', { name: 'Hypotheses' }));
    expect(hypotheses.getByText(/^H1:/).parentElement).toHaveTextContent('H1: the pedigree as drawn, Missing person (MP-REMAINS) the tested person.');
    expect(hypotheses.getByText(/^H2:/).parentElement).toHaveTextContent('H2: Missing person (MP-REMAINS) is unrelated to the others');
    expect(hypotheses.getByRole('img', { name: 'Pedigree of H1: 4 persons; typed Missing person, Wife, Child 1, Child 2; tested person Missing person' })).toBeInTheDocument();
    expect(within(hypotheses.getByRole('list', { name: 'Persons of H1' })).getAllByRole('listitem').map((li) => li.textContent)).toContain('Child 2 (MP-CHILD-B), male; child of Missing person and Wife');
    const models = within(screen.getByRole('region', { name: 'Mutation models' }));
    expect(models.getByText(/^Every marker:/)).toHaveTextContent('Every marker: female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1');

    const section = within(screen.getByRole('region', { name: 'Result over FBI 2015 Caucasian' }));
    const expected = (await call(analystToken, 'POST', `/api/analyses/${analysisIds['Wife and two children']}/analyze`, {
      profileIds: [profileIds.missing, profileIds.wife, profileIds.childA, profileIds.childB],
      populationIds: [populationId],
    })).json() as AnalysisResult;
    const population = expected.populations[0]!;
    expect(population.markersNeedingMutation).toEqual(['FGA']);
    expect(section.getByText('Likelihood ratio (H1 / H2)').nextSibling).toHaveTextContent(population.combinedIndex!.toExponential(2));
    expect(section.getByRole('status', { name: 'Markers needing a mutation' })).toHaveTextContent('Markers needing a mutation: FGA');
    const table = within(section.getByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    expect(table.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Marker', 'Missing person', 'Wife', 'Child 1', 'Child 2', 'L(H1)', 'L(H2)', 'LR', 'Verdict']);
    for (const marker of population.markers) {
      const cells = markerRow(table, marker.marker).getAllByRole('cell').map((c) => c.textContent);
      expect(cells.slice(0, 4)).toEqual(marker.genotypes.map((g) => g!.join(', ')));
      expect(cells.slice(4)).toEqual([marker.pedigree!.likelihoodH1.toExponential(2), marker.pedigree!.likelihoodH2.toExponential(2), marker.value!.toExponential(2), marker.pedigree!.verdict]);
    }
    expect(table.getByRole('rowheader', { name: 'FGA' }).closest('tr')).toHaveClass('calculator__inconsistent');
    expect(table.getByRole('rowheader', { name: 'TH01' }).closest('tr')).not.toHaveClass('calculator__inconsistent');
  });

  it('runs a mixture (Mixture, 2 contributors) with a second replicate: hypotheses, LR, estimates and per-marker likelihoods as the API gives them', async () => {
    await asAnalyst(calculatorPath('Mixtures', 'Mixture, 2 contributors'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Mixture, 2 contributors' })).toBeInTheDocument();
    await choose('Evidence', 'MIX-STAIN');
    await choose('Person of interest', 'MP-REMAINS');
    await userEvent.click(screen.getByRole('button', { name: 'Add a replicate of the evidence' }));
    await choose('Evidence (replicate 2)', 'MIX-STAIN-R2');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));

    const section = within(await screen.findByRole('region', { name: 'Result over FBI 2015 Caucasian' }, { timeout: 20_000 }));
    const expected = (await call(analystToken, 'POST', `/api/analyses/${analysisIds['Mixture, 2 contributors']}/analyze`, {
      profileIds: [profileIds.stain, profileIds.missing],
      populationIds: [populationId],
      mixture: { replicateProfileIds: [profileIds.stainReplicate], knownContributorIds: [] },
    })).json() as AnalysisResult;
    const mixture = expected.populations[0]!.mixture!;
    /** A figure as the view writes it: the mantissa, × 10 and the exponent (raised). */
    const scientific = (value: number) => value.toExponential(2).replace(/e\+?(-?\d+)$/, ' × 10$1');
    expect(section.getByText('Hp:').parentElement).toHaveTextContent(`Hp: ${mixture.parameters.hp}`);
    expect(section.getByText('Likelihood ratio (Hp / Hd)').nextElementSibling).toHaveTextContent(scientific(mixture.lr));
    expect(section.getByText('log10 LR').nextElementSibling).toHaveTextContent(mixture.log10!.toFixed(2));
    // One row per estimate the call made (the conservative drop-out's, under Hd, unless both are asked for), and the heading row.
    expect(mixture.estimates.length).toBeGreaterThan(0);
    expect(within(section.getByRole('table', { name: 'Drop-out estimates' })).getAllByRole('row')).toHaveLength(1 + mixture.estimates.length);
    const table = within(section.getByRole('table', { name: 'Markers over FBI 2015 Caucasian' }));
    for (const m of mixture.markers) {
      const cells = markerRow(table, m.marker).getAllByRole('cell').map((c) => c.textContent);
      expect(cells[0]).toBe(m.replicates.map((r, i) => `R${i + 1}: ${r.join(', ')}`).join(''));
      expect(cells.slice(-3)).toEqual([scientific(m.likelihoodHp), scientific(m.likelihoodHd), scientific(m.lr)]);
    }
    expect(markerRow(table, 'vWA').getAllByRole('cell').map((c) => c.textContent)[0]).toBe('R1: 16, 17, 18R2: 16, 17');
  });

  it('links back to the case’s involved parties from the breadcrumb', async () => {
    await asAnalyst(calculatorPath('Kinship', 'Full siblings'));
    const crumbs = within(await screen.findByRole('navigation', { name: 'Breadcrumb' }));
    // The case crumb (its case number) leads to the case view, whose first tab is Involved parties; the group's list is left out.
    expect(await crumbs.findByRole('link', { name: 'KIN-7' })).toHaveAttribute('href', `/${orgId}/cases/${caseId}`);
    expect(crumbs.queryByRole('link', { name: 'Analyses' })).toBeNull();
  });

  it('says what is missing instead of running, and sends nothing', async () => {
    await asAnalyst(calculatorPath('Kinship', 'Full siblings'));
    await choose('Person 1', 'SIB-1');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Choose a profile for Person 2', 'Choose at least one population']);
    expect(screen.queryByRole('region', { name: /Result over/ })).toBeNull();
  });

  it('shows non-exclusion markers / markers compared for an exclusion analysis, without populations', async () => {
    await asAnalyst(calculatorPath('Exclusion', 'Parent–child exclusion'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Parent–child exclusion' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Populations' })).toBeNull();
    await choose('Child', 'CHILD-1');
    await choose('Alleged parent', 'PARENT-1');
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const section = within(await screen.findByRole('region', { name: 'Exclusion result' }));
    expect(section.getByText('Non-exclusion markers / markers compared').nextSibling).toHaveTextContent('2/3');
    const table = within(section.getByRole('table', { name: 'Markers compared' }));
    expect(markerRow(table, 'TH01').getAllByRole('cell')[4]).toHaveTextContent(/^Exclusion$/);
    expect(markerRow(table, 'vWA').getAllByRole('cell')[4]).toHaveTextContent('Non Exclusion');
  });

  it('shows the server’s refusal when a chosen population is deleted meanwhile, and runs again once it is unticked and another ticked', async () => {
    const doomed = await addPopulation('Soon deleted');
    await asAnalyst(calculatorPath('Identity', 'Identity'));
    await choose('Evidence', 'SIB-1');
    await choose('Reference', 'SIB-2');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Soon deleted' }));
    expect((await call(adminToken, 'DELETE', `/api/populations/${doomed}`)).statusCode).toBe(204);
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(alert).toHaveTextContent(`No population with id ${doomed}`);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Soon deleted' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'FBI 2015 Caucasian' }));
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('region', { name: 'Result over FBI 2015 Caucasian' })).toBeInTheDocument();
  });

  it('names the allele expressions an incomplete formula table lacks', async () => {
    const created = await call(adminToken, 'POST', '/api/analyses', { analysisGroupId: groupIds.Kinship, name: 'Draft cousins', label: '', kind: 'Computational', profileKind: 'Autosomal', roles: ['Person 1', 'Person 2'], threshold: null, active: true });
    expect(created.statusCode, created.body).toBe(201);
    await asAnalyst(`/${orgId}/analyses/${groupIds.Kinship}/${created.json().id}`);
    const missing = within(await screen.findByRole('status', { name: 'Missing formulae' }));
    expect(missing.getAllByRole('listitem').map((li) => li.textContent)).toContain('PQ-PQ');
  });

  it('lists a group’s analyses; a row opens its calculator for the same case', async () => {
    const view = await asAnalyst(`/${orgId}/analyses/${groupIds.Kinship}?caseId=${caseId}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Analyses' })).toBeInTheDocument();
    await userEvent.click(await screen.findByText('First cousins', {}, { timeout: 10_000 }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/analyses/${groupIds.Kinship}/${analysisIds['First cousins']}?caseId=${caseId}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'First cousins' })).toBeInTheDocument();
  });
});
