import { readFileSync } from 'node:fs';
import { File as NodeFile } from 'node:buffer';
import path from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../core/schemas/profiles';
import { APPROVAL_TTL_SECONDS } from '../../../server/imports/approval-token';
import { addCase, call, createProfileWorld, openAs, type ProfileWorld } from './profile-fixtures';

vi.setConfig({ testTimeout: 30_000 });

const CMF_NAME = 'Codis-Single-Profile.xml';
const cmf = () => new NodeFile([readFileSync(path.resolve(import.meta.dirname, '../../../../shared/data/formats/cmf', CMF_NAME))], CMF_NAME, { type: 'application/xml' }) as unknown as File;
const clock = { current: new Date('2026-11-22T10:00:00Z'), now: () => clock.current };
const original = { FormData: globalThis.FormData, File: globalThis.File, Uint8Array: globalThis.Uint8Array };

let w: ProfileWorld;

beforeAll(async () => {
  // As in tests/component/admin/populations.test.tsx: jsdom's File and FormData are not the ones
  // Node's fetch serializes (the file name is lost), so Node's own stand in, as in a browser.
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  const NodeUint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;
  Object.assign(globalThis, { FormData: NodeFormData, File: NodeFile, Uint8Array: NodeUint8Array });
  w = await createProfileWorld({ clock });
}, 60_000);
afterAll(async () => {
  Object.assign(globalThis, original);
  await w.t.close();
});

const pendingOfCase = async () => (await call<{ items: Profile[] }>(w, 'admin', 'GET', `/api/cases/${w.caseId}/profiles?status=pending`)).items;

describe('profile upload', () => {
  it('answers Not found for a profile type that does not exist', async () => {
    await openAs(w, 'analyst', `/${w.orgId}/cases/${w.caseId}/profiles/mitochondrial/upload`);
    expect(await screen.findByRole('heading', { name: 'Profile upload' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Not found/);
    expect(screen.getByRole('link', { name: 'Y-STR profiles' })).toHaveAttribute('href', `/${w.orgId}/cases/${w.caseId}/profiles/ystr/upload`);
  });

  it('previews a CMF file, saves nothing until Confirm, then adds the chosen profile as pending for Review', async () => {
    const view = await openAs(w, 'analyst', `/${w.orgId}/cases/${w.caseId}/profiles/autosomal/upload`);
    expect(await screen.findByRole('heading', { name: 'Upload Autosomal profiles' })).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Profile file'), cmf());

    const grid = await screen.findByRole('table', { name: `Profiles in ${CMF_NAME}` }, { timeout: 5000 });
    const row = within(grid).getByRole('row', { name: /ABCD1234NL#01/ });
    expect(within(row).getByText(/D16S539 10, 11/)).toBeInTheDocument();
    const include = within(row).getByRole('checkbox', { name: 'Add ABCD1234NL#01' });
    expect(include).toBeChecked();
    // What the file says is filled in: the kit holding its markers and its specimen category.
    expect(screen.getByLabelText(/^Chemistry/)).toHaveDisplayValue('GlobalFiler');
    expect(screen.getByLabelText(/^Sample Type/)).toHaveDisplayValue('Forensic, Unknown');
    expect(await pendingOfCase()).toEqual([]);

    const confirm = screen.getByRole('button', { name: 'Confirm and add 1 profile' });
    expect(confirm).toBeEnabled();
    await userEvent.click(include);
    expect(screen.getByRole('button', { name: 'Confirm and add 0 profiles' })).toBeDisabled();
    expect(screen.getByText('Choose at least one profile')).toBeInTheDocument();
    await userEvent.click(include);
    await userEvent.selectOptions(screen.getByLabelText('Source Laboratory'), 'Oslo DNA Lab');

    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 1 profile' }));
    expect(await screen.findByText(/Added 1 profile from Codis-Single-Profile.xml to the case/)).toBeInTheDocument();
    const [added] = await pendingOfCase();
    expect(added).toEqual(expect.objectContaining({ profileId: 'ABCD1234NL#01', chemistryName: 'GlobalFiler', laboratoryName: 'Oslo DNA Lab', source: `Imported from ${CMF_NAME}` }));

    await userEvent.click(screen.getByRole('link', { name: 'Profiles waiting for review' }));
    expect(view.current()).toBe(`/${w.orgId}/profiles/review`);
    expect(await screen.findByText('ABCD1234NL#01', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('offers to read the same file again when the approval expired before Confirm', async () => {
    const caseId = await addCase(w, '2026-0101');
    await openAs(w, 'analyst', `/${w.orgId}/cases/${caseId}/profiles/autosomal/upload`);
    await userEvent.upload(await screen.findByLabelText('Profile file'), cmf());
    await screen.findByRole('table', { name: `Profiles in ${CMF_NAME}` }, { timeout: 5000 });
    clock.current = new Date(clock.current.getTime() + (APPROVAL_TTL_SECONDS + 60) * 1000);

    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 1 profile' }));
    expect(await screen.findByText(/The approval of this import has expired/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: `Read ${CMF_NAME} again` }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm and add 1 profile' }));
    expect(await screen.findByText(/Added 1 profile/)).toBeInTheDocument();
  });
});
