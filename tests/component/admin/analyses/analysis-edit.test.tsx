import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Analysis, AnalysisInput } from '../../../../core/schemas/analyses';
import { analysisGroups } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { meOf, renderScreen } from '../../screen-fixtures';

// These screens draw AG Grid, whose first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let t: TestApp;
let adminToken: string;
let orgId: string;
let groupId: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] })).id);
  groupId = (await db.insert(analysisGroups).values({ name: 'Y-STR lineage' }).returning())[0]!.id;
}, 60_000);
afterAll(() => t.close());

/** Adds an analysis through the API, as an administrator. */
async function addAnalysis(input: Partial<AnalysisInput> & { name: string }): Promise<Analysis> {
  const body = { label: '', kind: 'Computational', profileKind: 'YStr', roles: ['Questioned', 'Reference'], threshold: null, active: true, ...input, analysisGroupId: groupId };
  const res = await t.app.inject({ method: 'POST', url: '/api/analyses', headers: { authorization: `Bearer ${adminToken}` }, payload: body });
  if (res.statusCode !== 201) throw new Error(`POST /api/analyses answered ${res.statusCode}: ${res.body}`);
  return res.json() as Analysis;
}

const base = () => `/${orgId}/analysis-groups/${groupId}/analyses`;
const breadcrumb = () => within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
const missing = () => screen.getByRole('status', { name: 'Missing formulae' });
const asAdmin = async (path: string) => renderScreen(path, { t, token: adminToken, me: await meOf(t, adminToken) });

describe('analysis edit', () => {
  it('adds an analysis with ordered roles, then lists every allele expression its formula table lacks', async () => {
    const view = await asAdmin(`${base()}/new`);
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Lineage match');
    await userEvent.selectOptions(screen.getByLabelText(/Profile kind/), 'Y-STR');
    await userEvent.type(screen.getByLabelText('Role 1'), 'Reference');
    await userEvent.click(screen.getByRole('button', { name: 'Add role' }));
    await userEvent.type(screen.getByLabelText('Role 2'), 'Questioned');
    await userEvent.click(screen.getByRole('button', { name: 'Move role 2 up' }));
    await userEvent.type(screen.getByLabelText('Threshold'), '1000');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toMatch(new RegExp(`${base()}/[0-9a-f-]{36}$`)));
    const list = within(await screen.findByRole('status', { name: 'Missing formulae' }));
    expect(list.getByText(/These allele expressions have no formula/)).toBeInTheDocument();
    expect(list.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['P-P', 'P-Q']);
    expect(screen.getByLabelText('Role 1')).toHaveValue('Questioned');
    expect(screen.getByLabelText('Role 2')).toHaveValue('Reference');
    expect(screen.getByLabelText('Threshold')).toHaveValue(1000);
    expect(await breadcrumb().findByText('Lineage match')).toBeInTheDocument();
  });

  it('adds a constant and a formula using it: the formula reads as mathematics and leaves the missing list', async () => {
    const analysis = await addAnalysis({ name: 'Haplotype LR' });
    const view = await asAdmin(`${base()}/${analysis.id}`);
    await userEvent.click(await screen.findByRole('link', { name: 'Add constant' }));
    // The constant's page loads on first use: wait for a field only it has, so Name is its field.
    const notation = await screen.findByLabelText('Mathematical notation');
    await userEvent.type(screen.getByLabelText(/^Name/), 'theta');
    await userEvent.type(notation, '\\theta');
    expect(within(screen.getByRole('figure', { name: 'Notation preview' })).getByText('θ', { selector: '.katex-html *' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Value/), '0.01');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`${base()}/${analysis.id}`));
    // A list is a named group (issue 30: a region named like its page was a second landmark of that name).
    const constants = await screen.findByRole('group', { name: 'Constants of Haplotype LR' });
    expect(await within(constants).findByText('theta')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Add formula' }));
    expect(await screen.findByText('Constants of this analysis')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Allele expression/), 'P-P');
    expect(within(screen.getByRole('complementary', { name: 'What a formula may use' })).getByText('p')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Formula/), '1/(theta + (1-theta)*p)');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`${base()}/${analysis.id}`));
    const formulae = await screen.findByRole('group', { name: 'Formulae of Haplotype LR' });
    const row = (await within(formulae).findByText('P-P')).closest('[role="row"]') as HTMLElement;
    expect(row.querySelector('.katex')).not.toBeNull();
    expect(within(missing()).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['P-Q']);

    await userEvent.click(within(formulae).getByText('P-P'));
    expect(await breadcrumb().findByText('P-P')).toBeInTheDocument();
    expect((await screen.findByRole('figure', { name: 'Saved formula' })).querySelector('.katex')).not.toBeNull();
  });

  it("shows the server's reason beside the field when a formula is refused", async () => {
    const analysis = await addAnalysis({ name: 'Refusals' });
    await asAdmin(`${base()}/${analysis.id}/formulae/new`);
    const pattern = await screen.findByLabelText(/Allele expression/);
    await userEvent.type(pattern, 'P-P');
    await userEvent.type(screen.getByLabelText(/^Formula/), '2*s');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const formula = screen.getByLabelText(/^Formula/);
    await waitFor(() => expect(formula).toHaveAccessibleDescription(/Frequency 's' .*is not in the pattern \(allowed: p\)/));
    expect(formula).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(pattern);
    await userEvent.type(pattern, 'Q-Q');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(pattern).toHaveAccessibleDescription(/Write it in canonical form: P-P/));
  });

  it('offers Exclusion or Non Exclusion for an exclusion analysis, and the table says which', async () => {
    const analysis = await addAnalysis({ name: 'Lineage exclusion', kind: 'Exclusion' });
    const view = await asAdmin(`${base()}/${analysis.id}/formulae/new`);
    await userEvent.type(await screen.findByLabelText(/Allele expression/), 'P-Q');
    expect(screen.queryByLabelText(/^Formula/)).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Non Exclusion' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'Exclusion' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`${base()}/${analysis.id}`));
    const formulae = await screen.findByRole('group', { name: 'Formulae of Lineage exclusion' });
    const row = (await within(formulae).findByText('P-Q')).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText('Exclusion')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Constants' })).not.toBeInTheDocument();
  });

  it('shows the 409 that refuses deleting a constant a formula uses; the breadcrumb names the constant', async () => {
    const analysis = await addAnalysis({ name: 'Kept constant' });
    const auth = { authorization: `Bearer ${adminToken}` };
    const constant = (await t.app.inject({ method: 'POST', url: `/api/analyses/${analysis.id}/constants`, headers: auth, payload: { name: 'k', notation: '\\kappa', value: 2 } })).json() as { id: string };
    await t.app.inject({ method: 'POST', url: `/api/analyses/${analysis.id}/formulae`, headers: auth, payload: { pattern: 'P-P', expression: 'k/p', isExclusion: null } });
    await asAdmin(`${base()}/${analysis.id}/constants/${constant.id}`);
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue('k'));
    expect(await breadcrumb().findByText('k')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Constant k cannot be deleted: the formulae of P-P use it.');
  });

  it('refuses the page to a user who is not an administrator with scope All, even with Analyses Edit (issue 30), and to a read-only user', async () => {
    const analysis = await addAnalysis({ name: 'Guarded' });
    const db = t.database.db;
    const editorToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { grants: { Analyses: ['Read', 'Edit'] } })).id, organizationIds: [orgId] })).id);
    const editorView = renderScreen(`${base()}/${analysis.id}`, { t, token: editorToken, me: await meOf(t, editorToken) });
    expect(await screen.findByText('You do not have permission to open this page.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    editorView.unmount();

    const readerToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { grants: { Analyses: ['Read'] } })).id, organizationIds: [orgId] })).id);
    renderScreen(`${base()}/${analysis.id}`, { t, token: readerToken, me: await meOf(t, readerToken) });
    expect(await screen.findByText('You do not have permission to open this page.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});
