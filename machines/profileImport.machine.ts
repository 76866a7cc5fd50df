import { assertEvent, assign, fromPromise, setup } from 'xstate';
import {
  APPROVAL_REFUSALS,
  type ApprovalRefusal,
  type ImportedProfile,
  type ProfileAssignment,
  type ProfileImportResult,
  type SampleType,
} from '../core/schemas/profiles';
import type { ChosenFile } from './populationUpload.machine';
import { GENERIC_FAILURE, toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Importing profile files into a case (issue 4; ARCHITECTURE.md "Calls"): choose a file, see the
 * profiles the server parsed with each one's errors, pick which to add and how to assign them, then
 * confirm. The parse returns an approval token that the add sends back; the server refuses changed
 * content, an expired token or another user's. An expired token is recovered by parsing the same
 * file again, keeping what the user chose. Pure: parsing and adding are injected actors.
 */

/** Where the imported profiles go, as the user fills it in: the case comes from the screen; chemistry and sample type stay null until chosen. */
export type ImportAssignment = Omit<ProfileAssignment, 'caseId' | 'chemistryId' | 'sampleType'> & {
  chemistryId: string | null;
  sampleType: SampleType | null;
};

/** The assignment once Confirm is allowed: every required field set. */
export type CompleteAssignment = Omit<ProfileAssignment, 'caseId'>;

export interface ParseRequest {
  file: ChosenFile;
}

/** What `parseFile` resolves to: the parsed file and the `Approval-Token` response header. */
export interface ParsedImport {
  result: ProfileImportResult;
  token: string;
}

export interface AddProfilesRequest {
  token: string;
  /** The profiles exactly as parsed: the server checks them against the token. */
  result: ProfileImportResult;
  /** Indices into `result.profiles`, ascending. */
  include: number[];
  assignment: CompleteAssignment;
}

export interface AddedProfiles {
  added: number;
}

/** Why a call failed, plus why the server refused the approval token (400 `details.approval`), if it did. */
export interface ImportError extends EditorError {
  approval?: ApprovalRefusal;
}

/**
 * What the parse and add actors reject with, so the screen shows the server's message and the
 * machine can tell an expired approval from other refusals. `status` 0: no response came.
 */
export class ImportCallError extends Error {
  override readonly name = 'ImportCallError';

  constructor(
    message: string,
    readonly status = 0,
    readonly approval?: ApprovalRefusal,
  ) {
    super(message);
  }
}

const isRefusal = (value: unknown): value is ApprovalRefusal => (APPROVAL_REFUSALS as readonly unknown[]).includes(value);

/** Turns what an actor rejected with into what the screen shows: an ImportCallError as is, an ApiError by its status, message and `details.approval`. */
export function toImportError(err: unknown): ImportError {
  const base =
    err instanceof ImportCallError ? { status: err.status, message: err.message || GENERIC_FAILURE } : toEditorError(err);
  const approval = err instanceof ImportCallError ? err.approval : (err as { body?: { details?: { approval?: unknown } } })?.body?.details?.approval;
  return isRefusal(approval) ? { ...base, approval } : base;
}

export interface ProfileImportContext {
  file: ChosenFile | null;
  result: ProfileImportResult | null;
  token: string | null;
  /** The profiles chosen to add, by index into `result.profiles`, ascending. */
  include: number[];
  assignment: ImportAssignment;
  error: ImportError | null;
  /** How many profiles the last confirmation added. */
  added: number | null;
}

export type ProfileImportEvent =
  /** A file was picked (or dropped); outside a call it replaces the current import. */
  | { type: 'file.selected'; file: ChosenFile }
  /** Stop waiting for the parse (back to choosing, or to the expired approval when parsing again). */
  | { type: 'parse.cancel' }
  /** Include or leave out one parsed profile; a profile with errors cannot be included. */
  | { type: 'profile.toggle'; index: number }
  | { type: 'assignment.change'; patch: Partial<ImportAssignment> }
  | { type: 'import.confirm' }
  /** Send the same confirmation again after a failure. */
  | { type: 'add.retry' }
  /** Back from a failed confirmation to the parsed profiles, choices kept. */
  | { type: 'failure.dismiss' }
  /** The approval expired: parse the same file again for a fresh token. */
  | { type: 'file.parseAgain' }
  /** Back to choosing a file, forgetting the file, the profiles and the choices. */
  | { type: 'import.startOver' };

/** Tags the view asks with hasTag: `busy` while a call runs. */
export type ProfileImportTag = 'busy';

const EMPTY_ASSIGNMENT: ImportAssignment = {
  chemistryId: null,
  sampleType: null,
  sampleSourceId: null,
  physicalItemId: null,
  laboratoryId: null,
  comments: '',
};

/** The context before a file is chosen, and after starting over. */
export const initialImportContext = (): ProfileImportContext => ({
  file: null,
  result: null,
  token: null,
  include: [],
  assignment: EMPTY_ASSIGNMENT,
  error: null,
  added: null,
});

const hasErrors = (profile: ImportedProfile): boolean => profile.errors.length > 0;

/** Indices of the profiles that may be added: those without errors (the default choice). */
export function addableIndices(result: ProfileImportResult): number[] {
  return result.profiles.flatMap((p, i) => (hasErrors(p) ? [] : [i]));
}

/** The sample type every parsed profile names, or null when they differ or one names none. */
export function commonSampleType(profiles: readonly ImportedProfile[]): SampleType | null {
  const first = profiles[0]?.sampleType ?? null;
  return profiles.every((p) => p.sampleType === first) ? first : null;
}

/** What keeps Confirm from being offered, worded for the screen; empty when the import may be confirmed. */
export function confirmBlockers(context: Pick<ProfileImportContext, 'result' | 'include' | 'assignment'>): string[] {
  const blockers: string[] = [];
  if (context.include.length === 0) blockers.push('Choose at least one profile');
  for (const index of context.include) {
    const profile = context.result?.profiles[index];
    if (!profile) blockers.push(`Profile number ${index + 1} is not part of this import`);
    else if (hasErrors(profile)) blockers.push(`Profile ${profile.profileId} has errors and cannot be added`);
  }
  if (!context.assignment.chemistryId) blockers.push('Choose a chemistry');
  if (!context.assignment.sampleType) blockers.push('Choose a sample type');
  return blockers;
}

/** The add call's input; only called once confirmBlockers is empty, so the required fields are set. */
function addRequest(context: ProfileImportContext): AddProfilesRequest {
  const { chemistryId, sampleType, ...rest } = context.assignment;
  return { token: context.token!, result: context.result!, include: context.include, assignment: { ...rest, chemistryId: chemistryId!, sampleType: sampleType! } };
}

const notProvided = async (): Promise<never> => {
  throw new Error('profileImportMachine: provide this actor (the profile import screen)');
};

export const profileImportMachine = setup({
  types: {
    context: {} as ProfileImportContext,
    events: {} as ProfileImportEvent,
    tags: {} as ProfileImportTag,
  },
  actors: {
    parseFile: fromPromise<ParsedImport, ParseRequest>(notProvided),
    addProfiles: fromPromise<AddedProfiles, AddProfilesRequest>(notProvided),
  },
  guards: {
    canConfirm: ({ context }) => confirmBlockers(context).length === 0,
    /** Leaving a profile out is always allowed; taking one in only when it exists and has no errors. */
    canToggle: ({ context, event }) => {
      assertEvent(event, 'profile.toggle');
      if (context.include.includes(event.index)) return true;
      const profile = context.result?.profiles[event.index];
      return profile !== undefined && !hasErrors(profile);
    },
    approvalExpired: (_, params: { error: unknown }) => toImportError(params.error).approval === 'expired',
  },
  actions: {
    // A new file starts a new import: nothing of the previous one is kept.
    storeFile: assign(({ event }) => {
      assertEvent(event, 'file.selected');
      return { ...initialImportContext(), file: event.file };
    }),
    // First parse: every profile without errors is chosen, and what the file says fills in the assignment.
    storeParsed: assign((_, params: { parsed: ParsedImport }) => {
      const { result, token } = params.parsed;
      const assignment = { ...EMPTY_ASSIGNMENT, chemistryId: result.suggestedChemistryId, sampleType: commonSampleType(result.profiles) };
      return { result, token, include: addableIndices(result), assignment, error: null };
    }),
    // Parsed again for a fresh token: the user's choices stay, limited to what may still be added.
    storeReparsed: assign(({ context }, params: { parsed: ParsedImport }) => {
      const { result, token } = params.parsed;
      const addable = new Set(addableIndices(result));
      return { result, token, include: context.include.filter((i) => addable.has(i)), error: null };
    }),
    toggleProfile: assign({
      include: ({ context, event }) => {
        assertEvent(event, 'profile.toggle');
        const without = context.include.filter((i) => i !== event.index);
        return without.length < context.include.length ? without : [...without, event.index].sort((a, b) => a - b);
      },
    }),
    changeAssignment: assign({
      assignment: ({ context, event }) => {
        assertEvent(event, 'assignment.change');
        return { ...context.assignment, ...event.patch };
      },
    }),
    storeError: assign((_, params: { error: unknown }) => ({ error: toImportError(params.error) })),
    clearError: assign({ error: null }),
    startOver: assign(() => initialImportContext()),
  },
}).createMachine({
  id: 'profileImport',
  context: initialImportContext,
  initial: 'choosing',
  states: {
    /** No file yet; a parse refused by the server shows its message here. */
    choosing: {
      on: { 'file.selected': { target: 'parsing', actions: 'storeFile' } },
    },
    parsing: {
      tags: ['busy'],
      on: { 'parse.cancel': { target: 'choosing', actions: 'startOver' } },
      invoke: {
        src: 'parseFile',
        input: ({ context }) => ({ file: context.file! }),
        onDone: { target: 'parsed', actions: { type: 'storeParsed', params: ({ event }) => ({ parsed: event.output }) } },
        // The server refused the file (400 unreadable, 413 too large): choose another.
        onError: { target: 'choosing', actions: ['startOver', { type: 'storeError', params: ({ event }) => ({ error: event.error }) }] },
      },
    },
    /** The parsed profiles with their errors; the user picks profiles and fills in the assignment. */
    parsed: {
      on: {
        'profile.toggle': { guard: 'canToggle', actions: 'toggleProfile' },
        'assignment.change': { actions: 'changeAssignment' },
        'import.confirm': { guard: 'canConfirm', target: 'confirming' },
        'import.startOver': { target: 'choosing', actions: 'startOver' },
        'file.selected': { target: 'parsing', actions: 'storeFile' },
      },
    },
    /** Adding the chosen profiles with the approval token. No cancel: the server may already be adding them. */
    confirming: {
      tags: ['busy'],
      invoke: {
        src: 'addProfiles',
        input: ({ context }) => addRequest(context),
        onDone: { target: 'added', actions: assign({ added: ({ event }) => event.output.added, error: null }) },
        onError: [
          {
            guard: { type: 'approvalExpired', params: ({ event }) => ({ error: event.error }) },
            target: 'tokenExpired',
            actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    /** Done: the screen offers to import another file. */
    added: {
      on: {
        'import.startOver': { target: 'choosing', actions: 'startOver' },
        'file.selected': { target: 'parsing', actions: 'storeFile' },
      },
    },
    /** The add was refused or failed; the file, profiles and choices are kept. */
    failed: {
      on: {
        'add.retry': { target: 'confirming', actions: 'clearError' },
        'failure.dismiss': { target: 'parsed', actions: 'clearError' },
        'import.startOver': { target: 'choosing', actions: 'startOver' },
        'file.selected': { target: 'parsing', actions: 'storeFile' },
      },
    },
    /** The approval token expired before the confirmation: parse the same file again for a new one. */
    tokenExpired: {
      on: {
        'file.parseAgain': 'reparsing',
        'import.startOver': { target: 'choosing', actions: 'startOver' },
        'file.selected': { target: 'parsing', actions: 'storeFile' },
      },
    },
    reparsing: {
      tags: ['busy'],
      on: { 'parse.cancel': 'tokenExpired' },
      invoke: {
        src: 'parseFile',
        input: ({ context }) => ({ file: context.file! }),
        onDone: { target: 'parsed', actions: { type: 'storeReparsed', params: ({ event }) => ({ parsed: event.output }) } },
        // Still expired as far as the user can tell: they may parse again or start over.
        onError: { target: 'tokenExpired', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
