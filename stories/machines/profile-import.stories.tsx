/**
 * Every state of the profile import a reviewer can reach, drawn by the real screen (ImportPanel)
 * from a resolved snapshot (no network). "Interactive" runs the machine with fake calls over a
 * 3,000-profile file read and added in steps: a file whose name holds "broken" cannot be read,
 * "problems" has two profiles refused by the first check, "expired" has its approval expire on the
 * first confirmation; an import interrupted half-way is listed as unfinished, to continue, resume
 * or discard.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise, type StateValue } from 'xstate';
import type { ProfileImportJob, ProfileImportRow } from '../../core/schemas/profile-imports';
import {
  APPROVAL_EXPIRED_MESSAGE,
  IMPORT_PAGE_SIZE,
  ImportCallError,
  initialImportContext,
  profileImportMachine,
  type JobView,
  type ProfileImportContext,
} from '../../machines/profileImport.machine';
import type { ChosenFile } from '../../machines/populationUpload.machine';
import { ImportPanel } from '../../src/profiles/profile-import';
import { profileTypeByKey } from '../../src/profiles/profile-types';
import type { ProfileFormData } from '../../src/profiles/use-profile-form-data';
import '../../src/profiles/profiles.css';

const ORG = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const CASE = '7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const GLOBALFILER = '3f1c2a8e-5b7d-4e3f-9a10-2c4d6e8f0a1b';
const AUTOSOMAL = profileTypeByKey('autosomal')!;
const file: ChosenFile = new File(['Sample Name\tMarker\tAllele 1\tAllele 2\n'], 'GF_refs_2026-11.txt');

const marker = (id: string, name: string, kind: 'Autosomal' | 'YStr' = 'Autosomal') => ({ id, name, kind, multiCopy: false });
const D3 = marker('0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c', 'D3S1358');
const VWA = marker('2f8b0d6c-3e4a-4b5c-8d7e-9f1a2b3c4d5e', 'vWA');
const TH01 = marker('1e7a9c5b-2d3f-4a4b-9c6d-8e0f1a2b3c4d', 'TH01');
const SE33 = marker('8a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', 'SE33');
const PENTA_D = marker('9b2c3d4e-5f6a-4b7c-9d8e-0f1a2b3c4d5e', 'Penta D');
const formData: ProfileFormData = {
  options: {
    chemistries: [
      { id: GLOBALFILER, name: 'GlobalFiler', kind: 'Autosomal', markers: [D3, VWA, TH01] },
      { id: '4a2d3b9f-6c8e-4f4a-8b21-3d5e7f9a1b2c', name: 'PowerPlex Fusion 6C', kind: 'Autosomal', markers: [D3, VWA, TH01, SE33, PENTA_D] },
      { id: '6b3e4c0a-7d9f-4a5b-9c32-4e6f8a0b2c3d', name: 'Yfiler Plus', kind: 'YStr', markers: [marker('ac3d4e5f-6a7b-4c8d-8e9f-1a2b3c4d5e6f', 'DYS19', 'YStr')] },
    ],
    sampleSources: [{ id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', name: 'Buccal swab' }],
    laboratories: [{ id: '5a2b3c4d-6e7f-4a8b-9c0d-1e2f3a4b5c6d', name: 'Oslo DNA Lab' }],
  },
  items: { options: [{ value: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f', label: 'ITEM-01 (Jacket)' }] },
  parties: { options: [{ value: 'd2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a', label: 'Suspect 1 (Suspect, John Smith)' }] },
};
const loaded = { status: 'loaded' as const, value: formData, reload: () => undefined };

/** A reference database export of 100,000 profiles, 133 refused by the parser. */
const job = (patch: Partial<ProfileImportJob> = {}): ProfileImportJob => ({
  id: '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  fileName: file.name,
  fileBytes: 71_000_000,
  format: 'GeneMapper ID-X genotype table',
  state: 'parsed',
  done: 100_000,
  total: 100_000,
  caseId: CASE,
  profileCount: 100_000,
  flaggedCount: 133,
  errors: [{ row: 40_212, sample: 'REF-40210', marker: 'D99S999', message: 'Marker D99S999 is invalid' }],
  warnings: [
    { row: null, message: 'Amelogenin written 1/2 was read as X/Y' },
    { row: 88, sample: 'REF-00086', marker: 'vWA', message: 'vWA: OL kept as a lab marking' },
  ],
  controls: [
    { sampleName: 'Ladder_01', line: 2, reason: 'allelic ladder' },
    { sampleName: 'PC_01', line: 3, reason: 'positive control' },
    { sampleName: 'Reagent blank', line: 100_004, reason: 'negative control' },
  ],
  markers: [
    { markerId: D3.id, name: 'D3S1358', profiles: 100_000 },
    { markerId: VWA.id, name: 'vWA', profiles: 100_000 },
    { markerId: TH01.id, name: 'TH01', profiles: 99_870 },
    { markerId: SE33.id, name: 'SE33', profiles: 12_044 },
    { markerId: PENTA_D.id, name: 'Penta D', profiles: 310 },
  ],
  suggestedChemistryId: GLOBALFILER,
  chosenCount: 0,
  addedCount: 0,
  message: '',
  problemCount: 0,
  approvalExpiresAt: '2026-11-22T11:00:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:02:00.000Z',
  ...patch,
});

const row = (index: number, patch: Partial<ProfileImportRow> = {}): ProfileImportRow => ({
  index,
  line: index + 4,
  profileId: `REF-${String(index).padStart(5, '0')}`,
  kind: 'Autosomal',
  kit: 'GlobalFiler',
  sampleType: null,
  markerValues: [
    { markerId: D3.id, marker: 'D3S1358', alleles: ['15', String(16 + (index % 3))] },
    { markerId: VWA.id, marker: 'vWA', alleles: ['17', '18'] },
    { markerId: TH01.id, marker: 'TH01', alleles: ['9.3'] },
  ],
  errors: [],
  problems: [],
  warnings: [],
  chosen: false,
  added: false,
  ...patch,
});
const pageOf = (page: number) =>
  Array.from({ length: IMPORT_PAGE_SIZE }, (_, i) => {
    const index = page * IMPORT_PAGE_SIZE + i;
    return row(index, index % 57 === 3 ? { errors: ['Marker D99S999 is invalid', 'vWA has 5 alleles; at most 4'] } : {});
  });

const assignment = { ...initialImportContext(CASE).assignment, chemistryId: GLOBALFILER, sampleType: 'Convicted Offender' as const };
const parsed: Partial<ProfileImportContext> = { file, job: job(), token: 'approval-token', rows: pageOf(0), rowCount: 100_000, assignment };
const problems: Partial<ProfileImportContext> = {
  ...parsed,
  job: job({ problemCount: 2, chosenCount: 99_867, message: '2 of the chosen profiles cannot be added; nothing was added. Leave them out or change the assignment, then confirm again.' }),
  filter: 'problems',
  rows: [row(512, { chosen: true, problems: ['D3S1358 has 3 alleles; a Convicted Offender profile takes at most 2'] }), row(7_301, { chosen: true, problems: ['No typed marker of GlobalFiler'] })],
  rowCount: 2,
};
const interruptedJob = job({
  state: 'interrupted',
  chosenCount: 3_000,
  addedCount: 1_500,
  message: 'The server stopped while adding the profiles: the batches added so far are in the case. Resume to add the rest, or discard the import.',
});
/** The user's unfinished imports of the case, newest first: one of each state the list can show. */
const unfinished: ProfileImportJob[] = [
  job({ id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', fileName: 'GF_refs_2026-11-b.txt', state: 'parsing', done: 42_000, total: 100_000, createdAt: '2026-11-22T10:40:00.000Z' }),
  job({ id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e', fileName: 'GF_refs_2026-11.txt', createdAt: '2026-11-22T10:00:00.000Z' }),
  job({ id: 'c3d4e5f6-a7b8-4c9d-8e1f-2a3b4c5d6e7f', fileName: 'Codis-Export-Q3.xml', state: 'checking', done: 0, total: 2_400, chosenCount: 2_400, createdAt: '2026-11-21T16:12:00.000Z' }),
  job({ id: 'd4e5f6a7-b8c9-4d0e-9f2a-3b4c5d6e7f8a', fileName: 'Staff_elimination.csv', state: 'adding', done: 1_000, total: 3_000, chosenCount: 3_000, createdAt: '2026-11-21T14:03:00.000Z' }),
  { ...interruptedJob, id: 'e5f6a7b8-c9d0-4e1f-8a3b-4c5d6e7f8a9b', fileName: 'Offenders_batch_12.txt', createdAt: '2026-11-20T09:15:00.000Z' },
];
const running = (state: 'parsing' | 'checking' | 'adding', done: number, total: number) => ({ ...parsed, job: job({ state, done, total, chosenCount: state === 'parsing' ? 0 : total }) });

/** The import screen in one state of the machine; events go nowhere (see Interactive). */
function ImportState({ value, context }: { value: StateValue; context: Partial<ProfileImportContext> }) {
  const snapshot = profileImportMachine.resolveState({ value, context: { ...initialImportContext(CASE), ...context } });
  return (
    <div style={{ margin: '1rem' }}>
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      <ImportPanel orgId={ORG} caseId={CASE} type={AUTOSOMAL} formData={loaded} snapshot={snapshot} send={() => undefined} />
    </div>
  );
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fake import server: a 3,000-profile file read 750 profiles a read, added 500 a read. */
function fakeServer() {
  let current = job({ state: 'parsing', profileCount: 3_000, flaggedCount: 4, done: 0, total: 0, errors: [{ row: 757, sample: 'REF-00753', marker: 'D99S999', message: 'Marker D99S999 is invalid' }] });
  let stop = false;
  let confirmations = 0;
  // An import of last week, interrupted half-way: listed until it is taken up or discarded.
  let listed: ProfileImportJob[] = [{ ...interruptedJob, id: 'f6a7b8c9-d0e1-4f2a-9b4c-5d6e7f8a9b0c', fileName: 'Offenders_batch_12.txt', profileCount: 3_000, flaggedCount: 4, done: 1_500, total: 3_000 }];
  /** A listed import named by a call becomes the one the fake works on. */
  const take = (importId: string) => {
    const found = listed.find((j) => j.id === importId);
    if (found) current = found;
    listed = listed.filter((j) => j !== found);
  };
  const rows = Array.from({ length: 3_000 }, (_, i) => row(i, i % 750 === 3 ? { errors: ['Marker D99S999 is invalid'] } : {}));
  const view = (): JobView => ({ job: current, token: current.state === 'parsed' ? 'approval-token' : null });
  const step = () => {
    const done = current.done + (current.state === 'parsing' ? 750 : 500);
    if (current.state === 'parsing') current = done >= 3_000 ? { ...current, state: 'parsed', done: 3_000, total: 3_000 } : { ...current, done, total: 3_000 };
    else if (current.state === 'checking') {
      const refused = current.fileName.includes('problems') && confirmations === 1;
      for (const i of refused ? [12, 1_204] : []) rows[i] = { ...rows[i]!, problems: ['D3S1358 has 3 alleles; a Convicted Offender profile takes at most 2'] };
      current = refused
        ? { ...current, state: 'parsed', problemCount: 2, message: '2 of the chosen profiles cannot be added; nothing was added. Leave them out or change the assignment, then confirm again.' }
        : { ...current, state: 'adding', done: 0 };
    } else if (current.state === 'adding') {
      const added = Math.min(current.total, done);
      current = { ...current, done: added, addedCount: added, state: added === current.total ? 'added' : stop ? 'cancelled' : 'adding' };
    }
  };
  return profileImportMachine.provide({
    actors: {
      uploadFile: fromPromise(async ({ input }) => {
        await wait(400);
        if (input.file.name.includes('broken')) current = { ...current, fileName: input.file.name, state: 'failed', message: 'The file could not be read: no header row (Sample Name, Marker, Allele 1 …)' };
        else current = { ...current, fileName: input.file.name, state: 'parsing', done: 0, total: 0 };
        return view();
      }),
      readJob: fromPromise(async ({ input }) => {
        take(input.importId);
        step();
        return view();
      }),
      readPage: fromPromise(async ({ input }) => {
        await wait(300);
        const matching = rows.filter((r) => input.filter === 'all' || (input.filter === 'flagged' ? r.errors.length > 0 : input.filter === 'problems' ? r.problems.length > 0 : r.errors.length + r.problems.length === 0));
        return { items: matching.slice(input.page * input.pageSize, (input.page + 1) * input.pageSize), count: matching.length };
      }),
      addProfiles: fromPromise(async ({ input }) => {
        await wait(400);
        confirmations += 1;
        if (current.fileName.includes('expired') && confirmations === 1) throw new ImportCallError(APPROVAL_EXPIRED_MESSAGE, 400, 'expired');
        for (const r of rows) r.problems = [];
        const chosen = 3_000 - 4 - input.body.exclude.length;
        current = { ...current, state: 'checking', done: 0, total: chosen, chosenCount: chosen, problemCount: 0, message: '' };
        return view();
      }),
      cancelJob: fromPromise(async () => {
        stop = true;
        return view();
      }),
      resumeJob: fromPromise(async ({ input }) => {
        await wait(300);
        take(input.importId);
        stop = false;
        current = { ...current, state: 'adding', done: current.addedCount, total: current.chosenCount };
        return view();
      }),
      discardJob: fromPromise(async ({ input }) => {
        await wait(200);
        listed = listed.filter((j) => j.id !== input.importId);
      }),
      listUnfinished: fromPromise(async () => {
        await wait(300);
        return listed;
      }),
    },
    delays: { pollInterval: 700 },
  });
}

/** The machine running with fake calls, from choosing to added. */
function InteractiveImport() {
  const logic = useMemo(fakeServer, []);
  const [snapshot, send] = useMachine(logic, { input: { caseId: CASE } });
  return (
    <div style={{ margin: '1rem' }}>
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      <ImportPanel orgId={ORG} caseId={CASE} type={AUTOSOMAL} formData={loaded} snapshot={snapshot} send={send} />
    </div>
  );
}

const meta = { title: 'Machines/Profile import', component: ImportState, args: { context: {} } } satisfies Meta<typeof ImportState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** choosing: no file yet; the user's unfinished imports of the case are being listed. */
export const Choosing: Story = { args: { value: 'choosing' } };
/**
 * choosing with the user's unfinished imports of the case above the file input: state in words and
 * when started; Continue each, Resume the interrupted one, Discard those not running.
 */
export const ChoosingWithUnfinished: Story = { args: { value: { choosing: 'listed' }, context: { unfinished } } };
/** choosing, one of them being discarded: it has left the list, which is read again once the server answers. */
export const ChoosingDiscardingUnfinished: Story = { args: { value: { choosing: 'discardingListed' }, context: { unfinished: unfinished.slice(0, 4) } } };
/** choosing, the list could not be read: a quiet notice; a file can be chosen all the same. */
export const ChoosingListFailed: Story = { args: { value: { choosing: 'listFailed' } } };
/** opening an import continued from the list: it is read once, then drawn where it stands. */
export const Opening: Story = { args: { value: 'opening', context: { job: unfinished[1] } } };
/** choosing after the server refused the upload (400 empty file, 413 too large): its message, and the picker again. */
export const ChoosingAfterRefusal: Story = {
  args: { value: 'choosing', context: { error: { status: 400, message: 'The file GF_refs_2026-11.txt is empty (0 bytes): nothing to import. Export it again, or choose another file.' } } },
};
/** uploading: the file goes to the server, which answers at once with the job. */
export const Uploading: Story = { args: { value: 'uploading', context: { file } } };
/** following a job being read, before it knows how many profiles the file holds. */
export const ReadingStarted: Story = { args: { value: { following: { poll: 'waiting', stop: 'idle' } }, context: running('parsing', 0, 0) } };
/** following a job being read: rows stored so far, Cancel. */
export const Reading: Story = { args: { value: { following: { poll: 'waiting', stop: 'idle' } }, context: running('parsing', 42_000, 100_000) } };
/** following, Cancel pressed: the reading stops and the screen goes back to choosing. */
export const CancellingReading: Story = { args: { value: { following: { poll: 'waiting', stop: 'requested' } }, context: running('parsing', 42_000, 100_000) } };
/** parseFailed: the file could not be read; another file can be chosen. */
export const ParseFailed: Story = {
  args: { value: 'parseFailed', context: { file, job: job({ state: 'failed', message: 'The file could not be read: no header row (Sample Name, Marker, Allele 1 …)' }) } },
};
/** parsed: the summary, the file's errors and warnings, the controls set apart, page 1 of the profiles, the kit warning (GlobalFiler lacks SE33 and Penta D). */
export const Parsed: Story = { args: { value: { parsed: 'ready' }, context: parsed } };
/** parsed at 600 px: the page does not scroll sideways; the table scrolls in its own box. */
export const ParsedSmallScreen: Story = { args: { value: { parsed: 'ready' }, context: parsed }, globals: { viewport: { value: 'small', isRotated: false } } };
/** parsed, page 2 with two profiles left out. */
export const ParsedPage2LeftOut: Story = { args: { value: { parsed: 'ready' }, context: { ...parsed, page: 1, rows: pageOf(1), excluded: new Set([101, 150]) } } };
/** parsed, the next page being read: the page shown stays until it arrives. */
export const ParsedLoadingPage: Story = { args: { value: { parsed: 'loadingPage' }, context: { ...parsed, page: 1 } } };
/** parsed, the page could not be read: Try again. */
export const ParsedPageFailed: Story = { args: { value: { parsed: 'pageFailed' }, context: { ...parsed, page: 1, error: { status: 0, message: 'Your request failed. Please try again later.' } } } };
/** parsed, With errors: only the profiles the parser refused (they cannot be checked). */
export const ParsedFlagged: Story = { args: { value: { parsed: 'ready' }, context: { ...parsed, filter: 'flagged', rows: pageOf(0).filter((r) => r.errors.length > 0), rowCount: 133 } } };
/** parsed but Confirm is not offered: no sample type chosen (100,000 profiles: the first page cannot tell it); the reason is listed. */
export const ParsedNotReady: Story = { args: { value: { parsed: 'ready' }, context: { ...parsed, assignment: { ...assignment, sampleType: null } } } };
/** parsed after a check: the server's message, the Not accepted filter, and Leave out the profiles on this page. */
export const ParsedWithProblems: Story = { args: { value: { parsed: 'ready' }, context: problems } };
/** confirming: the confirmation is sent; nothing can change. */
export const Confirming: Story = { args: { value: 'confirming', context: parsed } };
/** following the check of the chosen profiles. */
export const Checking: Story = { args: { value: { following: { poll: 'waiting', stop: 'idle' } }, context: running('checking', 1_000, 3_000) } };
/** following the add, batch by batch: Stop after the current batch. */
export const Adding: Story = { args: { value: { following: { poll: 'waiting', stop: 'idle' } }, context: running('adding', 1_500, 3_000) } };
/** following, stop asked for: the batch being added finishes first. */
export const Stopping: Story = { args: { value: { following: { poll: 'waiting', stop: 'requested' } }, context: running('adding', 1_500, 3_000) } };
/** following, the stop was refused (the server restarted): the add is still followed. */
export const StopRefused: Story = {
  args: {
    value: { following: { poll: 'waiting', stop: 'idle' } },
    context: { ...running('adding', 1_500, 3_000), error: { status: 409, message: 'This import is not running in this server; reload the page.' } },
  },
};
/** added: the count, the links, another file. */
export const Added: Story = { args: { value: 'added', context: { ...parsed, job: job({ state: 'added', chosenCount: 99_867, addedCount: 99_867 }) } } };
/** cancelled: whole batches were added, the rest not. */
export const Cancelled: Story = { args: { value: 'cancelled', context: { ...parsed, job: job({ state: 'cancelled', chosenCount: 3_000, addedCount: 1_500 }) } } };
/** interrupted: the server stopped while adding; Resume or Discard. */
export const Interrupted: Story = { args: { value: 'interrupted', context: { ...parsed, job: interruptedJob } } };
/** interrupted, the resume refused: why. */
export const InterruptedResumeRefused: Story = {
  args: { value: 'interrupted', context: { ...parsed, job: interruptedJob, error: { status: 409, message: 'Case 2026-0142 is closed; no profiles can be added.' } } },
};
/** resuming the add after its last whole batch. */
export const Resuming: Story = { args: { value: 'resuming', context: { ...parsed, job: interruptedJob } } };
/** discarding the import (Start over, Upload another file, Discard). */
export const Discarding: Story = { args: { value: 'discarding', context: parsed } };
/** addFailed: the confirmation failed but the approval may still be good: Try again, or back to the profiles. */
export const AddFailed: Story = { args: { value: 'addFailed', context: { ...parsed, error: { status: 409, message: 'Case 2026-0142 is closed; no profiles can be added.' } } } };
/** tokenExpired: the approval ran out; read the same file again, keeping the choices (the expired import is discarded). */
export const TokenExpired: Story = { args: { value: 'tokenExpired', context: { ...parsed, error: { status: 400, message: APPROVAL_EXPIRED_MESSAGE, approval: 'expired' } } } };
/** tokenExpired for an import continued from the list: its file is not at hand, so only Start over. */
export const TokenExpiredContinued: Story = {
  args: { value: 'tokenExpired', context: { ...parsed, file: null, error: { status: 400, message: APPROVAL_EXPIRED_MESSAGE, approval: 'expired' } } },
};
/** refused: the approval was refused for good (used, another case …): Start over. */
export const Refused: Story = {
  args: {
    value: 'refused',
    context: { ...parsed, error: { status: 400, message: 'This import has already been added (an approval adds one import once). Parse the file again to add it elsewhere.', approval: 'used' } },
  },
};
/** unreachable: a read of the job failed; Check again or Start over. */
export const Unreachable: Story = { args: { value: 'unreachable', context: { ...running('adding', 1_500, 3_000), error: { status: 0, message: 'Your request failed. Please try again later.' } } } };

export const Interactive: Story = { args: { value: 'choosing' }, render: () => <InteractiveImport /> };
