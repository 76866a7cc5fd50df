import { assign, type DoneActorEvent, type ErrorActorEvent, type EventObject } from 'xstate';
import { toEditorError, type EditorError } from './recordEditor.machine';

// The chart a calculator's run shares (analysisRun, continuousRun): editing, Run checking the choices (validating),
// the request on its way (running, cancellable), its result or its failure. The choices stay editable in every
// state but running. A machine spreads these states into its own and names in its setup the guard `hasBlockers` and
// the actions `showBlockers`, `hideBlockers`, `keepResult`, `keepError` and `clearError`.

/** A state's `on` map: the machine's own transitions for changing a choice. */
type Choices = Record<string, unknown>;

/**
 * The run's states: `choices` is the machine's table of choice changes (each targeting its own editing state by id),
 * `src` the actor that runs and `input` what it is given.
 */
export function runStates<C extends Choices, S extends string, I>(choices: C, src: S, input: I) {
  return {
    editing: { on: { ...choices, 'run.start': 'validating' as const } },
    /** Run was pressed: missing choices keep the user editing, with the reasons shown. */
    validating: {
      always: [
        { guard: 'hasBlockers' as const, target: 'editing' as const, actions: 'showBlockers' as const },
        { target: 'running' as const, actions: 'hideBlockers' as const },
      ],
    },
    running: {
      tags: 'busy' as const,
      invoke: { src, input, onDone: { target: 'result' as const, actions: 'keepResult' as const }, onError: { target: 'error' as const, actions: 'keepError' as const } },
      // Leaving the state stops the actor, whose signal aborts the request.
      on: { 'run.cancel': 'editing' as const },
    },
    result: { on: { ...choices, 'run.start': 'validating' as const } },
    /** The run failed (a refusal names its reason): the choices stay. */
    error: {
      on: {
        ...choices,
        'run.retry': { target: 'validating' as const, actions: 'clearError' as const },
        'failure.dismiss': { target: 'editing' as const, actions: 'clearError' as const },
      },
    },
  };
}

/** What a run keeps: its result, its failure, and whether Run's list of missing choices shows. */
export interface RunContext<R> {
  result: R | null;
  error: EditorError | null;
  showBlockers: boolean;
}

/** The actions `runStates` names, for a machine whose context is `C` and whose run gives `R`. */
export function runActions<C extends RunContext<R>, E extends EventObject, R>() {
  const set = (change: (event: unknown) => Partial<RunContext<R>>) => assign<C, E, undefined, E, never>(({ event }) => change(event) as Partial<C>);
  return {
    showBlockers: set(() => ({ showBlockers: true })),
    hideBlockers: set(() => ({ showBlockers: false })),
    keepResult: set((event) => ({ result: (event as DoneActorEvent<R>).output, error: null })),
    keepError: set((event) => ({ error: toEditorError((event as ErrorActorEvent).error), result: null })),
    clearError: set(() => ({ error: null })),
  };
}
