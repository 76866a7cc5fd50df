import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { meOf, renderScreen } from '../screen-fixtures';

// These screens draw AG Grid, whose first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

let t: TestApp;
let adminToken: string;
let orgAdminToken: string;
let orgId: string;

const PDF = Buffer.from('%PDF-1.7\n%%EOF\n');
const original = { FormData: globalThis.FormData, File: globalThis.File, Uint8Array: globalThis.Uint8Array };

beforeAll(async () => {
  // The in-process server runs inside jsdom's globals here. jsdom's File and FormData are not the
  // ones Node's fetch serializes (the file name is lost), and jsdom's Uint8Array is not the one
  // Buffer extends (PGlite then refuses the bytea). Node's own are put back, as on a real server;
  // the browser side builds its upload from its own FormData just the same.
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const NodeUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  Object.assign(globalThis, { FormData: NodeFormData, File: NodeFile, Uint8Array: NodeUint8Array });
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const admins = await createAccessGroup(db, { isAdmin: true });
  adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admins.id, organizationIds: [orgId] })).id);
  orgAdminToken = t.verifier.issue((await createUser(db, { accessGroupId: admins.id, organizationIds: [orgId] })).id);
}, 60_000);
afterAll(async () => {
  Object.assign(globalThis, original);
  await t.close();
});
afterEach(() => vi.restoreAllMocks());

const pdfFile = (name: string, bytes = PDF) => new NodeFile([new Uint8Array(bytes)], name, { type: 'application/pdf' }) as unknown as File;
const list = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/citations?sort=title:asc', headers: { authorization: `Bearer ${adminToken}` } })).json() as {
    items: { id: string; title: string; fileName: string | null; version: number }[];
  };

describe('citations', () => {
  it('adds a citation with its file: title Required first, then saved and listed', async () => {
    const view = renderScreen(`/${orgId}/citations/new/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    expect(await screen.findByRole('heading', { name: 'New citation' }, { timeout: 10_000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Title/), 'Butler 2012, Advanced Topics');
    await userEvent.upload(screen.getByLabelText('Attach a file'), pdfFile('Évaluation (2024).pdf'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/citations`));
    // The table's grid loads AG Grid cold; allow it more than the default second.
    expect(await screen.findByText('Butler 2012, Advanced Topics', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect((await list()).items).toEqual([expect.objectContaining({ title: 'Butler 2012, Advanced Topics', fileName: 'Évaluation (2024).pdf' })]);
  });

  it('downloads the file through the API (bearer token) and saves it under its own name', async () => {
    const [citation] = (await list()).items;
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:citation');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const clicks: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download });
    });
    renderScreen(`/${orgId}/citations/${citation!.id}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    expect(await within(screen.getByRole('navigation', { name: 'Breadcrumb' })).findByText('Butler 2012, Advanced Topics')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Download Évaluation (2024).pdf' }));
    expect(await screen.findByText('Downloaded Évaluation (2024).pdf')).toBeInTheDocument();
    expect(clicks).toEqual([{ href: 'blob:citation', download: 'Évaluation (2024).pdf' }]);
    const blob = createObjectURL.mock.calls[0]![0] as Blob;
    expect(Buffer.from(await blob.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('replaces the file and renames in one save', async () => {
    const [citation] = (await list()).items;
    const view = renderScreen(`/${orgId}/citations/${citation!.id}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    const title = await screen.findByDisplayValue('Butler 2012, Advanced Topics');
    await userEvent.clear(title);
    await userEvent.type(title, 'Butler 2012');
    await userEvent.upload(screen.getByLabelText('Replace the file'), pdfFile('butler.pdf'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(`/${orgId}/citations`));
    expect((await list()).items).toEqual([expect.objectContaining({ title: 'Butler 2012', fileName: 'butler.pdf', version: 3 })]);
  });

  it('shows why the server refused a file and changes nothing', async () => {
    const [citation] = (await list()).items;
    renderScreen(`/${orgId}/citations/${citation!.id}/edit`, { t, token: adminToken, me: await meOf(t, adminToken) });
    await userEvent.upload(await screen.findByLabelText('Replace the file'), pdfFile('paper.pdf', Buffer.from('MZ\0\0 not a pdf')));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('paper.pdf is a program, not a document, and cannot be attached');
    expect((await list()).items).toEqual([expect.objectContaining({ fileName: 'butler.pdf', version: 3 })]);
  });

  it('is closed to an administrator with organization scope (spec 6)', async () => {
    renderScreen(`/${orgId}/citations`, { t, token: orgAdminToken, me: await meOf(t, orgAdminToken) });
    expect(await screen.findByText('You do not have permission to open this page.')).toBeInTheDocument();
    expect(screen.queryByText('Butler 2012')).not.toBeInTheDocument();
  });
});
