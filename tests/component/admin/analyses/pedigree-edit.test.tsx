import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Analysis, AnalysisInput } from '../../../../core/schemas/analyses';
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
  groupId = (await db.insert(analysisGroups).values({ name: 'Missing persons' }).returning())[0]!.id;
}, 60_000);
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const M = 'male' as const;
const F = 'female' as const;
const SISTER: NonNullable<AnalysisInput['pedigree']> = {
  persons: [
    { id: 'Father', sex: M },
    { id: 'Mother', sex: F },
    { id: 'Missing person', sex: M, father: 'Father', mother: 'Mother' },
    { id: 'Full sister', sex: F, father: 'Father', mother: 'Mother' },
  ],
  target: 'Missing person',
  alternative: null,
};

async function addAnalysis(input: Partial<AnalysisInput> & { name: string }): Promise<Analysis> {
  const body = { label: '', kind: 'Pedigree', profileKind: 'Autosomal', roles: ['Missing person', 'Mother', 'Full sister'], threshold: null, active: true, pedigree: SISTER, ...input, analysisGroupId: groupId };
  const res = await t.app.inject({ method: 'POST', url: '/api/analyses', headers: { authorization: `Bearer ${adminToken}` }, payload: body });
  if (res.statusCode !== 201) throw new Error(`POST /api/analyses answered ${res.statusCode}: ${res.body}`);
  return res.json() as Analysis;
}

/** The bodies the screen sends to `method` /api/analyses…, as the server receives them. */
function sentBodies(method: 'POST' | 'PUT'): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  const inject = t.app.inject.bind(t.app);
  vi.spyOn(t.app, 'inject').mockImplementation(((opts: { method?: string; url?: string; payload?: Buffer }) => {
    if (opts.method === method && opts.url?.startsWith('/api/analyses') && opts.payload) bodies.push(JSON.parse(opts.payload.toString()) as Record<string, unknown>);
    return inject(opts as never);
  }) as never);
  return bodies;
}

const base = () => `/${orgId}/analysis-groups/${groupId}/analyses`;
const asAdmin = async (path: string) => renderScreen(path, { t, token: adminToken, me: await meOf(t, adminToken) });
const pedigree = () => screen.getByRole('group', { name: 'Pedigree' });

describe('analysis edit: pedigree analyses', () => {
  it('choosing the kind Pedigree shows the pedigree editor and the mutation models instead of the roles', async () => {
    await asAdmin(`${base()}/new`);
    expect(await screen.findByLabelText('Role 1')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Pedigree' })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Pedigree');
    expect(pedigree()).toBeInTheDocument();
    expect(screen.queryByLabelText('Role 1')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add person' })).toBeInTheDocument();
    expect(screen.getByLabelText('Female model')).toHaveValue('trivial');
    expect(screen.getByText(/H2: the tested person unrelated/)).toBeInTheDocument();
  });

  it('sends the drawn persons, and as roles the typed persons with the tested person first', async () => {
    const posted = sentBodies('POST');
    const view = await asAdmin(`${base()}/new`);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Mother and full sister');
    await userEvent.selectOptions(screen.getByLabelText(/^Kind/), 'Pedigree');
    for (let i = 0; i < 4; i++) await userEvent.click(screen.getByRole('button', { name: 'Add person' }));
    const name = (n: number) => screen.getByLabelText(`Name of person ${n}`);
    for (const [n, text] of [[1, 'Father'], [2, 'Mother'], [3, 'Missing person'], [4, 'Full sister']] as const) {
      await userEvent.clear(name(n));
      await userEvent.type(name(n), text);
    }
    await userEvent.selectOptions(screen.getByLabelText('Sex of person 2'), 'Female');
    await userEvent.selectOptions(screen.getByLabelText('Sex of person 4'), 'Female');
    for (const n of [3, 4]) {
      await userEvent.selectOptions(screen.getByLabelText(`Father of person ${n}`), 'Father');
      await userEvent.selectOptions(screen.getByLabelText(`Mother of person ${n}`), 'Mother');
    }
    await userEvent.click(screen.getByLabelText('Person 2 typed (a role)'));
    await userEvent.click(screen.getByLabelText('Person 4 typed (a role)'));
    await userEvent.click(screen.getByLabelText('Person 3 is the tested person'));
    expect(within(pedigree()).getByText('Roles, in order: Missing person, Mother, Full sister')).toBeInTheDocument();
    expect(within(pedigree()).getByRole('img', { name: /Missing person, child of Father and Mother/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toMatch(new RegExp(`${base()}/[0-9a-f-]{36}$`)));
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ kind: 'Pedigree', roles: ['Missing person', 'Mother', 'Full sister'], pedigree: SISTER, mutation: null });
    // Saved and shown again from the server, without formula tables.
    expect(await screen.findByLabelText('Name of person 3')).toHaveValue('Missing person');
    expect(screen.getByLabelText('Person 3 is the tested person')).toBeChecked();
    expect(screen.queryByRole('heading', { name: 'Formulae' })).not.toBeInTheDocument();
  });

  it('sends a stepwise model with its rate, microvariant rate and range, and keeps the per-marker models', async () => {
    const markers = [{ marker: 'D3S1358', female: { model: 'equal' as const, rate: 0.01 }, male: { model: 'equal' as const, rate: 0.02 } }];
    const analysis = await addAnalysis({ name: 'Stepwise', mutation: { female: { model: 'trivial' }, male: { model: 'trivial' }, markers } });
    const put = sentBodies('PUT');
    const view = await asAdmin(`${base()}/${analysis.id}`);
    const female = await screen.findByLabelText('Female model');
    expect(screen.getByText(/Markers with their own models, kept as saved .*: D3S1358/)).toBeInTheDocument();
    await userEvent.selectOptions(female, 'Stepwise');
    for (const [label, value] of [['Female mutation rate', '0.002'], ['Female microvariant rate', '0.0001'], ['Female range', '0.5']] as const) {
      await userEvent.clear(screen.getByLabelText(new RegExp(`^${label}`)));
      await userEvent.type(screen.getByLabelText(new RegExp(`^${label}`)), value);
    }
    await userEvent.selectOptions(screen.getByLabelText('Male model'), 'One-step');
    expect(screen.queryByLabelText(/^Male range/)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`/${orgId}/analysis-groups/${groupId}`));
    expect(put).toHaveLength(1);
    expect(put[0]!.mutation).toEqual({ female: { model: 'stepwise', rate: 0.002, rate2: 0.0001, range: 0.5 }, male: { model: 'onestep', rate: 0.003 }, markers });
    expect(put[0]!.pedigree).toEqual(SISTER);
  });

  it("shows the server's reason for refusing the pedigree in the editor, and keeps what was drawn", async () => {
    const analysis = await addAnalysis({ name: 'Loop' });
    await asAdmin(`${base()}/${analysis.id}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Add person' }));
    await userEvent.clear(screen.getByLabelText('Name of person 5'));
    await userEvent.type(screen.getByLabelText('Name of person 5'), 'Grandfather');
    // The father's father is his own grandson: a loop the server refuses.
    await userEvent.selectOptions(screen.getByLabelText('Father of person 1'), 'Missing person');
    await userEvent.selectOptions(screen.getByLabelText('Mother of person 1'), 'Full sister');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await within(pedigree()).findByRole('alert')).toHaveTextContent(/is their own ancestor in the pedigree/);
    expect(screen.getByLabelText('Name of person 5')).toHaveValue('Grandfather');
    expect(screen.getByLabelText('Father of person 1')).toHaveDisplayValue('Missing person');
    const stored = (await t.app.inject({ method: 'GET', url: `/api/analyses/${analysis.id}`, headers: { authorization: `Bearer ${adminToken}` } })).json() as Analysis;
    expect(stored.pedigree).toEqual(SISTER);
  });

  it("shows the server's reason for refusing a model beside that sex's model", async () => {
    const analysis = await addAnalysis({ name: 'Too much mutation' });
    await asAdmin(`${base()}/${analysis.id}`);
    await userEvent.selectOptions(await screen.findByLabelText('Male model'), 'Stepwise');
    for (const [label, value] of [['Male mutation rate', '0.8'], ['Male microvariant rate', '0.5']] as const) {
      await userEvent.clear(screen.getByLabelText(new RegExp(`^${label}`)));
      await userEvent.type(screen.getByLabelText(new RegExp(`^${label}`)), value);
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Male model')).toHaveAccessibleDescription(/The stepwise rates together \(rate 0.8 \+ rate2 0.5\) must be at most 1/));
    expect(screen.getByLabelText('Female model')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText(/^Male mutation rate/)).toHaveValue(0.8);
  });

  it('says before saving when a person has one parent or two persons share a name', async () => {
    const analysis = await addAnalysis({ name: 'Checked' });
    const put = sentBodies('PUT');
    await asAdmin(`${base()}/${analysis.id}`);
    await userEvent.selectOptions(await screen.findByLabelText('Father of person 4'), '— founder —');
    await userEvent.clear(screen.getByLabelText('Name of person 2'));
    await userEvent.type(screen.getByLabelText('Name of person 2'), 'Father');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Another person has this name')).toBeInTheDocument();
    expect(screen.getByText('Give both parents (an untyped one if unknown) or none')).toBeInTheDocument();
    expect(put).toHaveLength(0);
  });

  it('lets a pairwise analysis with a pedigree weigh mutation, sending the models and leaving its pedigree as stored', async () => {
    const parentChild = {
      persons: [{ id: 'Alleged parent', sex: M }, { id: 'Mother', sex: F }, { id: 'Child', sex: M, father: 'Alleged parent', mother: 'Mother' }],
      target: 'Alleged parent',
      alternative: null,
    };
    const analysis = await addAnalysis({ name: 'Parent–child', kind: 'Computational', roles: ['Child', 'Alleged parent'], pedigree: parentChild });
    const put = sentBodies('PUT');
    const view = await asAdmin(`${base()}/${analysis.id}`);
    expect(await screen.findByLabelText('Role 1')).toHaveValue('Child');
    expect(screen.getByRole('img', { name: /Child, child of Alleged parent and Mother/ })).toBeInTheDocument();
    expect(screen.queryByLabelText('Female model')).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText(/Weigh mutation through the pedigree/));
    expect(screen.getByLabelText('Male model')).toHaveValue('stepwise');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(view.current()).toBe(`/${orgId}/analysis-groups/${groupId}`));
    expect(put[0]!.mutation).toEqual({
      female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 },
      male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 },
      markers: [],
    });
    expect('pedigree' in put[0]!).toBe(false);
  });
});
