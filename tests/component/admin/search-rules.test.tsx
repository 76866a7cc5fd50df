import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchRule } from '../../../core/schemas/search-rules';
import { analyses, analysisGroups, populationOrganizations, populations } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

let t: TestApp;
let adminToken: string;
let readerToken: string;
let orgId: string;
let identityId: string;
let siblingId: string;
let norwegianId: string;
let rule: SearchRule;

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { authorization: `Bearer ${adminToken}` }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admin = await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] });
  const reader = await createUser(db, { accessGroupId: (await createAccessGroup(db, { grants: { SearchRules: ['Read'] } })).id, organizationIds: [orgId] });
  adminToken = t.verifier.issue(admin.id);
  readerToken = t.verifier.issue(reader.id);

  const [group] = await db.insert(analysisGroups).values({ name: 'Matching' }).returning();
  const analysis = async (name: string, roles: string[]) =>
    (await db.insert(analyses).values({ analysisGroupId: group!.id, name, kind: 'Computational', profileKind: 'Autosomal', roles, threshold: 1e6 }).returning())[0]!.id;
  identityId = await analysis('Identity', ['Evidence', 'Reference']);
  siblingId = await analysis('Full sibling', ['Person 1', 'Person 2']);
  const population = async (name: string, synthetic: boolean) => {
    const [row] = await db.insert(populations).values({ name, kind: 'Autosomal', synthetic }).returning();
    await db.insert(populationOrganizations).values({ populationId: row!.id, organizationId: orgId });
    return row!.id;
  };
  norwegianId = await population('Norwegian', false);
  await population('Synthetic demo population (not for casework)', true);

  const added = await api('POST', '/api/search-rules', {
    name: 'Forensic vs offenders',
    trigger: 'approval',
    searchingSampleTypes: ['Forensic, Unknown', 'Forensic Mixture'],
    searchedSampleTypes: ['Convicted Offender', 'Arrestee'],
    analysisId: identityId,
    stringency: 'moderate',
    minMarkers: 10,
    maxMismatches: 0,
    thresholdKind: 'likelihood-ratio',
    threshold: null,
    populationIds: [],
  });
  rule = added.json() as SearchRule;
  await api('POST', '/api/search-rules', {
    name: 'Familial search of offenders',
    active: false,
    trigger: 'request',
    searchingSampleTypes: ['Forensic, Unknown'],
    searchedSampleTypes: ['Convicted Offender'],
    analysisId: siblingId,
    stringency: null,
    minMarkers: 8,
    maxMismatches: 0,
    thresholdKind: 'likelihood-ratio',
    threshold: 10000,
    populationIds: [norwegianId],
  });
}, 60_000);
afterAll(() => t.close());

const group = (name: RegExp) => within(screen.getByRole('group', { name }));

describe('search rules', { timeout: 20_000 }, () => {
  it('lists the rules with when they run, what they search, the analysis, the stringency or threshold, and the populations', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/search-rules`, { t, token: adminToken, me });
    expect(await screen.findByText('Forensic vs offenders')).toBeInTheDocument();
    expect(screen.getByText('On approval')).toBeInTheDocument();
    expect(screen.getByText('Forensic, Unknown, Forensic Mixture')).toBeInTheDocument();
    expect(screen.getByText('Convicted Offender, Arrestee')).toBeInTheDocument();
    expect(screen.getByText('Identity, moderate (≥ 10 markers, no mismatch)')).toBeInTheDocument();
    expect(screen.getByText("All of the organization's (not synthetic)")).toBeInTheDocument();

    expect(screen.getByText('Familial search of offenders')).toBeInTheDocument();
    expect(screen.getByText('On request')).toBeInTheDocument();
    expect(screen.getByText('Full sibling')).toBeInTheDocument();
    expect(screen.getByText('LR ≥ 10,000')).toBeInTheDocument();
    expect(screen.getByText('Norwegian')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add search rule' })).toHaveAttribute('href', `/${orgId}/search-rules/new/edit`);
  });

  it('shows the server refusing a name another rule has beside the Name field, keeping the input', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/search-rules/new/edit`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New search rule' })).toBeInTheDocument();
    await userEvent.type(await screen.findByLabelText(/^Name/), 'FORENSIC VS OFFENDERS');
    await userEvent.click(group(/Searching sample types/).getByLabelText('Forensic Mixture'));
    await userEvent.click(group(/Searched sample types/).getByLabelText('Arrestee'));
    await userEvent.selectOptions(screen.getByLabelText(/^Analysis/), 'Matching: Identity (Computational, autosomal)');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('A search rule with this name exists');
    const name = screen.getByLabelText(/^Name/);
    expect(name).toHaveValue('FORENSIC VS OFFENDERS');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name.closest('.field')).toHaveTextContent('A search rule with this name exists');
  });

  it('keeps the synthetic population out of a rule that runs on approval, and offers it on request', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/search-rules/new/edit`, { t, token: adminToken, me });
    const synthetic = await screen.findByLabelText('Synthetic demo population (not for casework)');
    expect(synthetic).toBeDisabled();
    expect(group(/Populations/).getByText(/cannot use the synthetic demo population/)).toBeInTheDocument();
    await userEvent.click(group(/Runs/).getByLabelText('On request'));
    expect(synthetic).toBeEnabled();
  });

  it('adds a rule and returns to the table', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/search-rules/new/edit`, { t, token: adminToken, me });
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Remains vs missing persons');
    await userEvent.click(group(/Searching sample types/).getByLabelText('Unidentified Human (Remains)'));
    await userEvent.click(group(/Searched sample types/).getByLabelText('Missing Person'));
    await userEvent.selectOptions(screen.getByLabelText(/^Analysis/), 'Matching: Identity (Computational, autosomal)');
    await userEvent.selectOptions(screen.getByLabelText(/^Identity stringency/), 'High');
    await userEvent.click(group(/Populations/).getByLabelText('Norwegian'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/search-rules`));
    const stored = ((await api('GET', '/api/search-rules?search=Remains')).json() as { items: SearchRule[] }).items[0];
    expect(stored).toMatchObject({
      searchingSampleTypes: ['Unidentified Human (Remains)'],
      searchedSampleTypes: ['Missing Person'],
      stringency: 'high',
      minMarkers: 8,
      populationNames: ['Norwegian'],
    });
  });

  it('shows a user with only SearchRules Read the table without Add, and a rule read-only', async () => {
    const me = await meOf(t, readerToken);
    const view = renderScreen(`/${orgId}/search-rules`, { t, token: readerToken, me });
    expect(await screen.findByText('Forensic vs offenders')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add search rule' })).not.toBeInTheDocument();
    view.unmount();

    renderScreen(`/${orgId}/search-rules/${rule.id}/edit`, { t, token: readerToken, me });
    expect(await screen.findByDisplayValue('Forensic vs offenders')).toBeDisabled();
    expect(screen.getByLabelText(/^Analysis/)).toBeDisabled();
    expect(group(/Searching sample types/).getByLabelText('Forensic Mixture')).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', `/${orgId}/search-rules`);
  });
});
