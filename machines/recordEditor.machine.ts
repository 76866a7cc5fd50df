import { assign, fromPromise, setup } from 'xstate';

/**
 * The life of one record on an edit screen (every admin form, later case and profile forms):
 * load it (unless it is new) → edit → save, or confirm and delete. A stale save (409) keeps the
 * user's input and says the record changed; nothing the user typed is lost on any error.
 * Pure: loading, saving and deleting are injected actors.
 */

/** Why a call failed, as the form shows it. `status` is the HTTP status, 0 when no response came. */
export interface EditorError {
  status: number;
  message: string;
}

export interface RecordEditorContext {
  /** null while adding a new record (spec 5: an id that is not a GUID is new). */
  id: string | null;
  record: unknown;
  /** The values of the last save attempt, kept so a failed save loses nothing. */
  draft: unknown;
  error: EditorError | null;
}

export type RecordEditorEvent =
  | { type: 'save'; values: unknown }
  | { type: 'delete' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'reload' }
  | { type: 'retry' };

export interface SaveRequest {
  id: string | null;
  record: unknown;
  values: unknown;
}

export const GENERIC_FAILURE = 'Your request failed. Please try again later.';

/** Turns whatever an actor rejected with into what the form says (ApiError has status and serverMessage). */
export function toEditorError(err: unknown): EditorError {
  const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : 0;
  const server = (err as { serverMessage?: unknown })?.serverMessage;
  return { status, message: typeof server === 'string' && server ? server : GENERIC_FAILURE };
}

export const recordEditorMachine = setup({
  types: {
    context: {} as RecordEditorContext,
    events: {} as RecordEditorEvent,
    input: {} as { id: string | null },
  },
  actors: {
    load: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('recordEditorMachine: provide a "load" actor');
    }),
    save: fromPromise<unknown, SaveRequest>(async () => {
      throw new Error('recordEditorMachine: provide a "save" actor');
    }),
    remove: fromPromise<void, { id: string; record: unknown }>(async () => {
      throw new Error('recordEditorMachine: provide a "remove" actor');
    }),
  },
  guards: {
    isNew: ({ context }) => context.id === null,
    isExisting: ({ context }) => context.id !== null,
  },
}).createMachine({
  id: 'recordEditor',
  context: ({ input }) => ({ id: input.id, record: null, draft: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'isNew', target: 'editing' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'editing', actions: assign({ record: ({ event }) => event.output, error: null }) },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    editing: {
      on: {
        save: { target: 'saving', actions: assign({ draft: ({ event }) => event.values, error: null }) },
        delete: { guard: 'isExisting', target: 'confirmingDelete' },
        // After a conflict the user reloads the current version (their draft stays in the form).
        reload: { guard: 'isExisting', target: 'loading' },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ id: context.id, record: context.record, values: context.draft }),
        onDone: { target: 'saved', actions: assign({ record: ({ event }) => event.output }) },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    confirmingDelete: {
      on: { 'delete.confirm': 'deleting', 'delete.cancel': 'editing' },
    },
    deleting: {
      invoke: {
        src: 'remove',
        input: ({ context }) => ({ id: context.id!, record: context.record }),
        onDone: 'deleted',
        onError: { target: 'editing', actions: assign({ error: ({ event }) => toEditorError(event.error) }) },
      },
    },
    saved: { type: 'final' },
    deleted: { type: 'final' },
  },
});

/** A 409 on save: someone else changed the record (ARCHITECTURE.md optimistic locking). */
export const isConflict = (error: EditorError | null): boolean => error?.status === 409;
