import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, SimulatedClock, transition, type SnapshotFrom, type StateValue } from 'xstate';
import type { ImportState, ProfileImportJob, ProfileImportRow } from '../../../core/schemas/profile-imports';
import type { ChosenFile } from '../../../machines/populationUpload.machine';
import {
  APPROVAL_EXPIRED_MESSAGE,
  IMPORT_PAGE_SIZE,
  IMPORT_POLL_MS,
  ImportCallError,
  chosenCount,
  commonSampleType,
  confirmBlockers,
  initialImportContext,
  profileImportMachine,
  toImportError,
  type AddImportRequest,
  type JobRequest,
  type JobView,
  type PageRequest,
  type ProfileImportContext,
  type ProfileImportEvent,
  type RowsPage,
  type UploadRequest,
} from '../../../machines/profileImport.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const CASE = '7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const IMPORT = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const GLOBALFILER = '3f1c2a8e-5b7d-4e3f-9a10-2c4d6e8f0a1b';
const FUSION = '4a2d3b9f-6c8e-4f4a-8b21-3d5e7f9a1b2c';
const LAB = '5a2b3c4d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
const D3S1358 = '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c';
const file: ChosenFile = new File(['Sample Name,Marker,Allele 1,Allele 2\n'], 'genemapper-250.txt');

/** A job of a 250-profile GeneMapper table, 2 of them flagged by the parser. */
const jobOf = (state: ImportState, patch: Partial<ProfileImportJob> = {}): ProfileImportJob => ({
  id: IMPORT,
  fileName: file.name,
  fileBytes: 48_000,
  format: 'GeneMapper ID-X genotype table',
  state,
  done: 0,
  total: 0,
  caseId: CASE,
  profileCount: 250,
  flaggedCount: 2,
  errors: [],
  warnings: [],
  controls: [],
  markers: [{ markerId: D3S1358, name: 'D3S1358', profiles: 250 }],
  suggestedChemistryId: GLOBALFILER,
  chosenCount: 0,
  addedCount: 0,
  message: '',
  problemCount: 0,
  approvalExpiresAt: state === 'parsed' ? '2026-11-22T11:00:00.000Z' : null,
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...patch,
});
const viewOf = (state: ImportState, patch: Partial<ProfileImportJob> = {}, token: string | null = state === 'parsed' ? 'token-1' : null): JobView => ({
  job: jobOf(state, patch),
  token,
});

const rowOf = (index: number, patch: Partial<ProfileImportRow> = {}): ProfileImportRow => ({
  index,
  line: index + 2,
  profileId: `S-${index}`,
  kind: 'Autosomal',
  kit: null,
  sampleType: 'Suspect, Known',
  markerValues: [{ markerId: D3S1358, marker: 'D3S1358', alleles: ['15', '16'] }],
  errors: [],
  problems: [],
  warnings: [],
  chosen: false,
  added: false,
  ...patch,
});
/** Page 0 of the file: rows 0–99; row 3 flagged by the parser. */
const firstPage: RowsPage = { items: Array.from({ length: IMPORT_PAGE_SIZE }, (_, i) => rowOf(i, i === 3 ? { errors: ['Marker D99S999 is invalid'] } : {})), count: 250 };

const assignment = { ...initialImportContext(CASE).assignment, chemistryId: GLOBALFILER, sampleType: 'Suspect, Known' as const };
/** The preview of page 0, nothing left out, ready to confirm. */
const ready: Partial<ProfileImportContext> = { file, job: jobOf('parsed'), token: 'token-1', rows: firstPage.items, rowCount: 250, assignment };

type Snapshot = SnapshotFrom<typeof profileImportMachine>;

/** A snapshot in `value` with `context`, without running any actor. */
function at(value: StateValue, context: Partial<ProfileImportContext> = {}): Snapshot {
  return profileImportMachine.resolveState({ value, context: { ...initialImportContext(CASE), ...context } });
}
const send = (snapshot: Snapshot, event: ProfileImportEvent) => transition(profileImportMachine, snapshot, event)[0];
/** What an invoked actor's answer does (done event), by the invoke's id. */
const done = (snapshot: Snapshot, id: string, output: unknown) => transition(profileImportMachine, snapshot, { type: `xstate.done.actor.${id}`, output } as never)[0];
const failed = (snapshot: Snapshot, id: string, error: unknown) => transition(profileImportMachine, snapshot, { type: `xstate.error.actor.${id}`, error } as never)[0];

const FOLLOWING = { following: { poll: 'waiting', stop: 'idle' } };
/** Choosing a file, the unfinished imports being listed (as on every arrival in choosing). */
const CHOOSING = { choosing: 'loadingList' };
const POLLING = { following: { poll: 'polling', stop: 'idle' } };
/** The imports an event's step would discard without waiting (the injected action discardQuietly), by their params. */
const discardsOf = (actions: readonly { type: string; params?: unknown }[]) => actions.filter((a) => a.type === 'discardQuietly').map((a) => a.params);
/** The inputs of the actors (invokes) an event's step starts, by their src. */
const started = (actions: readonly { type: string; params?: unknown }[], src: string) =>
  actions.filter((a) => a.type === 'xstate.spawnChild' && (a.params as { src: unknown }).src === src).map((a) => (a.params as { input: unknown }).input);
const refusal = (approval: string, message: string) => Object.assign(new Error(message), { status: 400, serverMessage: message, body: { error: message, details: { approval } } });

describe('profileImport machine: choosing and uploading', () => {
  it('starts choosing, with no file, no job and nothing to confirm', () => {
    const [snapshot] = initialTransition(profileImportMachine, { caseId: CASE });
    expect(snapshot.value).toEqual(CHOOSING);
    expect(snapshot.context).toEqual(initialImportContext(CASE));
    expect(snapshot.can({ type: 'import.confirm' })).toBe(false);
    expect(snapshot.can({ type: 'page.next' })).toBe(false);
  });

  it('uploads a chosen file at once, forgetting the error of the previous one', () => {
    const snapshot = send(at('choosing', { error: { status: 413, message: 'The file is too large' } }), { type: 'file.selected', file });
    expect(snapshot.value).toBe('uploading');
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context).toEqual({ ...initialImportContext(CASE), file });
  });

  it('follows the job the upload started, and goes back to choosing with the message when the upload is refused', () => {
    const following = done(at('uploading', { file }), 'uploadFile', viewOf('parsing'));
    expect(following.value).toEqual(FOLLOWING);
    expect(following.hasTag('busy')).toBe(true);
    expect(following.context.job?.state).toBe('parsing');
    const refused = failed(at('uploading', { file }), 'uploadFile', new ImportCallError('The file genemapper-250.txt is empty (0 bytes): nothing to import.', 400));
    expect(refused.value).toEqual(CHOOSING);
    expect(refused.context).toEqual({ ...initialImportContext(CASE), error: { status: 400, message: 'The file genemapper-250.txt is empty (0 bytes): nothing to import.' } });
  });

  it('takes no new file while one is uploaded, read or added', () => {
    for (const [value, context] of [
      ['uploading', { file }],
      [FOLLOWING, { file, job: jobOf('parsing') }],
      ['confirming', ready],
      ['parsed', ready],
    ] as const) {
      expect(at(value, context).can({ type: 'file.selected', file }), JSON.stringify(value)).toBe(false);
    }
  });
});

describe('profileImport machine: following a job (guard jobRunning, the settled router)', () => {
  it('keeps reading while the job runs, storing its progress', () => {
    const snapshot = done(at(POLLING, { file, job: jobOf('parsing') }), 'readJob', viewOf('parsing', { done: 1500, total: 3000 }));
    expect(snapshot.value).toEqual(FOLLOWING);
    expect(snapshot.context.job).toMatchObject({ state: 'parsing', done: 1500, total: 3000 });
  });

  it.each<[ImportState, Partial<ProfileImportJob>, StateValue]>([
    ['parsing', {}, FOLLOWING],
    ['checking', { chosenCount: 248 }, FOLLOWING],
    ['adding', { chosenCount: 248 }, FOLLOWING],
    ['parsed', {}, { parsed: 'loadingPage' }],
    ['parsed', { problemCount: 3, message: '3 of the chosen profiles cannot be added; nothing was added.' }, { parsed: 'loadingPage' }],
    ['added', { chosenCount: 248, addedCount: 248 }, 'added'],
    ['cancelled', { chosenCount: 0 }, CHOOSING],
    ['cancelled', { chosenCount: 248, addedCount: 0 }, 'cancelled'],
    ['interrupted', { chosenCount: 248, addedCount: 500 }, 'interrupted'],
    ['failed', { message: 'The file could not be read: no header row' }, 'parseFailed'],
  ])('a job read as %s (%j) is drawn in %j', (state, patch, value) => {
    const snapshot = done(at('uploading', { file, error: { status: 409, message: 'earlier' } }), 'uploadFile', viewOf(state, patch));
    expect(snapshot.value).toEqual(value);
    expect(snapshot.context.error).toBeNull();
  });

  it('shows the whole file on its first preview, with the suggested kit and the approval of the last read', () => {
    const snapshot = done(at(POLLING, { file, job: jobOf('parsing') }), 'readJob', viewOf('parsed'));
    expect(snapshot.context).toMatchObject({ token: 'token-1', page: 0, filter: 'all', assignment: { chemistryId: GLOBALFILER, sampleType: null } });
  });

  it('keeps a chemistry already chosen and only left-out profiles the file still holds (read again after an expiry)', () => {
    const context = { file, job: jobOf('parsing'), excluded: new Set([4, 249, 300]), assignment: { ...assignment, chemistryId: FUSION } };
    const snapshot = done(at(POLLING, context), 'readJob', viewOf('parsed'));
    expect(snapshot.context.assignment.chemistryId).toBe(FUSION);
    expect([...snapshot.context.excluded]).toEqual([4, 249]);
  });

  it('shows only the profiles the check refused when the job comes back parsed with problems', () => {
    const snapshot = done(at(POLLING, { ...ready, job: jobOf('checking'), token: null, page: 2 }), 'readJob', viewOf('parsed', { problemCount: 3, message: '3 of the chosen profiles cannot be added' }, 'token-2'));
    expect(snapshot.value).toEqual({ parsed: 'loadingPage' });
    expect(snapshot.context).toMatchObject({ filter: 'problems', page: 0, rows: [], token: 'token-2', assignment });
  });

  it('goes to unreachable when a read fails; Check again reads the job at once and follows it again, Start over leaves a running job alone', () => {
    const lost = failed(at(POLLING, { file, job: jobOf('adding') }), 'readJob', { status: 0 });
    expect(lost.value).toBe('unreachable');
    expect(lost.context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    const again = send(lost, { type: 'job.refresh' });
    expect(again.value).toBe('opening');
    expect(again.hasTag('busy')).toBe(true);
    expect(again.context.error).toBeNull();
    expect(done(again, 'openJob', viewOf('adding', { done: 250, total: 248 })).value).toEqual(FOLLOWING);
    expect(send(lost, { type: 'import.startOver' }).value).toEqual(CHOOSING);
    // A job read last as settled (it cannot be: only running jobs are read) would be discarded.
    expect(send(at('unreachable', { file, job: jobOf('parsed') }), { type: 'import.startOver' }).value).toBe('discarding');
  });
});

describe('profileImport machine: stopping a job', () => {
  it('cancels the reading of the file only while it is read (guard reading), and adding only while it adds (guard adding)', () => {
    const reading = at(FOLLOWING, { file, job: jobOf('parsing') });
    expect(reading.can({ type: 'add.cancel' })).toBe(false);
    expect(send(reading, { type: 'parse.cancel' }).value).toEqual({ following: { poll: 'waiting', stop: 'requesting' } });
    for (const state of ['checking', 'adding'] as const) {
      const adding = at(FOLLOWING, { file, job: jobOf(state) });
      expect(adding.can({ type: 'parse.cancel' }), state).toBe(false);
      expect(send(adding, { type: 'add.cancel' }).value, state).toEqual({ following: { poll: 'waiting', stop: 'requesting' } });
    }
  });

  it('keeps following until the job has stopped; a stopped reading starts over, a stopped add says what was added', () => {
    const requesting = at({ following: { poll: 'polling', stop: 'requesting' } }, { file, job: jobOf('parsing') });
    const requested = done(requesting, 'cancelJob', viewOf('parsing'));
    expect(requested.value).toEqual({ following: { poll: 'polling', stop: 'requested' } });
    expect(requested.can({ type: 'parse.cancel' })).toBe(false);
    const stopped = done(requested, 'readJob', viewOf('cancelled', { message: 'Cancelled while reading the file.' }));
    expect(stopped.value).toEqual(CHOOSING);
    expect(stopped.context).toEqual(initialImportContext(CASE));

    const addStopped = done(at({ following: { poll: 'polling', stop: 'requested' } }, { ...ready, job: jobOf('adding') }), 'readJob', viewOf('cancelled', { chosenCount: 248, addedCount: 1000 }));
    expect(addStopped.value).toBe('cancelled');
    expect(addStopped.context.job?.addedCount).toBe(1000);
  });

  it('says why a stop was refused and keeps following the job', () => {
    const refused = failed(at({ following: { poll: 'waiting', stop: 'requesting' } }, { file, job: jobOf('adding') }), 'cancelJob', { status: 409, serverMessage: 'This import is not running in this server; reload the page.' });
    expect(refused.value).toEqual(FOLLOWING);
    expect(refused.context.error?.message).toBe('This import is not running in this server; reload the page.');
  });
});

describe('profileImport machine: the preview', () => {
  it('stores the page and how many profiles the filter matches; a failed page can be read again', () => {
    const loaded = done(at({ parsed: 'loadingPage' }, { ...ready, rows: [] }), 'readPage', firstPage);
    expect(loaded.value).toEqual({ parsed: 'ready' });
    expect(loaded.context).toMatchObject({ rows: firstPage.items, rowCount: 250 });
    const broken = failed(at({ parsed: 'loadingPage' }, ready), 'readPage', { status: 0 });
    expect(broken.value).toEqual({ parsed: 'pageFailed' });
    expect(broken.context.rows).toBe(ready.rows);
    const retried = send(broken, { type: 'page.retry' });
    expect(retried.value).toEqual({ parsed: 'loadingPage' });
    expect(retried.context.error).toBeNull();
  });

  it('fills in the sample type only when the first page holds the whole file and every profile names the same one', () => {
    const small = { ...ready, job: jobOf('parsed', { profileCount: 2, flaggedCount: 0 }), assignment: { ...assignment, sampleType: null } };
    const same = done(at({ parsed: 'loadingPage' }, small), 'readPage', { items: [rowOf(0), rowOf(1)], count: 2 });
    expect(same.context.assignment.sampleType).toBe('Suspect, Known');
    const mixed = done(at({ parsed: 'loadingPage' }, small), 'readPage', { items: [rowOf(0), rowOf(1, { sampleType: 'Victim, Known' })], count: 2 });
    expect(mixed.context.assignment.sampleType).toBeNull();
    // 250 profiles: the first 100 say nothing of the rest.
    const large = done(at({ parsed: 'loadingPage' }, { ...ready, assignment: { ...assignment, sampleType: null } }), 'readPage', firstPage);
    expect(large.context.assignment.sampleType).toBeNull();
    const chosen = done(at({ parsed: 'loadingPage' }, { ...small, assignment: { ...assignment, sampleType: 'Reference' } }), 'readPage', { items: [rowOf(0)], count: 2 });
    expect(chosen.context.assignment.sampleType).toBe('Reference');
    expect(commonSampleType([])).toBeNull();
  });

  it('pages forward and back within the filtered count (guards hasNextPage, hasPreviousPage)', () => {
    const first = at({ parsed: 'ready' }, ready);
    expect(first.can({ type: 'page.previous' })).toBe(false);
    const second = send(first, { type: 'page.next' });
    expect(second.value).toEqual({ parsed: 'loadingPage' });
    expect(second.context.page).toBe(1);
    const third = send(send(second, { type: 'page.next' }), { type: 'page.next' });
    // 250 rows: pages 0, 1, 2.
    expect(third.context.page).toBe(2);
    expect(at({ parsed: 'ready' }, { ...ready, page: 2 }).can({ type: 'page.next' })).toBe(false);
    expect(send(at({ parsed: 'ready' }, { ...ready, page: 2 }), { type: 'page.previous' }).context.page).toBe(1);
  });

  it('changes the filter from the first page', () => {
    const snapshot = send(at({ parsed: 'ready' }, { ...ready, page: 2 }), { type: 'filter.change', filter: 'flagged' });
    expect(snapshot.value).toEqual({ parsed: 'loadingPage' });
    expect(snapshot.context).toMatchObject({ filter: 'flagged', page: 0, rows: [], rowCount: 0 });
  });

  it('changes nothing of the rows still shown while the next page is read, or after it failed', () => {
    for (const value of ['loadingPage', 'pageFailed'] as const) {
      const snapshot = at({ parsed: value }, { ...ready, excluded: new Set([7]) });
      expect(snapshot.can({ type: 'profile.toggle', index: 8 }), value).toBe(false);
      expect(snapshot.can({ type: 'profile.toggle', index: 7 }), value).toBe(false);
      expect(snapshot.can({ type: 'page.leaveOut' }), value).toBe(false);
    }
  });

  it('leaves a profile out and takes it back; a flagged profile or one not on the page cannot be left out (guard canToggle)', () => {
    const preview = at({ parsed: 'ready' }, ready);
    const without = send(preview, { type: 'profile.toggle', index: 7 });
    expect([...without.context.excluded]).toEqual([7]);
    expect(chosenCount(without.context)).toBe(247);
    expect([...send(without, { type: 'profile.toggle', index: 7 }).context.excluded]).toEqual([]);
    expect(preview.can({ type: 'profile.toggle', index: 3 })).toBe(false);
    expect(preview.can({ type: 'profile.toggle', index: 180 })).toBe(false);
    expect(at({ parsed: 'ready' }, { ...ready, rows: [rowOf(5, { added: true })] }).can({ type: 'profile.toggle', index: 5 })).toBe(false);
    // Left out on another page: it can be taken back from anywhere.
    expect(at({ parsed: 'ready' }, { ...ready, excluded: new Set([180]) }).can({ type: 'profile.toggle', index: 180 })).toBe(true);
  });

  it('joins rows read with heights as one profile\'s replicates, moves and splits them, and a left-out row leaves its group (issue 31, guard canJoin)', () => {
    const heights = { replicates: [{ name: 'run', markers: [] }] };
    const rows = [rowOf(0, heights), rowOf(1, heights), rowOf(2, heights), rowOf(3, { ...heights, errors: ['bad height'] }), rowOf(4)];
    let snapshot = at({ parsed: 'ready' }, { ...ready, rows });
    snapshot = send(send(snapshot, { type: 'replicate.join', index: 2, with: 0 }), { type: 'replicate.join', index: 1, with: 2 });
    expect(snapshot.context.groups).toEqual([[0, 1, 2]]);
    expect(chosenCount(snapshot.context)).toBe(246);
    // Without heights, with errors, or onto itself: no join.
    for (const [index, other] of [[4, 0], [3, 0], [0, 4], [1, 1]] as const) expect(snapshot.can({ type: 'replicate.join', index, with: other }), `${index}→${other}`).toBe(false);
    snapshot = send(snapshot, { type: 'replicate.join', index: 0, with: null });
    expect(snapshot.context.groups).toEqual([[1, 2]]);
    snapshot = send(snapshot, { type: 'profile.toggle', index: 2 });
    expect(snapshot.context.groups).toEqual([]);
    expect(snapshot.can({ type: 'replicate.join', index: 1, with: 2 })).toBe(false);
    snapshot = send(snapshot, { type: 'replicate.join', index: 1, with: 0 });
    expect(snapshot.context.groups).toEqual([[0, 1]]);
  });

  it('leaves out every profile of the page that could be added (guard pageHasAddable)', () => {
    const problems = [rowOf(12, { problems: ['D3S1358: 3 alleles; Suspect, Known takes at most 2'] }), rowOf(40, { problems: ['x'] }), rowOf(41, { errors: ['Marker D99S999 is invalid'] })];
    const snapshot = send(at({ parsed: 'ready' }, { ...ready, filter: 'problems', rows: problems, excluded: new Set([200]) }), { type: 'page.leaveOut' });
    expect([...snapshot.context.excluded].sort((a, b) => a - b)).toEqual([12, 40, 200]);
    expect(snapshot.can({ type: 'page.leaveOut' })).toBe(false);
  });

  it('merges each assignment change into what the user filled in', () => {
    const first = send(at({ parsed: 'ready' }, ready), { type: 'assignment.change', patch: { laboratoryId: LAB } });
    const second = send(first, { type: 'assignment.change', patch: { comments: 'Batch 7', sampleType: 'Reference' } });
    expect(second.context.assignment).toEqual({ chemistryId: GLOBALFILER, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: LAB, comments: 'Batch 7' });
  });

  it('reads the page again for another kit when it shows rows with peak heights, whose warnings the kit decides (issue 31, guard kitChangedUnderHeights)', () => {
    const heights = [rowOf(0, { replicates: [{ name: 'run', markers: [] }] }), rowOf(1)];
    const [changed, actions] = transition(profileImportMachine, at({ parsed: 'ready' }, { ...ready, rows: heights }), { type: 'assignment.change', patch: { chemistryId: FUSION } });
    expect(changed.value).toEqual({ parsed: 'loadingPage' });
    expect(started(actions, 'readPage')).toEqual([{ importId: IMPORT, page: 0, pageSize: IMPORT_PAGE_SIZE, filter: 'all', chemistryId: FUSION }]);
    // Rows without heights, or the same kit again: nothing to read again.
    expect(send(at({ parsed: 'ready' }, ready), { type: 'assignment.change', patch: { chemistryId: FUSION } }).value).toEqual({ parsed: 'ready' });
    expect(send(at({ parsed: 'ready' }, { ...ready, rows: heights }), { type: 'assignment.change', patch: { chemistryId: GLOBALFILER } }).value).toEqual({ parsed: 'ready' });
    expect(send(at({ parsed: 'ready' }, { ...ready, rows: heights }), { type: 'assignment.change', patch: { comments: 'x' } }).value).toEqual({ parsed: 'ready' });
  });

  it('confirms only with a profile chosen, a chemistry and a sample type (guard canConfirm)', () => {
    const cases: [Partial<ProfileImportContext>, string[]][] = [
      [{}, []],
      [{ job: jobOf('parsed', { profileCount: 2, flaggedCount: 2 }) }, ['Choose at least one profile']],
      [{ job: jobOf('parsed', { profileCount: 3, flaggedCount: 1 }), excluded: new Set([0, 1]) }, ['Choose at least one profile']],
      [{ assignment: { ...assignment, chemistryId: null } }, ['Choose a chemistry']],
      [{ assignment: { ...assignment, sampleType: null } }, ['Choose a sample type']],
      [{ job: jobOf('parsed', { profileCount: 1, flaggedCount: 1 }), assignment: initialImportContext(CASE).assignment }, ['Choose at least one profile', 'Choose a chemistry', 'Choose a sample type']],
    ];
    for (const [patch, blockers] of cases) {
      const snapshot = at({ parsed: 'ready' }, { ...ready, ...patch });
      expect(confirmBlockers(snapshot.context), JSON.stringify(patch)).toEqual(blockers);
      expect(send(snapshot, { type: 'import.confirm' }).value, JSON.stringify(patch)).toEqual(blockers.length === 0 ? 'confirming' : { parsed: 'ready' });
    }
    expect(send(at({ parsed: 'ready' }, ready), { type: 'import.confirm' }).hasTag('busy')).toBe(true);
  });

  it('goes to tokenExpired when the job as last read offered no approval (guard approvalMissing)', () => {
    const snapshot = send(at({ parsed: 'ready' }, { ...ready, token: null }), { type: 'import.confirm' });
    expect(snapshot.value).toBe('tokenExpired');
    expect(snapshot.context.error).toEqual({ status: 0, message: APPROVAL_EXPIRED_MESSAGE, approval: 'expired' });
  });

  it('discards the import when the user starts over from the preview', () => {
    expect(send(at({ parsed: 'ready' }, ready), { type: 'import.startOver' }).value).toBe('discarding');
  });
});

describe('profileImport machine: the confirmation and its endings', () => {
  it('follows the job the confirmation started', () => {
    const snapshot = done(at('confirming', ready), 'addProfiles', viewOf('checking', { chosenCount: 248, total: 248 }));
    expect(snapshot.value).toEqual(FOLLOWING);
    expect(snapshot.context.job?.state).toBe('checking');
  });

  it.each([
    ['expired', 'tokenExpired'],
    ['used', 'refused'],
    ['case', 'refused'],
    ['foreign', 'refused'],
    ['invalid', 'refused'],
    ['mismatch', 'refused'],
  ])('a refused approval (%s) goes to %s (guards approvalExpired, approvalRefused)', (approval, value) => {
    const snapshot = failed(at('confirming', ready), 'addProfiles', refusal(approval, `refused: ${approval}`));
    expect(snapshot.value).toBe(value);
    expect(snapshot.context.error).toEqual({ status: 400, message: `refused: ${approval}`, approval });
  });

  it('any other failure goes to addFailed: send it again, back to the preview with the choices, or start over', () => {
    const closed = failed(at('confirming', { ...ready, excluded: new Set([7]) }), 'addProfiles', { status: 409, serverMessage: 'Case 2026-0100 is closed.' });
    expect(closed.value).toBe('addFailed');
    expect(closed.context.error).toEqual({ status: 409, message: 'Case 2026-0100 is closed.' });
    expect(failed(at('confirming', ready), 'addProfiles', new TypeError('Failed to fetch')).context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    const retry = send(closed, { type: 'add.retry' });
    expect(retry.value).toBe('confirming');
    expect(retry.context.error).toBeNull();
    const back = send(closed, { type: 'failure.dismiss' });
    expect(back.value).toEqual({ parsed: 'loadingPage' });
    expect(back.context).toMatchObject({ token: 'token-1', assignment, error: null });
    expect([...back.context.excluded]).toEqual([7]);
    expect(send(closed, { type: 'import.startOver' }).value).toBe('discarding');
  });

  it('after an expired approval, uploads the same file again keeping the choices, or starts over', () => {
    const expired = at('tokenExpired', { ...ready, excluded: new Set([7]), error: toImportError(new ImportCallError(APPROVAL_EXPIRED_MESSAGE, 400, 'expired')) });
    const again = send(expired, { type: 'file.parseAgain' });
    expect(again.value).toBe('uploading');
    expect(again.context).toMatchObject({ file, job: null, token: null, rows: [], error: null, assignment });
    expect([...again.context.excluded]).toEqual([7]);
    expect(send(expired, { type: 'import.startOver' }).value).toBe('discarding');
  });

  it('discards the expired import on the server as the file is read again, without waiting for it (action discardQuietly)', () => {
    const expired = at('tokenExpired', { ...ready, error: { status: 400, message: APPROVAL_EXPIRED_MESSAGE, approval: 'expired' } });
    const [again, actions] = transition(profileImportMachine, expired, { type: 'file.parseAgain' });
    expect(again.value).toBe('uploading');
    expect(discardsOf(actions)).toEqual([{ importId: IMPORT }]);
    // The upload starts in the same step: nothing waits for the discard.
    expect(started(actions, 'uploadFile')).toEqual([{ file, caseId: CASE }]);
  });

  it('offers no reading again of an import continued from the list: its file is not at hand (guard hasFile)', () => {
    const expired = at('tokenExpired', { ...ready, file: null, error: { status: 400, message: APPROVAL_EXPIRED_MESSAGE, approval: 'expired' } });
    expect(expired.can({ type: 'file.parseAgain' })).toBe(false);
    expect(send(expired, { type: 'import.startOver' }).value).toBe('discarding');
  });

  it('offers only Start over after a final refusal', () => {
    const refused = at('refused', { ...ready, error: { status: 400, message: 'used', approval: 'used' } });
    expect(refused.can({ type: 'add.retry' })).toBe(false);
    expect(refused.can({ type: 'file.parseAgain' })).toBe(false);
    expect(send(refused, { type: 'import.startOver' }).value).toBe('discarding');
  });

  it('an interrupted add resumes (following it again) or is discarded; a refused resume says why', () => {
    const interrupted = at('interrupted', { ...ready, job: jobOf('interrupted', { chosenCount: 248, addedCount: 500 }) });
    const resuming = send(interrupted, { type: 'job.resume' });
    expect(resuming.value).toBe('resuming');
    expect(resuming.hasTag('busy')).toBe(true);
    expect(done(resuming, 'resumeJob', viewOf('adding', { done: 500, total: 248 })).value).toEqual(FOLLOWING);
    const refused = failed(resuming, 'resumeJob', { status: 409, serverMessage: 'Case 2026-0100 is closed.' });
    expect(refused.value).toBe('interrupted');
    expect(refused.context.error?.message).toBe('Case 2026-0100 is closed.');
    expect(send(interrupted, { type: 'job.discard' }).value).toBe('discarding');
  });

  it('discarding ends in choosing from nothing, whether the server discarded the import or not', () => {
    const discarding = at('discarding', { ...ready, excluded: new Set([1]) });
    expect(done(discarding, 'discardJob', undefined).context).toEqual(initialImportContext(CASE));
    const notDiscarded = failed(discarding, 'discardJob', { status: 409 });
    expect(notDiscarded.value).toEqual(CHOOSING);
    expect(notDiscarded.context).toEqual(initialImportContext(CASE));
  });

  it('after added or a stop, Upload another file discards the import; after a failed reading, another file is uploaded', () => {
    for (const value of ['added', 'cancelled', 'parseFailed'] as const) expect(send(at(value, ready), { type: 'import.startOver' }).value, value).toBe('discarding');
    const other: ChosenFile = new File(['<CODISImportFile/>'], 'Codis-Single-Profile.xml');
    const [snapshot, actions] = transition(profileImportMachine, at('parseFailed', { file, job: jobOf('failed') }), { type: 'file.selected', file: other });
    expect(snapshot.value).toBe('uploading');
    expect(snapshot.context).toEqual({ ...initialImportContext(CASE), file: other });
    // The import of the file that could not be read is discarded on the way, without waiting.
    expect(discardsOf(actions)).toEqual([{ importId: IMPORT }]);
  });

  it('discards nothing when a file is chosen with no import before it', () => {
    const [, actions] = transition(profileImportMachine, at({ choosing: 'listed' }), { type: 'file.selected', file });
    expect(discardsOf(actions)).toEqual([]);
  });

  it('reads an ApiError refusal by its status, message and details.approval', () => {
    expect(toImportError(refusal('used', 'This import has already been added'))).toEqual({ status: 400, message: 'This import has already been added', approval: 'used' });
    expect(toImportError(Object.assign(new Error(), { status: 400, body: { details: { approval: 'nonsense' } } }))).toEqual({ status: 400, message: GENERIC_FAILURE });
  });
});

describe('profileImport machine: the user’s unfinished imports of the case', () => {
  const INTERRUPTED = '1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a';
  const RUNNING = '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b';
  /** Newest first: one waiting for a confirmation, one interrupted while adding, one still reading. */
  const unfinished = [
    jobOf('parsed'),
    jobOf('interrupted', { id: INTERRUPTED, fileName: 'refs-2026-10.xml', chosenCount: 3000, addedCount: 1500, message: 'The server stopped while adding the profiles.' }),
    jobOf('parsing', { id: RUNNING, fileName: 'refs-2026-09.csv', done: 100, total: 900 }),
  ];
  const listed = (context: Partial<ProfileImportContext> = {}) => at({ choosing: 'listed' }, { unfinished, ...context });

  it('lists them for this case whenever the screen arrives at choosing, and stores what the server answers', () => {
    const [first, actions] = initialTransition(profileImportMachine, { caseId: CASE });
    expect(started(actions, 'listUnfinished')).toEqual([{ caseId: CASE }]);
    expect(first.can({ type: 'unfinished.continue', importId: IMPORT })).toBe(false);
    const shown = done(first, 'listUnfinished', unfinished);
    expect(shown.value).toEqual({ choosing: 'listed' });
    expect(shown.context.unfinished).toEqual(unfinished);
    // Back from an import (here: discarded): listed again, from nothing.
    const [back, again] = transition(profileImportMachine, at('discarding', { ...ready, unfinished }), { type: 'xstate.done.actor.discardJob' } as never);
    expect(back.value).toEqual(CHOOSING);
    expect(back.context.unfinished).toEqual([]);
    expect(started(again, 'listUnfinished')).toEqual([{ caseId: CASE }]);
  });

  it('shows a quiet notice when the list fails to load, keeps the message of a refused upload, and can list again', () => {
    const uploadError = { status: 413, message: 'The file is too large' };
    const broken = failed(at(CHOOSING, { error: uploadError }), 'listUnfinished', { status: 500 });
    expect(broken.value).toEqual({ choosing: 'listFailed' });
    expect(broken.context.error).toEqual(uploadError);
    expect(broken.context.unfinished).toEqual([]);
    expect(send(broken, { type: 'unfinished.refresh' }).value).toEqual(CHOOSING);
  });

  it('lets a file be chosen whether the list is loading, shown, failed or being changed', () => {
    for (const value of ['loadingList', 'listed', 'listFailed', 'discardingListed'] as const) {
      const snapshot = send(at({ choosing: value }, { unfinished }), { type: 'file.selected', file });
      expect(snapshot.value, value).toBe('uploading');
      expect(snapshot.context, value).toEqual({ ...initialImportContext(CASE), file });
    }
  });

  it('takes nothing from the list while it loads or changes, nor an import it does not hold (guard unfinishedListed)', () => {
    for (const value of ['loadingList', 'listFailed', 'discardingListed'] as const) {
      const snapshot = at({ choosing: value }, { unfinished });
      expect(snapshot.can({ type: 'unfinished.continue', importId: IMPORT }), value).toBe(false);
      expect(snapshot.can({ type: 'unfinished.resume', importId: INTERRUPTED }), value).toBe(false);
      expect(snapshot.can({ type: 'unfinished.discard', importId: IMPORT }), value).toBe(false);
    }
    const other = '3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c';
    expect(listed().can({ type: 'unfinished.continue', importId: other })).toBe(false);
    expect(listed().can({ type: 'unfinished.discard', importId: other })).toBe(false);
    expect(listed().can({ type: 'unfinished.resume', importId: other })).toBe(false);
  });

  it('Continue makes the listed import the current one and reads it once, with nothing of the screen before it', () => {
    const [opening, actions] = transition(profileImportMachine, listed({ error: { status: 400, message: 'earlier' } }), { type: 'unfinished.continue', importId: IMPORT });
    expect(opening.value).toBe('opening');
    expect(opening.hasTag('busy')).toBe(true);
    expect(opening.context).toEqual({ ...initialImportContext(CASE), job: unfinished[0] });
    expect(started(actions, 'readJob')).toEqual([{ importId: IMPORT }]);
    expect(opening.can({ type: 'file.selected', file })).toBe(false);
  });

  it.each<[ImportState, Partial<ProfileImportJob>, StateValue]>([
    ['parsed', {}, { parsed: 'loadingPage' }],
    ['parsed', { problemCount: 2, message: '2 of the chosen profiles cannot be added' }, { parsed: 'loadingPage' }],
    ['parsing', { done: 100, total: 900 }, FOLLOWING],
    ['checking', { chosenCount: 248 }, FOLLOWING],
    ['adding', { chosenCount: 248, done: 500, total: 248 }, FOLLOWING],
    ['interrupted', { chosenCount: 248, addedCount: 500 }, 'interrupted'],
    // Finished meanwhile: drawn as it ended.
    ['added', { chosenCount: 248, addedCount: 248 }, 'added'],
  ])('a continued import read as %s (%j) goes where an upload would have taken it: %j', (state, patch, value) => {
    const opening = send(listed(), { type: 'unfinished.continue', importId: IMPORT });
    const snapshot = done(opening, 'openJob', viewOf(state, patch));
    expect(snapshot.value).toEqual(value);
    expect(snapshot.context.job).toMatchObject({ state, ...patch });
  });

  it('a continued import waiting for a confirmation takes the approval token of its read, and shows the whole file with the suggested kit', () => {
    const snapshot = done(send(listed(), { type: 'unfinished.continue', importId: IMPORT }), 'openJob', viewOf('parsed', {}, 'token-9'));
    expect(snapshot.context).toMatchObject({ token: 'token-9', filter: 'all', page: 0, assignment: { chemistryId: GLOBALFILER } });
    // Its approval ran out meanwhile (no token): Confirm says so.
    const stale = done(send(listed(), { type: 'unfinished.continue', importId: IMPORT }), 'openJob', viewOf('parsed', {}, null));
    const confirmed = send(done(stale, 'readPage', firstPage), { type: 'assignment.change', patch: { sampleType: 'Suspect, Known' } });
    expect(send(confirmed, { type: 'import.confirm' }).value).toBe('tokenExpired');
  });

  it('a continued import that cannot be read goes to unreachable with why; Check again reads it again', () => {
    const lost = failed(send(listed(), { type: 'unfinished.continue', importId: IMPORT }), 'openJob', { status: 404, serverMessage: 'Import not found' });
    expect(lost.value).toBe('unreachable');
    expect(lost.context.error).toEqual({ status: 404, message: 'Import not found' });
    expect(send(lost, { type: 'job.refresh' }).value).toBe('opening');
  });

  it('Resume adds the rest of an interrupted import and follows it (guard unfinishedInterrupted); a refused resume says why', () => {
    for (const importId of [IMPORT, RUNNING]) expect(listed().can({ type: 'unfinished.resume', importId }), importId).toBe(false);
    const [resuming, actions] = transition(profileImportMachine, listed(), { type: 'unfinished.resume', importId: INTERRUPTED });
    expect(resuming.value).toBe('resuming');
    expect(resuming.context.job).toEqual(unfinished[1]);
    expect(started(actions, 'resumeJob')).toEqual([{ importId: INTERRUPTED }]);
    expect(done(resuming, 'resumeJob', viewOf('adding', { id: INTERRUPTED, chosenCount: 3000, done: 1500, total: 3000 })).value).toEqual(FOLLOWING);
    const refused = failed(resuming, 'resumeJob', { status: 409, serverMessage: 'Case 2026-0100 is closed.' });
    expect(refused.value).toBe('interrupted');
    expect(refused.context.error?.message).toBe('Case 2026-0100 is closed.');
  });

  it('Discard takes an import that is not running off the list, deletes it on the server, then lists again (guard unfinishedSettled)', () => {
    expect(listed().can({ type: 'unfinished.discard', importId: RUNNING })).toBe(false);
    for (const importId of [IMPORT, INTERRUPTED]) {
      const [discarding, actions] = transition(profileImportMachine, listed(), { type: 'unfinished.discard', importId });
      expect(discarding.value, importId).toEqual({ choosing: 'discardingListed' });
      expect(discarding.context.unfinished.map((j) => j.id), importId).toEqual(unfinished.map((j) => j.id).filter((id) => id !== importId));
      expect(started(actions, 'discardJob'), importId).toEqual([{ importId }]);
    }
    const discarding = send(listed(), { type: 'unfinished.discard', importId: INTERRUPTED });
    const [refreshed, actions] = transition(profileImportMachine, discarding, { type: 'xstate.done.actor.discardListed' } as never);
    expect(refreshed.value).toEqual(CHOOSING);
    expect(started(actions, 'listUnfinished')).toEqual([{ caseId: CASE }]);
  });

  it('a failed discard does not block: the list is read again and a file can be chosen', () => {
    const discarding = send(listed(), { type: 'unfinished.discard', importId: IMPORT });
    const refreshed = failed(discarding, 'discardListed', { status: 409, serverMessage: 'Cancel the import before discarding it.' });
    expect(refreshed.value).toEqual(CHOOSING);
    expect(refreshed.context.error).toBeNull();
    expect(send(refreshed, { type: 'file.selected', file }).value).toBe('uploading');
  });
});

/** A deferred answer, resolved or rejected by the test. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The machine with fake calls and a simulated clock: `jobs` answers the reads in turn (the last one stays). */
function run(opts: {
  jobs: JobView[];
  page?: (r: PageRequest) => Promise<RowsPage>;
  add?: (r: AddImportRequest) => Promise<JobView>;
  /** What each listing of the unfinished imports answers, in turn (the last one stays); none: the listing fails. */
  lists?: ProfileImportJob[][];
  upload?: () => Promise<JobView>;
}) {
  const clock = new SimulatedClock();
  const calls = {
    uploads: [] as UploadRequest[],
    reads: 0,
    pages: [] as PageRequest[],
    adds: [] as AddImportRequest[],
    cancels: [] as JobRequest[],
    lists: 0,
    resumes: [] as JobRequest[],
    discards: [] as JobRequest[],
    quietDiscards: [] as JobRequest[],
  };
  const lists = [...(opts.lists ?? [])];
  const jobs = [...opts.jobs];
  const logic = profileImportMachine.provide({
    actors: {
      uploadFile: fromPromise(async ({ input }: { input: UploadRequest }) => {
        calls.uploads.push(input);
        return opts.upload ? opts.upload() : viewOf('parsing');
      }),
      listUnfinished: fromPromise(async () => {
        calls.lists += 1;
        if (lists.length === 0) throw new ImportCallError('Your request failed. Please try again later.', 500);
        return lists.length > 1 ? lists.shift()! : lists[0]!;
      }),
      resumeJob: fromPromise(async ({ input }: { input: JobRequest }) => {
        calls.resumes.push(input);
        return viewOf('adding', { chosenCount: 248, done: 500, total: 248 });
      }),
      discardJob: fromPromise(async ({ input }: { input: JobRequest }) => {
        calls.discards.push(input);
      }),
      readJob: fromPromise(async () => {
        calls.reads += 1;
        return jobs.length > 1 ? jobs.shift()! : jobs[0]!;
      }),
      readPage: fromPromise(async ({ input }: { input: PageRequest }) => {
        calls.pages.push(input);
        return opts.page ? opts.page(input) : firstPage;
      }),
      addProfiles: fromPromise(async ({ input }: { input: AddImportRequest }) => {
        calls.adds.push(input);
        return opts.add ? opts.add(input) : viewOf('checking', { chosenCount: 248, total: 248 });
      }),
      cancelJob: fromPromise(async ({ input }: { input: JobRequest }) => {
        calls.cancels.push(input);
        return viewOf('adding', { chosenCount: 248, done: 500, total: 248 });
      }),
    },
    actions: { discardQuietly: (_, params) => void calls.quietDiscards.push(params) },
  });
  const actor = createActor(logic, { input: { caseId: CASE }, clock }).start();
  /** Lets the simulated time pass, then the fake calls answer. */
  const after = async (ms: number) => {
    clock.increment(ms);
    await settle();
  };
  return { actor, calls, after, snapshot: () => actor.getSnapshot() };
}

/** Uploads, lets the first read find the file parsed, chooses a sample type and confirms. */
async function confirmFirstRead(r: ReturnType<typeof run>) {
  r.actor.send({ type: 'file.selected', file });
  await settle();
  await r.after(IMPORT_POLL_MS);
  r.actor.send({ type: 'assignment.change', patch: { sampleType: 'Suspect, Known' } });
  r.actor.send({ type: 'import.confirm' });
  await settle();
}

describe('profileImport machine over time (fake calls, simulated clock)', () => {
  it('reads the job every pollInterval, shows the preview, and adds with the profiles left out and the approval of the last read', async () => {
    const r = run({
      jobs: [
        viewOf('parsing', { done: 100, total: 250 }),
        viewOf('parsed', {}, 'token-7'),
        viewOf('adding', { chosenCount: 247, done: 0, total: 247 }),
        viewOf('adding', { chosenCount: 247, done: 200, total: 247 }),
        viewOf('added', { chosenCount: 247, addedCount: 247 }),
      ],
      page: async (request) => ({ ...firstPage, items: firstPage.items.map((row) => ({ ...row, index: row.index + request.page * IMPORT_PAGE_SIZE })) }),
    });
    r.actor.send({ type: 'file.selected', file });
    await settle();
    expect(r.calls.uploads).toEqual([{ file, caseId: CASE }]);
    expect(r.snapshot().value).toEqual(FOLLOWING);

    await r.after(IMPORT_POLL_MS - 1);
    expect(r.calls.reads).toBe(0);
    await r.after(1);
    expect(r.calls.reads).toBe(1);
    expect(r.snapshot().context.job).toMatchObject({ done: 100, total: 250 });

    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().value).toEqual({ parsed: 'ready' });
    expect(r.calls.pages).toEqual([{ importId: IMPORT, page: 0, pageSize: IMPORT_PAGE_SIZE, filter: 'all', chemistryId: GLOBALFILER }]);

    r.actor.send({ type: 'page.next' });
    await settle();
    expect(r.calls.pages.at(-1)).toEqual({ importId: IMPORT, page: 1, pageSize: IMPORT_PAGE_SIZE, filter: 'all', chemistryId: GLOBALFILER });
    r.actor.send({ type: 'profile.toggle', index: 150 });
    r.actor.send({ type: 'profile.toggle', index: 120 });
    r.actor.send({ type: 'assignment.change', patch: { sampleType: 'Suspect, Known', laboratoryId: LAB } });
    r.actor.send({ type: 'import.confirm' });
    await settle();
    expect(r.calls.adds).toEqual([
      {
        importId: IMPORT,
        token: 'token-7',
        body: { caseId: CASE, chemistryId: GLOBALFILER, sampleType: 'Suspect, Known', sampleSourceId: null, physicalItemId: null, laboratoryId: LAB, comments: '', exclude: [120, 150] },
      },
    ]);
    expect(r.snapshot().value).toEqual(FOLLOWING);
    await r.after(IMPORT_POLL_MS);
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().context.job).toMatchObject({ state: 'adding', done: 200 });
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().value).toBe('added');
    expect(r.snapshot().context.job?.addedCount).toBe(247);
    // Nothing more is read once the job has settled.
    await r.after(IMPORT_POLL_MS * 3);
    expect(r.calls.reads).toBe(5);
  });

  it('brings back the refused profiles after a check, and confirms again without them', async () => {
    const problems = { items: [rowOf(12, { chosen: true, problems: ['Amelogenin: 3 alleles'] }), rowOf(40, { chosen: true, problems: ['x'] })], count: 2 };
    const r = run({
      jobs: [viewOf('parsed', {}, 'token-1'), viewOf('checking', { chosenCount: 248 }), viewOf('parsed', { chosenCount: 248, problemCount: 2, message: '2 of the chosen profiles cannot be added' }, 'token-1'), viewOf('added', { addedCount: 246, chosenCount: 246 })],
      page: async (request) => (request.filter === 'problems' ? problems : firstPage),
    });
    await confirmFirstRead(r);
    await r.after(IMPORT_POLL_MS);
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().value).toEqual({ parsed: 'ready' });
    expect(r.snapshot().context).toMatchObject({ filter: 'problems', rows: problems.items });
    expect(r.calls.pages.at(-1)?.filter).toBe('problems');

    r.actor.send({ type: 'page.leaveOut' });
    r.actor.send({ type: 'import.confirm' });
    await settle();
    expect(r.calls.adds.map((a) => a.body.exclude)).toEqual([[], [12, 40]]);
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().value).toBe('added');
  });

  it('asks the server to stop after the current batch and ends cancelled with what was added', async () => {
    const r = run({ jobs: [viewOf('parsed'), viewOf('adding', { chosenCount: 248, done: 500, total: 248 }), viewOf('cancelled', { chosenCount: 248, addedCount: 500 })] });
    await confirmFirstRead(r);
    r.actor.send({ type: 'add.cancel' });
    await settle();
    expect(r.calls.cancels).toEqual([{ importId: IMPORT }]);
    expect(r.snapshot().matches({ following: { stop: 'requested' } })).toBe(true);
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().matches({ following: { stop: 'requested' } })).toBe(true);
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().value).toBe('cancelled');
    expect(r.snapshot().context.job?.addedCount).toBe(500);
  });

  it('drops the answer of a page the user has already left for another filter', async () => {
    const answers = [deferred<RowsPage>(), deferred<RowsPage>()];
    let asked = 0;
    const r = run({ jobs: [viewOf('parsed')], page: () => answers[asked++]!.promise });
    r.actor.send({ type: 'file.selected', file });
    await settle();
    await r.after(IMPORT_POLL_MS);
    r.actor.send({ type: 'filter.change', filter: 'flagged' });
    const flagged = { items: [rowOf(3, { errors: ['Marker D99S999 is invalid'] })], count: 2 };
    answers[0]!.resolve(firstPage);
    answers[1]!.resolve(flagged);
    await settle();
    expect(r.calls.pages.map((p) => p.filter)).toEqual(['all', 'flagged']);
    expect(r.snapshot().context).toMatchObject({ filter: 'flagged', rows: flagged.items, rowCount: 2 });
  });

  it('lists the unfinished imports on arrival; Continue on an interrupted one, then Resume, follows it to added', async () => {
    const interrupted = jobOf('interrupted', { chosenCount: 248, addedCount: 500, message: 'The server stopped while adding the profiles.' });
    const r = run({ lists: [[interrupted]], jobs: [viewOf('interrupted', { chosenCount: 248, addedCount: 500 }), viewOf('added', { chosenCount: 248, addedCount: 248 })] });
    await settle();
    expect(r.calls.lists).toBe(1);
    expect(r.snapshot().value).toEqual({ choosing: 'listed' });
    r.actor.send({ type: 'unfinished.continue', importId: IMPORT });
    await settle();
    expect(r.calls.reads).toBe(1);
    expect(r.snapshot().value).toBe('interrupted');
    r.actor.send({ type: 'job.resume' });
    await settle();
    expect(r.calls.resumes).toEqual([{ importId: IMPORT }]);
    expect(r.snapshot().value).toEqual(FOLLOWING);
    await r.after(IMPORT_POLL_MS);
    expect(r.snapshot().value).toBe('added');
  });

  it('still lets a file be chosen when the list fails to load', async () => {
    const r = run({ jobs: [viewOf('parsed')] });
    await settle();
    expect(r.snapshot().value).toEqual({ choosing: 'listFailed' });
    r.actor.send({ type: 'file.selected', file });
    await settle();
    expect(r.calls.uploads).toEqual([{ file, caseId: CASE }]);
    expect(r.snapshot().value).toEqual(FOLLOWING);
  });

  it('discards a listed import and lists again without it', async () => {
    const r = run({ lists: [[jobOf('parsed')], []], jobs: [viewOf('parsed')] });
    await settle();
    r.actor.send({ type: 'unfinished.discard', importId: IMPORT });
    expect(r.snapshot().context.unfinished).toEqual([]);
    await settle();
    expect(r.calls.discards).toEqual([{ importId: IMPORT }]);
    expect(r.calls.lists).toBe(2);
    expect(r.snapshot().value).toEqual({ choosing: 'listed' });
  });

  it('after a failed reading, another file discards the failed import without waiting and is uploaded', async () => {
    let uploads = 0;
    const r = run({ lists: [[]], jobs: [viewOf('parsing')], upload: async () => (uploads++ === 0 ? viewOf('failed', { message: 'no header row' }) : viewOf('parsing', { id: '4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d' })) });
    await settle();
    r.actor.send({ type: 'file.selected', file });
    await settle();
    expect(r.snapshot().value).toBe('parseFailed');
    r.actor.send({ type: 'file.selected', file });
    expect(r.calls.quietDiscards).toEqual([{ importId: IMPORT }]);
    await settle();
    expect(r.calls.uploads).toHaveLength(2);
    expect(r.snapshot().value).toEqual(FOLLOWING);
  });
});
