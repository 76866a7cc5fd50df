import { readFileSync } from 'node:fs';
import { File as NodeFile } from 'node:buffer';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { markers } from '../../../server/db/schema';
import { SEED_MARKERS } from '../../../server/db/seed/reference/markers';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

const shared = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data');

// AG Grid's first load and the FBI table's preview can take seconds in jsdom on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

/** A picked file (Node's File: see beforeAll). */
const fileOf = (name: string, content: Buffer | string) => new NodeFile([content], name, { type: 'text/csv' }) as unknown as File;
const fbi2015 = () => fileOf('fbi2015.csv', readFileSync(path.join(shared, 'frequencies/fbi2015.csv')));
const fbi2015N = () => fileOf('fbi2015-n.csv', readFileSync(path.join(shared, 'frequencies/fbi2015-n.csv')));
const withErrors = () => fileOf('with-errors.csv', 'marker,allele,frequency\nD3S1358,15,1\nD99S999,12,1\n');

let t: TestApp;
let adminToken: string;
let analystToken: string;
let orgId: string;
const GUID = /^\/[^/]+\/populations\/([0-9a-f-]{36})\/(upload|edit)/;
const original = { FormData: globalThis.FormData, File: globalThis.File, Uint8Array: globalThis.Uint8Array };

beforeAll(async () => {
  // As in citations.test.tsx: the in-process server runs inside jsdom's globals, and jsdom's File
  // and FormData are not the ones Node's fetch serializes (the file name is lost as "blob"); Node's
  // own are put back, as on a real server. The browser builds its upload from its own FormData alike.
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const NodeUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  Object.assign(globalThis, { FormData: NodeFormData, File: NodeFile, Uint8Array: NodeUint8Array });
  t = await createTestApp();
  const db = t.database.db;
  await db.insert(markers).values(SEED_MARKERS.map((m) => ({ name: m.name, kind: m.kind, aliases: [...m.aliases], multiCopy: m.multiCopy ?? false })));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  await createOrganization(db, 'Bergen Lab');
  const admin = await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id, organizationIds: [orgId] });
  const analyst = await createUser(db, {
    accessGroupId: (await createAccessGroup(db, { grants: { Populations: ['Read', 'Add', 'Edit'] } })).id,
    organizationIds: [orgId],
  });
  adminToken = t.verifier.issue(admin.id);
  analystToken = t.verifier.issue(analyst.id);
}, 60_000);
/** A population of the analyst's organization, made through the API. */
async function createPopulation(name: string): Promise<{ id: string }> {
  const headers = { authorization: `Bearer ${analystToken}` };
  const res = await t.app.inject({ method: 'POST', url: '/api/populations', headers, payload: { name, kind: 'Autosomal', organizationIds: [orgId] } });
  return res.json() as { id: string };
}

afterAll(async () => {
  Object.assign(globalThis, original);
  await t.close();
});

describe('populations', () => {
  it('creates a population, uploads FBI 2015 Caucasian, previews and charts it, saves and shows the summary', async () => {
    const me = await meOf(t, adminToken);
    const view = renderScreen(`/${orgId}/populations/new/edit`, { t, token: adminToken, me });
    expect(await screen.findByRole('heading', { name: 'New population' })).toBeInTheDocument();
    // Scope All: the organizations are offered, the one in the address already chosen.
    expect(await screen.findByRole('checkbox', { name: 'Oslo Lab' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Bergen Lab' })).not.toBeChecked();
    await userEvent.type(screen.getByLabelText(/^Name/), 'FBI Caucasian');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    // A new population goes straight on to Upload Statistics.
    await waitFor(() => expect(view.current()).toMatch(GUID));
    const id = GUID.exec(view.current()!)![1]!;
    expect(view.current()).toBe(`/${orgId}/populations/${id}/upload`);
    expect(await screen.findByRole('heading', { name: 'Upload statistics: FBI Caucasian' })).toBeInTheDocument();
    // Upload Statistics under the population, named in the breadcrumb.
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await within(crumbs).findByRole('link', { name: 'FBI Caucasian' })).toHaveAttribute('href', `/${orgId}/populations/${id}/edit`);
    expect(within(crumbs).getByText('Upload Statistics')).toHaveAttribute('aria-current', 'page');
    const save = screen.getByRole('button', { name: 'Save statistics' });
    expect(save).toBeDisabled();

    await userEvent.upload(screen.getByLabelText('Statistics file'), fbi2015());
    // The file holds twelve populations: nothing is guessed, the user picks one.
    expect(await screen.findByText('fbi2015.csv holds 12 populations: choose the one to import under Population in the file.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Population in the file'), 'Caucasian');

    expect(await screen.findByText('Long marker/allele/frequency table', {}, { timeout: 5000 })).toBeInTheDocument();
    const markerTable = screen.getByRole('table', { name: 'Markers in fbi2015.csv' });
    const d3 = within(markerTable).getByRole('row', { name: /D3S1358/ });
    // Caucasian D3S1358 in fbi2015.csv: alleles 13–19, frequencies summing to 1.
    expect(within(d3).getAllByRole('cell').map((c) => c.textContent)).toEqual(['n/a', '7', '1.000']);
    expect(within(markerTable).getAllByRole('row')).toHaveLength(24);
    // The chart's text alternative: a summary and a table of the values.
    expect(screen.getByRole('figure', { name: 'D3S1358: 7 alleles; most frequent 15 (0.2475)' })).toBeInTheDocument();
    const values = screen.getByRole('table', { name: 'Allele frequencies of D3S1358' });
    expect(within(values).getByRole('row', { name: '16 0.2327' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    expect(save).toBeEnabled();
    await userEvent.click(save);
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations/${id}/edit?statistics=saved`));
    // The population is read again after the save: its page shows "Loading…" until it is there.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Statistics saved from fbi2015.csv, Caucasian (Long marker/allele/frequency table).'));
    const summary = await screen.findByRole('region', { name: 'Statistics' });
    expect(within(summary).getByText('Markers').nextElementSibling).toHaveTextContent('23');
    expect(within(summary).getByRole('link', { name: 'Upload statistics' })).toHaveAttribute('href', `/${orgId}/populations/${id}/upload`);
    expect(within(summary).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    // The breadcrumb names the population.
    expect(await within(screen.getByRole('navigation', { name: 'Breadcrumb' })).findByText('FBI Caucasian')).toHaveAttribute('aria-current', 'page');
    // Statistics fix the kind; the rest stays editable.
    expect(screen.getByLabelText(/^Kind/)).toBeDisabled();
    await userEvent.clear(screen.getByLabelText(/^Name/));
    await userEvent.type(screen.getByLabelText(/^Name/), 'FBI 2015 Caucasian');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations`));
    expect(await screen.findByText('FBI 2015 Caucasian')).toBeInTheDocument();
  });

  it('downloads the statistics under the name the server gives', async () => {
    const me = await meOf(t, adminToken);
    const list = (await t.app.inject({ method: 'GET', url: '/api/populations?search=FBI', headers: { authorization: `Bearer ${adminToken}` } })).json();
    const blobs: Blob[] = [];
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:population';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    renderScreen(`/${orgId}/populations/${list.items[0].id}/edit`, { t, token: adminToken, me });
    await userEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(saved).toEqual([{ name: 'FBI 2015 Caucasian.csv', href: 'blob:population' }]));
    expect((await blobs[0]!.text()).split('\r\n')[0]).toBe('marker,allele,frequency');
    vi.restoreAllMocks();
  });

  it('takes the sample sizes from a second file, shows N per marker and saves it (issue 13)', async () => {
    const created = await createPopulation('FBI Caucasian with N');
    const me = await meOf(t, analystToken);
    const view = renderScreen(`/${orgId}/populations/${created.id}/upload`, { t, token: analystToken, me });
    const sizes = await screen.findByLabelText('Sample sizes (N per marker), if the table ships them apart');
    // Chosen first, it waits for the statistics file.
    await userEvent.upload(sizes, fbi2015N());
    expect(screen.getByText('Chosen: fbi2015-n.csv')).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Statistics file'), fbi2015());
    await userEvent.selectOptions(await screen.findByLabelText('Population in the file'), 'Caucasian');
    const markerTable = await screen.findByRole('table', { name: 'Markers in fbi2015.csv' }, { timeout: 5000 });
    // fbi2015-n.csv: Caucasian D3S1358, 404 alleles typed → N = 202.
    await waitFor(() => expect(within(within(markerTable).getByRole('row', { name: /D3S1358/ })).getAllByRole('cell')[0]).toHaveTextContent('202'));

    // Removing it previews again without N.
    await userEvent.click(screen.getByRole('button', { name: 'Remove fbi2015-n.csv' }));
    await waitFor(() =>
      expect(within(within(screen.getByRole('table', { name: 'Markers in fbi2015.csv' })).getByRole('row', { name: /D3S1358/ })).getAllByRole('cell')[0]).toHaveTextContent('n/a'),
    );
    await userEvent.upload(sizes, fbi2015N());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save statistics' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Save statistics' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations/${created.id}/edit?statistics=saved`));
    const summary = await screen.findByRole('region', { name: 'Statistics' });
    expect(within(summary).getByText('N').nextElementSibling).toHaveTextContent('200–202');
  });

  it('saves N from the N file chosen after the statistics file, and asks which population to read instead of calling the file wrong (issue 30)', async () => {
    const created = await createPopulation('FBI Caucasian, N chosen second');
    const me = await meOf(t, analystToken);
    const view = renderScreen(`/${orgId}/populations/${created.id}/upload`, { t, token: analystToken, me });
    await userEvent.upload(await screen.findByLabelText('Statistics file'), fbi2015());
    await screen.findByLabelText('Population in the file');
    // A valid file of twelve populations is no error: the screen asks for the choice.
    expect(screen.queryByText(/correct the file/)).toBeNull();
    expect(screen.getByText('fbi2015.csv holds 12 populations: choose the one to import under Population in the file.')).toBeInTheDocument();
    expect(screen.getByText('Saving is possible once a population is chosen.')).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Sample sizes (N per marker), if the table ships them apart'), fbi2015N());
    await userEvent.selectOptions(await screen.findByLabelText('Population in the file'), 'Caucasian');
    const markerTable = await screen.findByRole('table', { name: 'Markers in fbi2015.csv' }, { timeout: 5000 });
    await waitFor(() => expect(within(within(markerTable).getByRole('row', { name: /D3S1358/ })).getAllByRole('cell')[0]).toHaveTextContent('202'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save statistics' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Save statistics' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations/${created.id}/edit?statistics=saved`), { timeout: 10_000 });
    const stored = (await t.app.inject({ method: 'GET', url: `/api/populations/${created.id}/statistics`, headers: { authorization: `Bearer ${adminToken}` } })).json();
    // Every one of the 23 markers has its N: none is left "n/a".
    expect(stored.markers).toHaveLength(23);
    expect(stored.markers.filter((m: { sampleSize: number | null }) => m.sampleSize === null).map((m: { marker: string }) => m.marker)).toEqual([]);
    expect(stored.markers.find((m: { marker: string }) => m.marker === 'D3S1358').sampleSize).toBe(202);
  });

  it('lists each row error and keeps Save statistics disabled; another file can still be chosen', async () => {
    const created = await createPopulation('Errors');
    const me = await meOf(t, analystToken);
    renderScreen(`/${orgId}/populations/${created.id}/upload`, { t, token: analystToken, me });
    await userEvent.upload(await screen.findByLabelText('Statistics file'), withErrors());
    const errors = await screen.findByRole('alert');
    expect(errors).toHaveTextContent('1 error: correct the file and choose it again');
    expect(within(errors).getByRole('listitem')).toHaveTextContent('Row 3, D99S999: Marker D99S999 is invalid');
    expect(screen.getByRole('button', { name: 'Save statistics' })).toBeDisabled();
    expect(screen.getByText('Saving is possible once the file has no errors.')).toBeInTheDocument();

    await userEvent.upload(screen.getByLabelText('Statistics file'), fileOf('fixed.csv', 'marker,allele,frequency\nD3S1358,15,1\n'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save statistics' })).toBeEnabled());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('cancels an upload back to the population without saving anything', async () => {
    const created = await createPopulation('Cancelled');
    const me = await meOf(t, analystToken);
    const view = renderScreen(`/${orgId}/populations/${created.id}/upload`, { t, token: analystToken, me });
    await userEvent.upload(await screen.findByLabelText('Statistics file'), fileOf('ok.csv', 'marker,allele,frequency\nTH01,9.3,1\n'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save statistics' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations/${created.id}/edit`));
    expect(await screen.findByText('No statistics uploaded yet.')).toBeInTheDocument();
  });

  it('shows an organization-scope user the table without the Organizations column, and no organization choice', async () => {
    const me = await meOf(t, analystToken);
    const view = renderScreen(`/${orgId}/populations`, { t, token: analystToken, me });
    expect(await screen.findByText('FBI 2015 Caucasian')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Date Created' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Organizations' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Add population' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations/new/edit`));
    await screen.findByRole('heading', { name: 'New population' });
    expect(screen.queryByRole('group', { name: 'Organizations' })).not.toBeInTheDocument();
    // Shared with the organization the user works in, without asking.
    await userEvent.type(screen.getByLabelText(/^Name/), 'Oslo analysts');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toMatch(/\/upload$/));
    const list = (await t.app.inject({ method: 'GET', url: '/api/populations?search=Oslo analysts', headers: { authorization: `Bearer ${adminToken}` } })).json();
    expect(list.items[0].organizations).toEqual([{ id: orgId, name: 'Oslo Lab' }]);
  });

  it('lets an administrator with scope All change whom a population is shared with', async () => {
    const me = await meOf(t, adminToken);
    const created = await createPopulation('Shared later');
    const view = renderScreen(`/${orgId}/populations/${created.id}/edit`, { t, token: adminToken, me });
    const bergen = await screen.findByRole('checkbox', { name: 'Bergen Lab' });
    expect(screen.getByRole('checkbox', { name: 'Oslo Lab' })).toBeChecked();
    await userEvent.click(bergen);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/populations`));
    const saved = (await t.app.inject({ method: 'GET', url: `/api/populations/${created.id}`, headers: { authorization: `Bearer ${adminToken}` } })).json();
    expect(saved.organizations.map((o: { name: string }) => o.name)).toEqual(['Bergen Lab', 'Oslo Lab']);
  });

  it('shows an administrator with scope All the Organizations column', async () => {
    const me = await meOf(t, adminToken);
    renderScreen(`/${orgId}/populations`, { t, token: adminToken, me });
    expect(await screen.findByRole('columnheader', { name: 'Organizations' })).toBeInTheDocument();
    expect(await screen.findAllByText('Oslo Lab')).not.toHaveLength(0);
  });
});
