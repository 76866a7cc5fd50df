import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import type { ImportedProfile, ProfileImportResult } from '../../../core/schemas/profiles';
import type { ChosenFile } from '../../../machines/populationUpload.machine';
import {
  ImportCallError,
  commonSampleType,
  confirmBlockers,
  initialImportContext,
  profileImportMachine,
  toImportError,
  type AddProfilesRequest,
  type AddedProfiles,
  type ParseRequest,
  type ParsedImport,
  type ProfileImportContext,
} from '../../../machines/profileImport.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const GLOBALFILER = '3f1c2a8e-5b7d-4e3f-9a10-2c4d6e8f0a1b';
const LAB = '5a2b3c4d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
const D3S1358 = '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c';
const file: ChosenFile = new File(['specimenId,D3S1358_1,D3S1358_2\n'], 'database_codis.csv');

// Two samples of shared/data/formats/cmf/database_codis_2records_utf8withBOM.csv, and one the parser refused.
const profileOf = (profileId: string, errors: string[] = [], sampleType: ImportedProfile['sampleType'] = 'Suspect, Known'): ImportedProfile => ({
  profileId,
  kind: 'Autosomal',
  kit: null,
  sampleType,
  markerValues: [{ markerId: D3S1358, marker: 'D3S1358', alleles: ['16', '16'] }],
  errors,
});
const suspect = profileOf('suspect');
const reference = profileOf('ABCD1234NL#01');
const broken = profileOf('broken', ['Marker D99S999 is invalid']);

const resultOf = (profiles: ImportedProfile[], suggestedChemistryId: string | null = GLOBALFILER): ProfileImportResult => ({
  fileName: file.name,
  format: 'CODIS CSV',
  profiles,
  errors: [],
  warnings: [],
  suggestedChemistryId,
  approvalExpiresAt: '2026-03-01T12:30:00.000Z',
});
const parsedResult = resultOf([suspect, reference, broken]);
const ready = {
  file,
  result: parsedResult,
  token: 'token-1',
  include: [0, 1],
  assignment: { ...initialImportContext().assignment, chemistryId: GLOBALFILER, sampleType: 'Suspect, Known' as const },
};

type Snapshot = SnapshotFrom<typeof profileImportMachine>;

/** A snapshot in `value` with `context`, without running any actor. */
function at(value: StateValue, context: Partial<ProfileImportContext> = {}): Snapshot {
  return profileImportMachine.resolveState({ value, context: { ...initialImportContext(), ...context } });
}

/** Runs the machine with fake calls answering from the given functions, recording what they were asked. */
function start(calls: { parse?: (r: ParseRequest) => Promise<ParsedImport>; add?: (r: AddProfilesRequest) => Promise<AddedProfiles> } = {}) {
  const parses: ParseRequest[] = [];
  const adds: AddProfilesRequest[] = [];
  const logic = profileImportMachine.provide({
    actors: {
      parseFile: fromPromise(async ({ input }: { input: ParseRequest }) => {
        parses.push(input);
        return calls.parse ? calls.parse(input) : { result: parsedResult, token: `token-${parses.length}` };
      }),
      addProfiles: fromPromise(async ({ input }: { input: AddProfilesRequest }) => {
        adds.push(input);
        return calls.add ? calls.add(input) : { added: input.include.length };
      }),
    },
  });
  const actor = createActor(logic).start();
  return { actor, parses, adds, snapshot: () => actor.getSnapshot() };
}

const expired = () => new ImportCallError('The approval of this import has expired. Parse the file again, then confirm.', 400, 'expired');

describe('profileImport machine: pure transitions', () => {
  it('starts choosing, with no file, no profiles and nothing to confirm', () => {
    const [snapshot] = initialTransition(profileImportMachine);
    expect(snapshot.value).toBe('choosing');
    expect(snapshot.context).toEqual(initialImportContext());
    expect(snapshot.can({ type: 'import.confirm' })).toBe(false);
  });

  it('parses a chosen file, forgetting the error of the previous one', () => {
    const [snapshot] = transition(profileImportMachine, at('choosing', { error: { status: 413, message: 'The file is too large' } }), { type: 'file.selected', file });
    expect(snapshot.value).toBe('parsing');
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context).toMatchObject({ file, error: null });
  });

  it('goes back to choosing, without the file, when the parse is cancelled', () => {
    const [snapshot] = transition(profileImportMachine, at('parsing', { file }), { type: 'parse.cancel' });
    expect(snapshot.value).toBe('choosing');
    expect(snapshot.context).toEqual(initialImportContext());
  });

  it('takes a profile out and back in, keeping the chosen indices in file order', () => {
    const [without] = transition(profileImportMachine, at('parsed', ready), { type: 'profile.toggle', index: 0 });
    expect(without.context.include).toEqual([1]);
    const [back] = transition(profileImportMachine, without, { type: 'profile.toggle', index: 0 });
    expect(back.context.include).toEqual([0, 1]);
  });

  it('refuses to take in a profile with errors, or one the file does not hold', () => {
    const parsed = at('parsed', ready);
    expect(parsed.can({ type: 'profile.toggle', index: 2 })).toBe(false);
    expect(parsed.can({ type: 'profile.toggle', index: 3 })).toBe(false);
    const [unchanged] = transition(profileImportMachine, parsed, { type: 'profile.toggle', index: 2 });
    expect(unchanged.context.include).toEqual([0, 1]);
  });

  it('merges each assignment change into what the user filled in', () => {
    const [first] = transition(profileImportMachine, at('parsed', ready), { type: 'assignment.change', patch: { laboratoryId: LAB } });
    const [second] = transition(profileImportMachine, first, { type: 'assignment.change', patch: { comments: 'Batch 7', sampleType: 'Reference' } });
    expect(second.context.assignment).toEqual({
      chemistryId: GLOBALFILER,
      sampleType: 'Reference',
      sampleSourceId: null,
      physicalItemId: null,
      laboratoryId: LAB,
      comments: 'Batch 7',
    });
  });

  it('confirms only with a profile chosen, none with errors, a chemistry and a sample type (guard canConfirm)', () => {
    const cases: [Partial<ProfileImportContext>, string[]][] = [
      [{}, []],
      [{ include: [] }, ['Choose at least one profile']],
      [{ include: [0, 2] }, ['Profile broken has errors and cannot be added']],
      [{ include: [7] }, ['Profile number 8 is not part of this import']],
      [{ assignment: { ...ready.assignment, chemistryId: null } }, ['Choose a chemistry']],
      [{ assignment: { ...ready.assignment, sampleType: null } }, ['Choose a sample type']],
      [{ include: [], assignment: initialImportContext().assignment }, ['Choose at least one profile', 'Choose a chemistry', 'Choose a sample type']],
    ];
    for (const [patch, blockers] of cases) {
      const snapshot = at('parsed', { ...ready, ...patch });
      expect(confirmBlockers(snapshot.context), JSON.stringify(patch)).toEqual(blockers);
      expect(snapshot.can({ type: 'import.confirm' }), JSON.stringify(patch)).toBe(blockers.length === 0);
    }
    const [confirming] = transition(profileImportMachine, at('parsed', ready), { type: 'import.confirm' });
    expect(confirming.value).toBe('confirming');
    expect(confirming.hasTag('busy')).toBe(true);
  });

  it('pre-fills the sample type only when every parsed profile names the same one', () => {
    expect(commonSampleType([suspect, reference])).toBe('Suspect, Known');
    expect(commonSampleType([suspect, profileOf('victim', [], 'Victim, Known')])).toBeNull();
    expect(commonSampleType([suspect, profileOf('unnamed', [], null)])).toBeNull();
    expect(commonSampleType([])).toBeNull();
  });

  it('after a failed add, sends it again, goes back to the choices, or starts over', () => {
    const failed = at('failed', { ...ready, error: { status: 500, message: GENERIC_FAILURE } });
    const [retry] = transition(profileImportMachine, failed, { type: 'add.retry' });
    expect(retry.value).toBe('confirming');
    expect(retry.context.error).toBeNull();
    const [back] = transition(profileImportMachine, failed, { type: 'failure.dismiss' });
    expect(back.value).toBe('parsed');
    expect(back.context).toMatchObject({ file, result: parsedResult, token: 'token-1', include: [0, 1], assignment: ready.assignment, error: null });
    const [over] = transition(profileImportMachine, failed, { type: 'import.startOver' });
    expect(over.value).toBe('choosing');
    expect(over.context).toEqual(initialImportContext());
  });

  it('after an expired approval, parses the same file again (cancellable back to the expiry) or starts over', () => {
    const expiredAt = at('tokenExpired', { ...ready, error: toImportError(expired()) });
    const [again] = transition(profileImportMachine, expiredAt, { type: 'file.parseAgain' });
    expect(again.value).toBe('reparsing');
    expect(again.hasTag('busy')).toBe(true);
    const [cancelled] = transition(profileImportMachine, again, { type: 'parse.cancel' });
    expect(cancelled.value).toBe('tokenExpired');
    expect(cancelled.context.assignment).toEqual(ready.assignment);
    const [over] = transition(profileImportMachine, expiredAt, { type: 'import.startOver' });
    expect(over.context).toEqual(initialImportContext());
  });

  it('offers another file after the profiles were added, starting from nothing', () => {
    const [snapshot] = transition(profileImportMachine, at('added', { ...ready, added: 2 }), { type: 'import.startOver' });
    expect(snapshot.value).toBe('choosing');
    expect(snapshot.context).toEqual(initialImportContext());
  });

  it('starts a new import when another file is chosen outside a call', () => {
    const other: ChosenFile = new File(['<CODISImportFile/>'], 'Codis-Single-Profile.xml');
    for (const value of ['parsed', 'failed', 'tokenExpired', 'added'] as const) {
      const [snapshot] = transition(profileImportMachine, at(value, { ...ready, added: 2, error: { status: 400, message: 'x' } }), { type: 'file.selected', file: other });
      expect(snapshot.value, value).toBe('parsing');
      expect(snapshot.context, value).toEqual({ ...initialImportContext(), file: other });
    }
    for (const value of ['parsing', 'confirming', 'reparsing'] as const) expect(at(value, ready).can({ type: 'file.selected', file: other }), value).toBe(false);
  });

  it('ignores events that make no sense in a state', () => {
    expect(at('choosing').can({ type: 'import.confirm' })).toBe(false);
    expect(at('choosing').can({ type: 'parse.cancel' })).toBe(false);
    expect(at('parsing', { file }).can({ type: 'import.startOver' })).toBe(false);
    expect(at('parsed', ready).can({ type: 'file.parseAgain' })).toBe(false);
    expect(at('parsed', ready).can({ type: 'add.retry' })).toBe(false);
    // While adding, the server may already be writing: nothing changes what is sent.
    for (const event of [{ type: 'import.startOver' }, { type: 'profile.toggle', index: 0 }, { type: 'assignment.change', patch: { comments: 'x' } }] as const) {
      expect(at('confirming', ready).can(event)).toBe(false);
    }
    expect(at('failed', ready).can({ type: 'profile.toggle', index: 0 })).toBe(false);
    expect(at('tokenExpired', ready).can({ type: 'import.confirm' })).toBe(false);
  });
});

describe('toImportError', () => {
  it('keeps the message, status and refusal of an ImportCallError', () => {
    expect(toImportError(expired())).toEqual({ status: 400, message: 'The approval of this import has expired. Parse the file again, then confirm.', approval: 'expired' });
    expect(toImportError(new ImportCallError('The file is too large', 413))).toEqual({ status: 413, message: 'The file is too large' });
    expect(toImportError(new ImportCallError(''))).toEqual({ status: 0, message: GENERIC_FAILURE });
  });

  it('reads the refusal from an API error body (details.approval) and ignores unknown ones', () => {
    const apiError = (approval: unknown) => ({ status: 400, serverMessage: 'Nothing was added.', body: { error: 'Nothing was added.', details: { approval } } });
    expect(toImportError(apiError('foreign'))).toEqual({ status: 400, message: 'Nothing was added.', approval: 'foreign' });
    expect(toImportError(apiError('stale'))).toEqual({ status: 400, message: 'Nothing was added.' });
  });

  it('says the request failed when no answer came', () => {
    expect(toImportError(new TypeError('fetch failed'))).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});

describe('profileImport machine: calls and their outcomes', () => {
  it('parses a file, chooses the profiles without errors, pre-fills the kit and sample type, and adds them with the token', async () => {
    const { actor, parses, adds, snapshot } = start();
    actor.send({ type: 'file.selected', file });
    await waitFor(actor, (s) => s.matches('parsed'));
    expect(parses).toEqual([{ file }]);
    expect(snapshot().context).toMatchObject({ result: parsedResult, token: 'token-1', include: [0, 1] });
    expect(snapshot().context.assignment).toMatchObject({ chemistryId: GLOBALFILER, sampleType: 'Suspect, Known' });
    actor.send({ type: 'assignment.change', patch: { laboratoryId: LAB, comments: 'From the CODIS export' } });
    actor.send({ type: 'profile.toggle', index: 1 });
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('added'));
    expect(adds).toEqual([
      {
        token: 'token-1',
        result: parsedResult,
        include: [0],
        assignment: { chemistryId: GLOBALFILER, sampleType: 'Suspect, Known', sampleSourceId: null, physicalItemId: null, laboratoryId: LAB, comments: 'From the CODIS export' },
      },
    ]);
    expect(snapshot().context.added).toBe(1);
  });

  it('leaves the kit and sample type to the user when the file suggests none', async () => {
    const mixed = resultOf([suspect, profileOf('victim', [], 'Victim, Known')], null);
    const { actor, snapshot } = start({ parse: async () => ({ result: mixed, token: 't' }) });
    actor.send({ type: 'file.selected', file });
    await waitFor(actor, (s) => s.matches('parsed'));
    expect(snapshot().context.assignment).toMatchObject({ chemistryId: null, sampleType: null });
    expect(confirmBlockers(snapshot().context)).toEqual(['Choose a chemistry', 'Choose a sample type']);
  });

  it('returns to choosing with the server message when the file is refused', async () => {
    const { actor, snapshot } = start({ parse: () => Promise.reject(new ImportCallError('The file is larger than 20 MB', 413)) });
    actor.send({ type: 'file.selected', file });
    await waitFor(actor, (s) => s.matches('choosing'));
    expect(snapshot().context).toEqual({ ...initialImportContext(), error: { status: 413, message: 'The file is larger than 20 MB' } });
  });

  it('on an expired approval, parses the same file again and keeps the choices, then adds with the new token', async () => {
    let attempt = 0;
    const { actor, parses, adds, snapshot } = start({ add: async (r) => (++attempt === 1 ? Promise.reject(expired()) : { added: r.include.length }) });
    actor.send({ type: 'file.selected', file });
    await waitFor(actor, (s) => s.matches('parsed'));
    actor.send({ type: 'assignment.change', patch: { sampleType: 'Reference', laboratoryId: LAB } });
    actor.send({ type: 'profile.toggle', index: 0 });
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('tokenExpired'));
    expect(snapshot().context.error).toMatchObject({ status: 400, approval: 'expired' });
    actor.send({ type: 'file.parseAgain' });
    await waitFor(actor, (s) => s.matches('parsed'));
    expect(parses).toEqual([{ file }, { file }]);
    expect(snapshot().context).toMatchObject({ token: 'token-2', include: [1], error: null });
    expect(snapshot().context.assignment).toMatchObject({ chemistryId: GLOBALFILER, sampleType: 'Reference', laboratoryId: LAB });
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('added'));
    expect(adds.map((a) => [a.token, a.include])).toEqual([
      ['token-1', [1]],
      ['token-2', [1]],
    ]);
  });

  /** Parses `parsedResult`, has its approval expire on Confirm, then parses again with `second`. */
  async function parseAgainAfterExpiry(second: () => Promise<ParsedImport>) {
    let parse = 0;
    const run = start({ parse: async () => (++parse === 1 ? { result: parsedResult, token: 'a' } : second()), add: () => Promise.reject(expired()) });
    run.actor.send({ type: 'file.selected', file });
    await waitFor(run.actor, (s) => s.matches('parsed'));
    run.actor.send({ type: 'import.confirm' });
    await waitFor(run.actor, (s) => s.matches('tokenExpired'));
    run.actor.send({ type: 'file.parseAgain' });
    return run;
  }

  it('drops a chosen profile that has errors when the file is parsed again', async () => {
    const changed = resultOf([suspect, profileOf('ABCD1234NL#01', ['Marker vWA has 5 alleles'])]);
    const { actor, snapshot } = await parseAgainAfterExpiry(async () => ({ result: changed, token: 'b' }));
    await waitFor(actor, (s) => s.matches('parsed'));
    expect(snapshot().context.include).toEqual([0]);
  });

  it('stays on the expired approval with the new message when parsing again fails', async () => {
    const { actor, snapshot } = await parseAgainAfterExpiry(() => Promise.reject(new TypeError('fetch failed')));
    await waitFor(actor, (s) => s.matches('tokenExpired') && s.context.error?.status === 0);
    expect(snapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    expect(snapshot().context.result).toBe(parsedResult);
  });

  it('fails with the server message on any other refusal, keeping the choices, and adds on retry', async () => {
    let attempt = 0;
    const mismatch = new ImportCallError('The profiles sent differ from what the import parsed. Nothing was added.', 400, 'mismatch');
    const { actor, adds, snapshot } = start({ add: async () => (++attempt === 1 ? Promise.reject(mismatch) : { added: 2 }) });
    actor.send({ type: 'file.selected', file });
    await waitFor(actor, (s) => s.matches('parsed'));
    actor.send({ type: 'import.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot().context).toMatchObject({ include: [0, 1], error: { status: 400, approval: 'mismatch', message: mismatch.message } });
    actor.send({ type: 'add.retry' });
    await waitFor(actor, (s) => s.matches('added'));
    expect(adds).toHaveLength(2);
    expect(snapshot().context).toMatchObject({ added: 2, error: null });
  });

  it('drops the answer of a parse that was cancelled', async () => {
    let answer: (parsed: ParsedImport) => void = () => undefined;
    const { actor, snapshot } = start({ parse: () => new Promise((resolve) => (answer = resolve)) });
    actor.send({ type: 'file.selected', file });
    actor.send({ type: 'parse.cancel' });
    answer({ result: parsedResult, token: 'late' });
    await Promise.resolve();
    expect(snapshot().value).toBe('choosing');
    expect(snapshot().context.result).toBeNull();
  });

  it('refuses to run without real calls (the actors must be provided)', async () => {
    const actor = createActor(profileImportMachine).start();
    actor.send({ type: 'file.selected', file });
    await waitFor(actor, (s) => s.matches('choosing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});
