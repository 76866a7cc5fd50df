import { File as NodeFile } from 'node:buffer';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Me } from '../../../core/schemas/me';
import type { AddImportBody, ImportRowFilter, ProfileImportJob, ProfileImportRow } from '../../../core/schemas/profile-imports';
import { createApiClient } from '../../../src/api/client';
import { ApiContext } from '../../../src/app/api-provider';
import { ShellSessionContext } from '../../../src/app/shell-session';
import { ProfileImport } from '../../../src/profiles/profile-import';
import { ProfileUploadRoute } from '../../../src/profiles/profile-routes';
import { profileTypeByKey } from '../../../src/profiles/profile-types';
import type { ProfileFormOptions } from '../../../src/profiles/profiles-api';

const ORG = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const CASE = '7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const IMPORT = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const GLOBALFILER = '3f1c2a8e-5b7d-4e3f-9a10-2c4d6e8f0a1b';
const FUSION = '4a2d3b9f-6c8e-4f4a-8b21-3d5e7f9a1b2c';
const YFILER = '6b3e4c0a-7d9f-4a5b-9c32-4e6f8a0b2c3d';
const LAB = '5a2b3c4d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
const FILE_NAME = 'genemapper-250.txt';

const marker = (id: string, name: string, kind: 'Autosomal' | 'YStr' = 'Autosomal') => ({ id, name, kind, multiCopy: false });
const D3 = marker('0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c', 'D3S1358');
const VWA = marker('2f8b0d6c-3e4a-4b5c-8d7e-9f1a2b3c4d5e', 'vWA');
const SE33 = marker('8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'SE33');
const PENTA_D = marker('9b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e', 'Penta D');
const DYS19 = marker('ac3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f', 'DYS19', 'YStr');
const FORM_OPTIONS: ProfileFormOptions = {
  chemistries: [
    { id: GLOBALFILER, name: 'GlobalFiler', kind: 'Autosomal', markers: [D3, VWA] },
    { id: FUSION, name: 'PowerPlex Fusion 6C', kind: 'Autosomal', markers: [D3, VWA, SE33, PENTA_D] },
    { id: YFILER, name: 'Yfiler Plus', kind: 'YStr', markers: [DYS19] },
  ],
  sampleSources: [],
  laboratories: [{ id: LAB, name: 'Oslo DNA Lab' }],
};

/** A 250-profile GeneMapper table: rows 3 and 120 refused by the parser. */
const FLAGGED = new Set([3, 120]);
const jobOf = (patch: Partial<ProfileImportJob>): ProfileImportJob => ({
  id: IMPORT,
  fileName: FILE_NAME,
  fileBytes: 48_000,
  format: 'GeneMapper ID-X genotype table',
  state: 'parsing',
  done: 0,
  total: 0,
  caseId: CASE,
  profileCount: 0,
  flaggedCount: 0,
  errors: [],
  warnings: [],
  controls: [],
  markers: [],
  suggestedChemistryId: null,
  chosenCount: 0,
  addedCount: 0,
  message: '',
  problemCount: 0,
  approvalExpiresAt: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...patch,
});
const parsedJob = (patch: Partial<ProfileImportJob> = {}) =>
  jobOf({
    state: 'parsed',
    done: 250,
    total: 250,
    profileCount: 250,
    flaggedCount: FLAGGED.size,
    markers: [
      { markerId: D3.id, name: 'D3S1358', profiles: 250 },
      { markerId: VWA.id, name: 'vWA', profiles: 250 },
      { markerId: SE33.id, name: 'SE33', profiles: 180 },
      { markerId: PENTA_D.id, name: 'Penta D', profiles: 12 },
    ],
    suggestedChemistryId: GLOBALFILER,
    approvalExpiresAt: '2026-11-22T11:00:00.000Z',
    ...patch,
  });
const rowOf = (index: number): ProfileImportRow => ({
  index,
  line: index + 2,
  profileId: `S-${index}`,
  kind: 'Autosomal',
  kit: null,
  sampleType: null,
  markerValues: [
    { markerId: D3.id, marker: 'D3S1358', alleles: ['15', '16'] },
    { markerId: VWA.id, marker: 'vWA', alleles: ['17'] },
  ],
  // Issue 31: one sample read with heights from two runs.
  ...(index === 1 ? { replicates: [{ name: 'run1.fsa', markers: [] }, { name: 'run2.fsa', markers: [] }] } : {}),
  errors: FLAGGED.has(index) ? ['Marker D99S999 is invalid'] : [],
  problems: [],
  warnings: [],
  chosen: false,
  added: false,
});

interface Seen {
  method: string;
  path: string;
  approval: string | null;
  body: unknown;
}

/**
 * The import endpoints of server/http/profile-imports, in memory: `job` is what a read of the
 * import answers (the test moves it on), `rows` the file's profiles, `onAdd` what a confirmation does,
 * `unfinished` the user's unfinished imports of the case (`listFails`: that list answers 500).
 */
class FakeImportServer {
  job = jobOf({});
  unfinished: ProfileImportJob[] = [];
  listFails = false;
  rows: ProfileImportRow[] = Array.from({ length: 250 }, (_, i) => rowOf(i));
  seen: Seen[] = [];
  token = 'approval-1';
  onAdd: (body: AddImportBody) => { status: number; body: unknown } = () => {
    this.job = { ...this.job, state: 'checking', done: 0, total: 247, chosenCount: 247 };
    return { status: 202, body: this.job };
  };

  readonly fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    const body = request.method === 'GET' ? undefined : request.headers.get('content-type')?.includes('json') ? await request.json() : await request.formData().catch(() => undefined);
    this.seen.push({ method: request.method, path, approval: request.headers.get('approval'), body });
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
      new Response(status === 204 ? null : JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
    const withToken = () => json(200, this.job, this.job.state === 'parsed' ? { 'Approval-Token': this.token } : {});
    if (path === '/api/profiles/form-options') return json(200, FORM_OPTIONS);
    if (path === `/api/cases/${CASE}/physical-items`) return json(200, { items: [], count: 0 });
    if (path === `/api/cases/${CASE}/involved-parties`) return json(200, { items: [], count: 0 });
    if (path === '/api/profile-imports' && request.method === 'GET') {
      if (this.listFails) return json(500, { error: 'Internal Server Error' });
      const open = url.searchParams.get('caseId') === CASE && url.searchParams.get('open') === 'true';
      return json(200, { items: open ? this.unfinished : [], count: open ? this.unfinished.length : 0 });
    }
    if (path === '/api/profile-imports' && request.method === 'POST') {
      const form = body as FormData;
      this.job = jobOf({ fileName: (form.get('file') as File).name });
      return json(202, this.job);
    }
    if (path === `/api/profile-imports/${IMPORT}` && request.method === 'GET') return withToken();
    if (path.startsWith('/api/profile-imports/') && request.method === 'DELETE') {
      this.unfinished = this.unfinished.filter((j) => !path.endsWith(j.id));
      return json(204, null);
    }
    if (path === `/api/profile-imports/${IMPORT}/profiles`) {
      const filter = url.searchParams.get('filter') as ImportRowFilter;
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('pageSize'));
      const matching = this.rows.filter((r) => filter === 'all' || (filter === 'flagged' ? r.errors.length > 0 : filter === 'problems' ? r.problems.length > 0 : r.errors.length === 0 && r.problems.length === 0));
      // Issue 31: a row read with heights is weighed against the kit the page is read for.
      const kit = url.searchParams.get('chemistryId');
      const weighed = matching.map((r) => (r.replicates && kit === FUSION ? { ...r, warnings: [`D3S1358 of ${r.profileId}, run run1.fsa: the height 40 of allele 16 is under the analytical threshold of PowerPlex Fusion 6C (50 RFU); kept and flagged`] } : r));
      return json(200, { items: weighed.slice(page * size, (page + 1) * size), count: matching.length });
    }
    if (path === `/api/profile-imports/${IMPORT}/add`) {
      const answer = this.onAdd(body as AddImportBody);
      return json(answer.status, answer.body);
    }
    if (path === `/api/profile-imports/${IMPORT}/cancel`) return json(200, this.job);
    if (path === `/api/profile-imports/${IMPORT}/resume`) {
      this.job = { ...this.job, state: 'adding', done: this.job.addedCount, total: this.job.chosenCount };
      return json(202, this.job);
    }
    return json(404, { error: `No fake for ${request.method} ${path}` });
  };

  /** The imports discarded (DELETE), by id. */
  discarded(): string[] {
    return this.seen.filter((s) => s.method === 'DELETE').map((s) => s.path.split('/').at(-1)!);
  }

  /** The confirmations sent, with their Approval header. */
  adds(): { approval: string | null; body: AddImportBody }[] {
    return this.seen.filter((s) => s.path.endsWith('/add')).map((s) => ({ approval: s.approval, body: s.body as AddImportBody }));
  }
}

const ME: Me = {
  id: '0f0e0d0c-0b0a-4908-8706-050403020100',
  email: 'analyst@locus.test',
  firstName: 'Ana',
  lastName: 'Lyst',
  roleName: 'Analyst',
  isAdmin: false,
  scope: 'Organization',
  organizations: [{ id: ORG, name: 'Oslo Lab' }],
  permissions: { Cases: ['Read'], Profiles: ['Read', 'Add'] },
  licensesAccepted: true,
} as Me;

/** The import screen of Autosomal profiles against the fake server; reads of a running import every 5 ms. */
function renderImport(server: FakeImportServer, screenOf: 'import' | 'route' = 'import', sampleid = 'autosomal') {
  const location = memoryLocation({ path: `/${ORG}/cases/${CASE}/profiles/${sampleid}/upload`, record: true });
  const notify = vi.fn();
  const api = createApiClient({ baseUrl: 'http://locus.test', getAccessToken: () => 'token', onUnauthorized: vi.fn(), notify, fetch: server.fetch });
  const session = { me: ME, signOut: vi.fn(), acceptLicences: vi.fn(async () => undefined) };
  render(
    <Router hook={location.hook}>
      <ApiContext.Provider value={api}>
        <ShellSessionContext.Provider value={session}>
          {screenOf === 'route' ? (
            <ProfileUploadRoute orgId={ORG} caseId={CASE} sampleid={sampleid} title="Profile upload" />
          ) : (
            <ProfileImport orgId={ORG} caseId={CASE} type={profileTypeByKey('autosomal')!} isAdmin={false} pollMs={5} />
          )}
        </ShellSessionContext.Provider>
      </ApiContext.Provider>
    </Router>,
  );
  return { notify, current: () => location.history.at(-1) };
}

const original = { FormData: globalThis.FormData, File: globalThis.File };
const file = () => new NodeFile(['Sample Name\tMarker\tAllele 1\tAllele 2\n'], FILE_NAME, { type: 'text/plain' }) as unknown as File;

beforeAll(async () => {
  // As in tests/component/admin/populations.test.tsx: jsdom's File and FormData are not the ones
  // Node's fetch serializes (the file name is lost), so Node's own stand in, as in a browser.
  const NodeFormData = (await new Response(new URLSearchParams()).formData()).constructor as typeof FormData;
  Object.assign(globalThis, { FormData: NodeFormData, File: NodeFile });
});
afterAll(() => {
  Object.assign(globalThis, original);
});

let server: FakeImportServer;
beforeEach(() => {
  server = new FakeImportServer();
});

/** Waits until the fake has taken upload number `n` (it then answers reads with the new job). */
const uploaded = (n: number) => waitFor(() => expect(server.seen.filter((s) => s.method === 'POST' && s.path === '/api/profile-imports')).toHaveLength(n));

/** The preview's row of a sample, found by its name cell. */
const rowOfName = (grid: HTMLElement, name: string) => within(grid).getByRole('rowheader', { name }).closest('tr')!;

/** Uploads the file and lets the fake finish reading it. */
async function uploadAndRead() {
  await userEvent.upload(await screen.findByLabelText('Profile file'), file());
  await uploaded(1);
  server.job = parsedJob();
  return screen.findByRole('table', { name: `Profiles in ${FILE_NAME}` });
}

describe('profile upload', () => {
  it('answers Not found for a profile type that does not exist', async () => {
    renderImport(server, 'route', 'mitochondrial');
    expect(await screen.findByRole('heading', { name: 'Profile upload' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(/^Not found/);
    expect(screen.getByRole('link', { name: 'Y-STR profiles' })).toHaveAttribute('href', `/${ORG}/cases/${CASE}/profiles/ystr/upload`);
  });

  it('uploads, follows the reading, pages the preview, leaves one out, confirms and follows the add to its end', async () => {
    const view = renderImport(server);
    expect(await screen.findByRole('heading', { name: 'Upload Autosomal profiles' })).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Profile file'), file());
    await uploaded(1);
    const upload = server.seen.find((s) => s.method === 'POST' && s.path === '/api/profile-imports')!.body as FormData;
    expect(upload.get('caseId')).toBe(CASE);
    expect((upload.get('file') as File).name).toBe(FILE_NAME);

    server.job = jobOf({ done: 100, total: 250 });
    expect(await screen.findByText(`Reading ${FILE_NAME}… 100 of 250 profiles stored`)).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('progressbar', { name: 'Profiles stored' })).toHaveAttribute('value', '100');
    expect(view.notify).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();

    server.job = parsedJob();
    const grid = await screen.findByRole('table', { name: `Profiles in ${FILE_NAME}` });
    expect(screen.getByText('250 profiles read: 248 can be added, 2 have errors')).toBeInTheDocument();
    expect(screen.getByText('Profiles 1–100 of 250')).toBeInTheDocument();
    expect(within(grid).getByRole('row', { name: /S-0/ })).toHaveTextContent('D3S1358 15, 16; vWA 17');
    expect(screen.getByLabelText(/^Chemistry/)).toHaveDisplayValue('GlobalFiler');
    // 250 profiles: the first page cannot speak for the sample type of them all.
    expect(screen.getByLabelText(/^Sample Type/)).toHaveDisplayValue('Choose a sample type');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Profiles 101–200 of 250')).toBeInTheDocument();
    const flagged = within(grid).getByRole('checkbox', { name: 'Add S-120' });
    expect(flagged).not.toBeChecked();
    expect(flagged).toBeDisabled();
    expect(within(grid).getByRole('row', { name: /S-120/ })).toHaveTextContent('Marker D99S999 is invalid');
    await userEvent.click(within(grid).getByRole('checkbox', { name: 'Add S-150' }));
    expect(within(grid).getByRole('checkbox', { name: 'Add S-150' })).not.toBeChecked();

    expect(screen.getByRole('button', { name: 'Confirm and add 247 profiles' })).toBeDisabled();
    expect(screen.getByText('Choose a sample type', { selector: 'li' })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Suspect, Known');
    await userEvent.selectOptions(screen.getByLabelText('Source Laboratory'), 'Oslo DNA Lab');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 247 profiles' }));

    expect(await screen.findByText('Checking… 0 of 247 profiles')).toBeInTheDocument();
    expect(server.adds()).toEqual([
      {
        approval: 'approval-1',
        body: { caseId: CASE, chemistryId: GLOBALFILER, sampleType: 'Suspect, Known', sampleSourceId: null, physicalItemId: null, involvedPartyId: null, laboratoryId: LAB, comments: '', exclude: [150] },
      },
    ]);
    server.job = { ...server.job, state: 'adding', done: 0 };
    expect(await screen.findByText('Adding… 0 of 247')).toBeInTheDocument();
    server.job = { ...server.job, done: 200 };
    expect(await screen.findByText('Adding… 200 of 247')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Profiles done' })).toHaveAttribute('value', '200');
    expect(screen.getByRole('button', { name: 'Stop after the current batch' })).toBeInTheDocument();

    server.job = { ...server.job, state: 'added', done: 247, addedCount: 247 };
    expect(await screen.findByText(`Added 247 profiles from ${FILE_NAME} to the case. They wait for review.`)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Profiles waiting for review' }));
    expect(view.current()).toBe(`/${ORG}/profiles/review`);
  }, 20_000);

  it('after a check that refused some profiles, shows them with the server’s message and adds the rest once they are left out', async () => {
    renderImport(server);
    await uploadAndRead();
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Suspect, Known');
    // The first confirmation finds two profiles the sample type refuses; the second, without them, adds the rest.
    server.onAdd = (body) => {
      const left = body.exclude?.length ?? 0;
      if (left > 0) {
        server.job = parsedJob({ state: 'added', chosenCount: 248 - left, addedCount: 248 - left });
        return { status: 202, body: server.job };
      }
      for (const i of [12, 40]) server.rows[i] = { ...server.rows[i]!, chosen: true, problems: ['D3S1358: 3 alleles; Suspect, Known takes at most 2'] };
      server.job = parsedJob({ chosenCount: 248, problemCount: 2, message: '2 of the chosen profiles cannot be added; nothing was added. Leave them out or change the assignment, then confirm again.' });
      return { status: 202, body: { ...server.job, state: 'checking' } };
    };
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 248 profiles' }));

    expect(await screen.findByText(/^2 of the chosen profiles cannot be added; nothing was added/)).toHaveAttribute('role', 'alert');
    expect(await screen.findByText('Profiles 1–2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Not accepted' })).toBeChecked();
    const grid = screen.getByRole('table', { name: `Profiles in ${FILE_NAME}` });
    expect(within(grid).getAllByRole('row')).toHaveLength(3);
    expect(within(grid).getByRole('row', { name: /S-12/ })).toHaveTextContent('Not accepted: D3S1358: 3 alleles; Suspect, Known takes at most 2');

    await userEvent.click(screen.getByRole('button', { name: 'Leave out the profiles on this page' }));
    expect(within(grid).getByRole('checkbox', { name: 'Add S-12' })).not.toBeChecked();
    expect(within(grid).getByRole('checkbox', { name: 'Add S-40' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 246 profiles' }));
    expect(await screen.findByText(`Added 246 profiles from ${FILE_NAME} to the case. They wait for review.`)).toBeInTheDocument();
    expect(server.adds().map((a) => [a.approval, a.body.exclude])).toEqual([
      ['approval-1', []],
      ['approval-1', [12, 40]],
    ]);
  });

  it('joins differently named samples read with heights into one profile as its replicates, and sends the grouping (issue 31)', async () => {
    const runs = (name: string) => ({ replicates: [{ name, markers: [] }] });
    server.rows = server.rows.map((r) => (r.index === 0 ? { ...r, profileId: 'stain80', ...runs('stain80') } : r.index === 2 ? { ...r, profileId: 'stain51', ...runs('stain51') } : r));
    renderImport(server);
    const grid = await uploadAndRead();
    // Only samples read with heights can join; S-5 (no heights) offers no choice.
    expect(within(grid).queryByLabelText('S-5 is a replicate of')).toBeNull();
    await userEvent.selectOptions(within(grid).getByLabelText('stain51 is a replicate of'), 'stain80');
    await userEvent.selectOptions(within(grid).getByLabelText('S-1 is a replicate of'), 'stain51');
    expect(rowOfName(grid, 'stain80')).toHaveTextContent('Added as one profile named stain80, with the runs of S-1, stain51 as its replicates.');
    expect(within(grid).getByLabelText('S-1 is a replicate of')).toHaveDisplayValue('stain80');
    // Kept apart again, then left out: a profile left out is no one's replicate.
    await userEvent.selectOptions(within(grid).getByLabelText('S-1 is a replicate of'), 'none: a profile of its own');
    await userEvent.selectOptions(within(grid).getByLabelText('S-1 is a replicate of'), 'stain80');
    await userEvent.click(within(grid).getByRole('checkbox', { name: 'Add S-1' }));
    expect(within(grid).queryByLabelText('S-1 is a replicate of')).toBeNull();
    expect(rowOfName(grid, 'stain80')).toHaveTextContent('with the runs of stain51 as its replicates');

    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Forensic Mixture');
    // 248 addable, S-1 left out, stain51 added as stain80's replicate.
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 246 profiles' }));
    await waitFor(() => expect(server.adds()).toHaveLength(1));
    expect(server.adds()[0]!.body).toMatchObject({ exclude: [1], groups: [[0, 2]] });
  });

  it('lists the ladders and controls set apart, and the file’s errors and warnings counted right', async () => {
    renderImport(server);
    await userEvent.upload(await screen.findByLabelText('Profile file'), file());
    await uploaded(1);
    server.job = parsedJob({
      controls: [
        { sampleName: 'Ladder_01', line: 2, reason: 'allelic ladder' },
        { sampleName: 'NC_01', line: 40, reason: 'negative control' },
      ],
      errors: [{ row: 17, sample: 'S-15', marker: 'D99S999', message: 'Marker D99S999 is invalid' }],
      warnings: Array.from({ length: 133 }, (_, i) => ({ row: i + 2, message: `Amelogenin written 1/2 read as X/Y (${i})` })),
    });
    const controls = await screen.findByRole('table', { name: 'Allelic ladders and controls, not imported' });
    expect(within(controls).getByRole('row', { name: /Ladder_01/ })).toHaveTextContent('Ladder_012allelic ladder');
    expect(within(controls).getByRole('row', { name: /NC_01/ })).toHaveTextContent('NC_0140negative control');
    expect(screen.getByText('1 error in the file')).toBeInTheDocument();
    expect(screen.getByText('Row 17, S-15, D99S999: Marker D99S999 is invalid')).toBeInTheDocument();
    expect(screen.getByText('133 warnings in the file')).toBeInTheDocument();
    // The runs read with peak heights are named on their profile's row.
    expect(await screen.findByText('With peak heights: 2 replicates (run1.fsa, run2.fsa)')).toBeInTheDocument();
  });

  it('offers no "Confirm and add 0 profiles" when every profile of the file has an error: it says none can be added', async () => {
    server.rows = server.rows.slice(0, 3).map((r) => ({ ...r, errors: ['Amelogenin takes only X or Y, not OL'] }));
    renderImport(server);
    await userEvent.upload(await screen.findByLabelText('Profile file'), file());
    await uploaded(1);
    server.job = parsedJob({ profileCount: 3, flaggedCount: 3, done: 3, total: 3 });
    await screen.findByRole('table', { name: `Profiles in ${FILE_NAME}` });
    expect(screen.getByRole('alert')).toHaveTextContent('None of the 3 profiles in this file can be added: each has an error. Correct the file, then choose it again.');
    expect(screen.queryByRole('button', { name: /Confirm and add/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Add to the case' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Start over' })).toBeEnabled();
  });

  it('says a file of controls only holds no profile to add (not "none of the 0 profiles … each has an error")', async () => {
    server.rows = [];
    renderImport(server);
    await userEvent.upload(await screen.findByLabelText('Profile file'), file());
    await uploaded(1);
    server.job = parsedJob({
      profileCount: 0,
      flaggedCount: 0,
      done: 0,
      total: 0,
      controls: [{ sampleName: 'Ladder_01', line: 2, reason: 'allelic ladder' }],
      errors: [{ row: 0, message: `${FILE_NAME} holds only allelic ladders and controls (1); there is nothing to import` }],
    });
    expect(await screen.findByText('This file holds no profile to add. Correct the file, then choose it again.')).toBeInTheDocument();
    expect(screen.queryByText(/None of the 0 profiles/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Confirm and add/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Start over' })).toBeEnabled();
  });

  it('warns of the file’s markers the chosen kit does not hold, and stops when the kit holds them all', async () => {
    renderImport(server);
    await uploadAndRead();
    const warning = await screen.findByText(/markers are not in GlobalFiler/);
    expect(warning).toHaveTextContent('2 of the file’s 4 markers are not in GlobalFiler: SE33, Penta D — they are kept after the kit’s markers');
    expect(warning).toHaveAttribute('role', 'status');
    // Only the kits of the file's kind are offered.
    expect(screen.queryByRole('option', { name: 'Yfiler Plus' })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/^Chemistry/), 'PowerPlex Fusion 6C');
    await waitFor(() => expect(screen.queryByText(/markers are not in/)).not.toBeInTheDocument());
  });

  it('shows on its row each height under the chosen kit’s analytical threshold, read again when the kit changes; the profile stays chosen (issue 31)', async () => {
    renderImport(server);
    const grid = await uploadAndRead();
    expect(rowOfName(grid, 'S-1')).not.toHaveTextContent(/Warning/);
    await userEvent.selectOptions(screen.getByLabelText(/^Chemistry/), 'PowerPlex Fusion 6C');
    await waitFor(() =>
      expect(rowOfName(grid, 'S-1')).toHaveTextContent('Warning: D3S1358 of S-1, run run1.fsa: the height 40 of allele 16 is under the analytical threshold of PowerPlex Fusion 6C (50 RFU); kept and flagged'),
    );
    expect(within(rowOfName(grid, 'S-1')).getByRole('checkbox', { name: 'Add S-1' })).toBeChecked();
    expect(rowOfName(grid, 'S-2')).not.toHaveTextContent(/Warning/);
    // Reading 250 rows and re-rendering the grid takes seconds on a loaded machine.
  }, 20_000);

  it('stops the add after the current batch and says how many were added', async () => {
    renderImport(server);
    await uploadAndRead();
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Suspect, Known');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 248 profiles' }));
    server.job = { ...server.job, state: 'adding', done: 500, total: 248 };
    await userEvent.click(await screen.findByRole('button', { name: 'Stop after the current batch' }));
    expect(await screen.findByText('Stopping after the current batch…')).toBeInTheDocument();
    expect(server.seen.some((s) => s.method === 'POST' && s.path.endsWith('/cancel'))).toBe(true);
    server.job = { ...server.job, state: 'cancelled', addedCount: 500 };
    expect(await screen.findByText('Stopped: 500 profiles were added (whole batches); the rest were not.')).toBeInTheDocument();
  });

  it('reads the same file again when the approval expired, keeping what was left out', async () => {
    renderImport(server);
    const grid = await uploadAndRead();
    await userEvent.click(within(grid).getByRole('checkbox', { name: 'Add S-7' }));
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Suspect, Known');
    const expired = 'The approval of this import has expired. Parse the file again, then confirm.';
    server.onAdd = () => ({ status: 400, body: { error: expired, details: { approval: 'expired' } } });
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 247 profiles' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(expired);

    server.onAdd = () => {
      server.job = parsedJob({ state: 'added', addedCount: 247 });
      return { status: 202, body: { ...server.job, state: 'checking' } };
    };
    await userEvent.click(screen.getByRole('button', { name: `Read ${FILE_NAME} again` }));
    await uploaded(2);
    server.job = parsedJob();
    server.token = 'approval-2';
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm and add 247 profiles' }));
    expect(await screen.findByText(/Added 247 profiles/)).toBeInTheDocument();
    expect(server.adds().at(-1)).toMatchObject({ approval: 'approval-2', body: { exclude: [7], sampleType: 'Suspect, Known' } });
    // The import whose approval expired was discarded as the file was read again.
    expect(server.discarded()).toEqual([IMPORT]);
  });

  it('discards the import of a file that could not be read when another file is chosen', async () => {
    renderImport(server);
    await userEvent.upload(await screen.findByLabelText('Profile file'), file());
    await uploaded(1);
    server.job = jobOf({ state: 'failed', message: 'The file could not be read: no header row.' });
    expect(await screen.findByText('The file could not be read: no header row. Choose another file.')).toBeInTheDocument();
    await userEvent.upload(screen.getByLabelText('Profile file'), file());
    await uploaded(2);
    await waitFor(() => expect(server.discarded()).toEqual([IMPORT]));
  });
});

describe('profile upload: the user’s unfinished imports of the case', () => {
  const WAITING = 'c4d5e6f7-a8b9-4c0d-8e1f-2a3b4c5d6e7f';
  const interrupted = () =>
    parsedJob({
      state: 'interrupted',
      chosenCount: 1000,
      addedCount: 500,
      done: 500,
      total: 1000,
      message: 'The server stopped while adding the profiles: the batches added so far are in the case. Resume to add the rest, or discard the import.',
    });
  const waiting = () => parsedJob({ id: WAITING, fileName: 'refs-2026-10.xml', createdAt: '2026-11-21T09:30:00.000Z' });
  const list = () => screen.findByRole('list', { name: 'Your unfinished imports in this case' });

  it('lists them above the file input; Continue on an interrupted import, then Resume, follows it to added', async () => {
    server.unfinished = [interrupted(), waiting()];
    server.job = interrupted();
    const view = renderImport(server);
    const items = within(await list()).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^genemapper-250\.txt — interrupted — started Nov 22, 2026/),
      expect.stringMatching(/^refs-2026-10\.xml — waiting for your confirmation — started Nov 2[01], 2026/),
    ]);
    expect(within(items[0]!).getByRole('button', { name: `Resume ${FILE_NAME}` })).toBeEnabled();
    expect(within(items[1]!).queryByRole('button', { name: /^Resume/ })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Profile file')).toBeEnabled();

    await userEvent.click(within(items[0]!).getByRole('button', { name: `Continue ${FILE_NAME}` }));
    expect(await screen.findByText(/^The server stopped while adding the profiles/)).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Your unfinished imports in this case' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    expect(await screen.findByText('Adding… 500 of 1,000')).toBeInTheDocument();
    expect(server.seen.some((s) => s.method === 'POST' && s.path === `/api/profile-imports/${IMPORT}/resume`)).toBe(true);

    server.job = { ...server.job, state: 'added', done: 1000, addedCount: 1000 };
    expect(await screen.findByText(`Added 1,000 profiles from ${FILE_NAME} to the case. They wait for review.`)).toBeInTheDocument();
    expect(view.notify).not.toHaveBeenCalled();
  });

  it('Continue on an import waiting for a confirmation shows its profiles and confirms with the approval of its read', async () => {
    server.unfinished = [parsedJob()];
    server.job = parsedJob();
    renderImport(server);
    await userEvent.click(within(await list()).getByRole('button', { name: `Continue ${FILE_NAME}` }));
    expect(await screen.findByRole('table', { name: `Profiles in ${FILE_NAME}` })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/^Sample Type/), 'Suspect, Known');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and add 248 profiles' }));
    expect(await screen.findByText('Checking… 0 of 247 profiles')).toBeInTheDocument();
    expect(server.adds().map((a) => a.approval)).toEqual(['approval-1']);
  });

  it('Resume from the list adds the rest of an interrupted import at once', async () => {
    server.unfinished = [interrupted()];
    server.job = interrupted();
    renderImport(server);
    await userEvent.click(within(await list()).getByRole('button', { name: `Resume ${FILE_NAME}` }));
    expect(await screen.findByText('Adding… 500 of 1,000')).toBeInTheDocument();
    server.job = { ...server.job, state: 'added', done: 1000, addedCount: 1000 };
    expect(await screen.findByText(`Added 1,000 profiles from ${FILE_NAME} to the case. They wait for review.`)).toBeInTheDocument();
  });

  it('Discard deletes the import and lists them again; a running import offers no Discard', async () => {
    server.unfinished = [waiting(), jobOf({ state: 'adding', done: 250, total: 1000, chosenCount: 1000 })];
    renderImport(server);
    const shown = await list();
    expect(within(shown).getAllByRole('listitem')[1]).toHaveTextContent(`${FILE_NAME} — adding 250 of 1,000 — started`);
    expect(within(shown).queryByRole('button', { name: `Discard ${FILE_NAME}` })).not.toBeInTheDocument();
    await userEvent.click(within(shown).getByRole('button', { name: 'Discard refs-2026-10.xml' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Your unfinished imports in this case' })).getAllByRole('listitem')).toHaveLength(1));
    expect(server.discarded()).toEqual([WAITING]);
    expect(server.seen.filter((s) => s.method === 'GET' && s.path === '/api/profile-imports')).toHaveLength(2);
  });

  it('says quietly when they could not be listed, and a file can still be chosen', async () => {
    server.listFails = true;
    renderImport(server);
    expect(await screen.findByText(/^Your unfinished imports in this case could not be listed\./)).toHaveAttribute('role', 'status');
    await userEvent.upload(screen.getByLabelText('Profile file'), file());
    await uploaded(1);
    server.job = jobOf({ done: 100, total: 250 });
    expect(await screen.findByText(`Reading ${FILE_NAME}… 100 of 250 profiles stored`)).toBeInTheDocument();
  });
});
