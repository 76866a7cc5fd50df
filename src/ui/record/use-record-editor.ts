import { useMemo, useRef } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { isGuid } from '../../../core/guid';
import { recordEditorMachine, type EditorError, type SaveRequest } from '../../../machines/recordEditor.machine';

export interface RecordEditorCalls<R, V> {
  load(id: string): Promise<R>;
  save(request: { id: string | null; record: R | null; values: V }): Promise<R>;
  remove?(request: { id: string; record: R }): Promise<void>;
}

export interface RecordEditor<R, V> {
  status: 'loading' | 'loadFailed' | 'editing' | 'saving' | 'confirmingDelete' | 'deleting' | 'saved' | 'deleted' | 'starting';
  isNew: boolean;
  record: R | null;
  /** The values of the last save attempt (a failed save keeps them in the form). */
  draft: V | null;
  error: EditorError | null;
  save(values: V): void;
  askDelete(): void;
  confirmDelete(): void;
  cancelDelete(): void;
  reload(): void;
  retry(): void;
}

/**
 * Runs machines/recordEditor for one record. `idParam` is the route's id: not a GUID means a new
 * record (spec 5). The calls are read through a ref, so callers may pass fresh closures.
 */
export function useRecordEditor<R, V>(idParam: string, calls: RecordEditorCalls<R, V>): RecordEditor<R, V> {
  const latest = useRef(calls);
  latest.current = calls;
  const logic = useMemo(
    () =>
      recordEditorMachine.provide({
        actors: {
          load: fromPromise<unknown, { id: string }>(({ input }) => latest.current.load(input.id)),
          save: fromPromise<unknown, SaveRequest>(({ input }) =>
            latest.current.save({ id: input.id, record: input.record as R | null, values: input.values as V }),
          ),
          remove: fromPromise<void, { id: string; record: unknown }>(async ({ input }) => {
            if (!latest.current.remove) throw new Error('This record cannot be deleted here');
            await latest.current.remove({ id: input.id, record: input.record as R });
          }),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(logic, { input: { id: isGuid(idParam) ? idParam : null } });
  return {
    status: snapshot.value as RecordEditor<R, V>['status'],
    isNew: snapshot.context.id === null,
    record: snapshot.context.record as R | null,
    draft: snapshot.context.draft as V | null,
    error: snapshot.context.error,
    save: (values) => send({ type: 'save', values }),
    askDelete: () => send({ type: 'delete' }),
    confirmDelete: () => send({ type: 'delete.confirm' }),
    cancelDelete: () => send({ type: 'delete.cancel' }),
    reload: () => send({ type: 'reload' }),
    retry: () => send({ type: 'retry' }),
  };
}
