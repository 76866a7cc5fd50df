import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Case, InvolvedParty, PhysicalItem } from '../../../core/schemas/cases';
import type { ListResult } from '../../../core/schemas/list';
import { meOf, renderScreen } from '../screen-fixtures';
import { addCase, call, createCaseWorld, type CaseWorld } from './case-fixtures';

// AG Grid's first load in jsdom can take seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

let world: CaseWorld;
let record: Case;
const original = { FormData: globalThis.FormData, File: globalThis.File, Uint8Array: globalThis.Uint8Array };

beforeAll(async () => {
  // As in tests/component/admin/citations.test.tsx: the in-process server runs inside jsdom's
  // globals, whose File and FormData Node's fetch does not serialize (the name is lost) and whose
  // Uint8Array is not the one Buffer extends (PGlite refuses the bytea). Node's own are put back.
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const NodeUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  Object.assign(globalThis, { FormData: NodeFormData, File: NodeFile, Uint8Array: NodeUint8Array });
  world = await createCaseWorld();
  record = await addCase(world, '2026-0200');
}, 60_000);
afterAll(async () => {
  Object.assign(globalThis, original);
  await world.t.close();
});
afterEach(() => vi.restoreAllMocks());

const open = async (path: string) => renderScreen(path, { t: world.t, token: world.tokens.analyst, me: await meOf(world.t, world.tokens.analyst) });
const crumbs = () => within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
const confirmDelete = async () => userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Delete?' })).getByRole('button', { name: 'Delete' }));

describe('involved parties', () => {
  it('adds, renames and deletes an involved party, returning to the tab each time', async () => {
    const tab = `/${world.orgId}/cases/${record.id}`;
    const view = await open(`${tab}/invloved-parties/new/edit`);
    expect(await screen.findByRole('heading', { name: 'New involved party' })).toBeInTheDocument();
    expect(await crumbs().findByText('New')).toHaveAttribute('aria-current', 'page');
    expect(await crumbs().findByRole('link', { name: '2026-0200' })).toHaveAttribute('href', tab);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The title and the role (a required drop-down, spec §5) both say so.
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    await userEvent.type(screen.getByLabelText(/^Title/), 'Suspect A');
    await userEvent.selectOptions(screen.getByLabelText(/^Role/), 'Suspect');
    await userEvent.type(screen.getByLabelText('Description'), 'Seen leaving the building');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(tab));
    expect(await within(await screen.findByRole('grid')).findByText('Suspect A', {}, { timeout: 10_000 })).toBeInTheDocument();
    view.unmount();

    const [party] = (await call<ListResult<InvolvedParty>>(world, 'analyst', 'GET', `/api/cases/${record.id}/involved-parties`)).items;
    const again = await open(`${tab}/invloved-parties/${party!.id}/edit`);
    expect(await crumbs().findByText('Suspect A')).toHaveAttribute('aria-current', 'page');
    const title = await screen.findByLabelText(/^Title/);
    await waitFor(() => expect(title).toHaveValue('Suspect A'));
    await userEvent.clear(title);
    await userEvent.type(title, 'Suspect B');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(again.current()).toBe(tab));
    expect((await call<InvolvedParty>(world, 'analyst', 'GET', `/api/cases/${record.id}/involved-parties/${party!.id}`)).title).toBe('Suspect B');
    again.navigate(`${tab}/invloved-parties/${party!.id}/edit`);

    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Delete involved party Suspect B? This cannot be undone.');
    await confirmDelete();
    await waitFor(() => expect(again.current()).toBe(tab));
    expect((await call<ListResult<InvolvedParty>>(world, 'analyst', 'GET', `/api/cases/${record.id}/involved-parties`)).count).toBe(0);
  });
});

describe('physical items', () => {
  it('adds an item, shows it on the Items tab with its description, and deletes it', async () => {
    const tab = `/${world.orgId}/cases/${record.id}/items`;
    const view = await open(`/${world.orgId}/cases/${record.id}/items/new/edit`);
    await userEvent.type(await screen.findByLabelText(/^Item id/), 'ITEM-01');
    await userEvent.type(screen.getByLabelText('Description'), 'Crowbar, swabbed');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.current()).toBe(tab));
    const grid = await screen.findByRole('grid');
    expect(await within(grid).findByText('ITEM-01', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(grid).getByText('Crowbar, swabbed')).toBeInTheDocument();
    // A row opens the item's form, named in the breadcrumb.
    await userEvent.click(within(grid).getByText('ITEM-01'));
    expect(await screen.findByRole('heading', { name: 'Item ITEM-01' })).toBeInTheDocument();
    expect(await crumbs().findByText('ITEM-01')).toHaveAttribute('aria-current', 'page');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await confirmDelete();
    await waitFor(() => expect(view.current()).toBe(tab));
    expect((await call<ListResult<PhysicalItem>>(world, 'analyst', 'GET', `/api/cases/${record.id}/physical-items`)).count).toBe(0);
  });
});

describe('agency files', () => {
  it('uploads a file to an existing case, lists it with its size and uploader, downloads and deletes it', async () => {
    await open(`/${world.orgId}/cases/${record.id}/edit`);
    const section = within(await screen.findByRole('region', { name: 'Agency files' }));
    expect(await section.findByText('No agency files yet.')).toBeInTheDocument();
    const upload = section.getByRole('button', { name: 'Upload' });
    expect(upload).toBeDisabled();
    const letter = new NodeFile(['Request for analysis, case 2026-0200'], 'request letter.txt', { type: 'text/plain' }) as unknown as File;
    await userEvent.upload(section.getByLabelText('Agency file'), letter);
    await userEvent.click(upload);
    expect(await section.findByRole('status')).toHaveTextContent('Uploaded request letter.txt.');
    const row = section.getByRole('row', { name: /request letter\.txt/ });
    expect(within(row).getByText('36 bytes')).toBeInTheDocument();
    expect(within(row).getByText('Test User')).toBeInTheDocument();

    const saved: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:agency-file');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await userEvent.click(within(row).getByRole('button', { name: 'Download request letter.txt' }));
    await waitFor(() => expect(saved).toEqual(['request letter.txt']));

    await userEvent.click(within(row).getByRole('button', { name: 'Delete request letter.txt' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Delete agency file request letter.txt? This cannot be undone.');
    await confirmDelete();
    expect(await section.findByText('No agency files yet.')).toBeInTheDocument();
  });

  it('shows no agency files while a case is being added', async () => {
    await open(`/${world.orgId}/cases/new/edit`);
    expect(await screen.findByRole('heading', { name: 'New case' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Agency files' })).not.toBeInTheDocument();
  });
});
