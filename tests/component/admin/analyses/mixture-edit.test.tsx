import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Analysis, AnalysisInput } from '../../../../core/schemas/analyses';
import type { MixtureSetting } from '../../../../core/schemas/mixtures';
import { analysisGroups } from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { meOf, renderScreen } from '../../screen-fixtures';

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
  groupId = (await db.insert(analysisGroups).values({ name: 'Stains' }).returning())[0]!.id;
}, 60_000);
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const SEED: MixtureSetting = { contributors: 2, dropout: { mode: 'estimated', estimate: 'conservative' }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
const auth = () => ({ authorization: `Bearer ${adminToken}` });

async function addAnalysis(input: Partial<AnalysisInput> & { name: string }): Promise<Analysis> {
  const body = { label: '', kind: 'Mixture', profileKind: 'Autosomal', roles: ['Evidence', 'Person of interest'], threshold: 10_000, active: true, mixture: SEED, ...input, analysisGroupId: groupId };
  const res = await t.app.inject({ method: 'POST', url: '/api/analyses', headers: auth(), payload: body });
  if (res.statusCode !== 201) throw new Error(`POST /api/analyses answered ${res.statusCode}: ${res.body}`);
  return res.json() as Analysis;
}

const storedAnalysis = async (id: string) => (await t.app.inject({ method: 'GET', url: `/api/analyses/${id}`, headers: auth() })).json() as Analysis;

/** The bodies the screen sends to `method` /api/analyses…; with `refuse`, the server's answer is that 400 instead. */
function sentBodies(method: 'POST' | 'PUT', refuse?: { error: string; details: { path: string; message: string }[] }): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  const inject = t.app.inject.bind(t.app);
  vi.spyOn(t.app, 'inject').mockImplementation(((opts: { method?: string; url?: string; payload?: Buffer }) => {
    if (opts.method === method && opts.url?.startsWith('/api/analyses') && opts.payload) {
      bodies.push(JSON.parse(opts.payload.toString()) as Record<string, unknown>);
      if (refuse) return Promise.resolve({ statusCode: 400, headers: { 'content-type': 'application/json' }, rawPayload: Buffer.from(JSON.stringify(refuse)) });
    }
    return inject(opts as never);
  }) as never);
  return bodies;
}

const base = () => `/${orgId}/analysis-groups/${groupId}/analyses`;
const asAdmin = async (path: string) => renderScreen(path, { t, token: adminToken, me: await meOf(t, adminToken) });
const parameters = () => within(screen.getByRole('group', { name: 'Mixture parameters' }));
const dropout = () => within(screen.getByRole('group', { name: /^Drop-out/ }));

async function retype(label: string | RegExp, value: string) {
  const box = screen.getByLabelText(label);
  await userEvent.clear(box);
  await userEvent.type(box, value);
}

describe('analysis edit: mixture analyses', () => {
  it('choosing the kind Mixture fixes the roles, allows autosomal profiles only and shows the parameters', async () => {
    await asAdmin(`${base()}/new`);
    expect(await screen.findByLabelText('Role 1')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/Profile kind/), 'Y-STR');
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Mixture');

    expect(screen.queryByLabelText('Role 1')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add role' })).not.toBeInTheDocument();
    const roles = within(screen.getByRole('group', { name: 'Roles' }));
    expect(roles.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['1Evidence', '2Person of interest']);
    const profileKind = screen.getByLabelText(/Profile kind/);
    expect(profileKind).toHaveValue('Autosomal');
    expect(within(profileKind).getAllByRole('option').map((o) => o.textContent)).toEqual(['Autosomal']);

    expect(parameters().getByLabelText(/Number of contributors/)).toHaveValue('2');
    expect(dropout().getByRole('radio', { name: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' })).toBeChecked();
    expect(parameters().getByLabelText(/Drop-in probability/)).toHaveValue(0.05);
    expect(parameters().getByLabelText(/^θ/)).toHaveValue(0.01);
    expect(parameters().getByLabelText("Count the person of interest's alleles under Hd (θ)")).toBeChecked();
    expect(parameters().getByLabelText('Normalize frequencies after the minimum allele frequency rule')).not.toBeChecked();
    expect(screen.queryByRole('group', { name: 'Pedigree' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Mutation' })).not.toBeInTheDocument();

    // Back to Computational: the roles named before return and the parameters go.
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Computational');
    expect(screen.getByLabelText('Role 1')).toHaveValue('');
    expect(screen.queryByRole('group', { name: 'Mixture parameters' })).not.toBeInTheDocument();
    expect(within(screen.getByLabelText(/Profile kind/)).getAllByRole('option')).toHaveLength(2);
  });

  it('saves a Continuous mixture analysis (issue 31) with the two roles and no parameters, and a mixture switched to it loses its parameters', async () => {
    const posted = sentBodies('POST');
    const view = await asAdmin(`${base()}/new`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Peak heights');
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Mixture');
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Continuous mixture');
    expect(screen.queryByRole('group', { name: 'Mixture parameters' })).toBeNull();
    expect(within(screen.getByLabelText(/Profile kind/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['Autosomal']);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toMatch(new RegExp(`${base()}/[0-9a-f-]{36}$`)));
    expect(posted[0]).toEqual({ name: 'Peak heights', label: '', kind: 'Continuous mixture', profileKind: 'Autosomal', roles: ['Evidence', 'Person of interest'], threshold: null, active: true, pedigree: null, mutation: null, mixture: null, analysisGroupId: groupId });
    expect(await storedAnalysis(view.current()!.split('/').pop()!)).toMatchObject({ kind: 'Continuous mixture', mixture: null, missingPatterns: [] });
    expect(await screen.findByText(/its likelihoods come from the stain’s peak heights under the gamma model/)).toBeInTheDocument();
  });

  it('sends the parameters as set, fixed drop-out one per contributor, and shows no formula tables once saved', async () => {
    const posted = sentBodies('POST');
    const view = await asAdmin(`${base()}/new`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Three-person stain');
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Mixture');
    await userEvent.selectOptions(parameters().getByLabelText(/Number of contributors/), '3');
    await userEvent.click(dropout().getByRole('radio', { name: 'Fixed' }));
    await userEvent.type(screen.getByLabelText(/^Drop-out probability/), '0.1');
    await userEvent.click(dropout().getByRole('radio', { name: 'One value per contributor' }));
    expect(dropout().getAllByRole('spinbutton').map((b) => (b as HTMLInputElement).labels?.[0]?.textContent)).toEqual([
      'Person of interest *',
      'Known contributor / Unknown 1 *',
      'Known contributor / Unknown 2 *',
    ]);
    await retype(/^Known contributor \/ Unknown 2/, '0.3');
    await retype(/^Drop-in probability/, '0.02');
    await retype(/^θ/, '0.03');
    await userEvent.click(screen.getByLabelText('Normalize frequencies after the minimum allele frequency rule'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toMatch(new RegExp(`${base()}/[0-9a-f-]{36}$`)));
    expect(posted).toHaveLength(1);
    const mixture: MixtureSetting = { contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.1, 0.3] }, dropIn: 0.02, theta: 0.03, personOfInterestTypedUnderHd: true, normalizeFrequencies: true };
    expect(posted[0]).toEqual({ name: 'Three-person stain', label: '', kind: 'Mixture', profileKind: 'Autosomal', roles: ['Evidence', 'Person of interest'], threshold: null, active: true, pedigree: null, mutation: null, mixture, analysisGroupId: groupId });
    expect((await storedAnalysis(view.current()!.split('/').pop()!)).mixture).toEqual(mixture);

    // Shown again from the server: the values in place, a note instead of the formula and constant tables.
    expect(await screen.findByRole('heading', { name: 'Likelihoods' })).toBeInTheDocument();
    expect(screen.getByText(/its likelihoods Pr\(E\|Hp\) and Pr\(E\|Hd\) come from the semi-continuous model/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Known contributor \/ Unknown 2/)).toHaveValue(0.3);
    expect(screen.queryByRole('heading', { name: 'Formulae' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Constants' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Add formula' })).not.toBeInTheDocument();
  });

  it('says which number is out of range before saving', async () => {
    const analysis = await addAnalysis({ name: 'Out of range' });
    const put = sentBodies('PUT');
    await asAdmin(`${base()}/${analysis.id}`);
    await waitFor(() => expect(screen.getByLabelText(/^Drop-in probability/)).toHaveValue(0.05));
    await retype(/^Drop-in probability/, '1');
    await userEvent.clear(screen.getByLabelText(/^θ/));
    await userEvent.click(dropout().getByRole('radio', { name: 'Fixed' }));
    await userEvent.type(screen.getByLabelText(/^Drop-out probability/), '-0.2');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByLabelText(/^Drop-in probability/)).toHaveAccessibleDescription(/Below 1/));
    expect(screen.getByLabelText(/^θ/)).toHaveAccessibleDescription(/Required/);
    expect(screen.getByLabelText(/^Drop-out probability/)).toHaveAccessibleDescription(/Cannot be negative/);
    expect(screen.getByLabelText(/^Drop-out probability/)).toHaveAttribute('aria-invalid', 'true');
    expect(put).toHaveLength(0);
  });

  it("shows the server's refusal of the drop-out values at the drop-out field, the values kept", async () => {
    const analysis = await addAnalysis({ name: 'Refused drop-out', mixture: { ...SEED, dropout: { mode: 'fixed', values: [0.1, 0.2] } } });
    const put = sentBodies('PUT', { error: 'Give one drop-out for all contributors or one per contributor (2).', details: [{ path: '/mixture/dropout/values', message: '1 or 2 values' }] });
    await asAdmin(`${base()}/${analysis.id}`);
    expect(await screen.findByLabelText(/^Person of interest/)).toHaveValue(0.1);
    expect(dropout().getByRole('radio', { name: 'One value per contributor' })).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await dropout().findByText('1 or 2 values')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: /^Drop-out/ })).toHaveAccessibleDescription('1 or 2 values');
    expect(put[0]!.mixture).toEqual({ ...SEED, dropout: { mode: 'fixed', values: [0.1, 0.2] } });
    expect(screen.getByLabelText(/^Known contributor \/ Unknown 1/)).toHaveValue(0.2);
  });

  it('switching a mixture analysis to another kind sends mixture: null, and the server clears the parameters', async () => {
    const analysis = await addAnalysis({ name: 'No longer a mixture' });
    const put = sentBodies('PUT');
    const view = await asAdmin(`${base()}/${analysis.id}`);
    expect(await screen.findByRole('heading', { name: 'Likelihoods' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Kind/)).toHaveValue('Mixture'));
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Computational');
    expect(screen.queryByRole('group', { name: 'Mixture parameters' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Role 1')).toHaveValue('Evidence');
    await retype('Role 1', 'Stain');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`/${orgId}/analysis-groups/${groupId}`));
    expect(put[0]).toMatchObject({ kind: 'Computational', roles: ['Stain', 'Person of interest'], mixture: null });
    expect('pedigree' in put[0]!).toBe(false);
    const stored = await storedAnalysis(analysis.id);
    expect(stored).toMatchObject({ kind: 'Computational', mixture: null, roles: ['Stain', 'Person of interest'] });
  });
});
