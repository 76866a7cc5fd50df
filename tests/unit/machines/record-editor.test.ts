import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { GENERIC_FAILURE, isConflict, recordEditorMachine, toEditorError, type SaveRequest } from '../../../machines/recordEditor.machine';

type Rec = { id: string; name: string; version: number };
const stored: Rec = { id: 'a1', name: 'Oslo', version: 3 };
const httpError = (status: number, error?: string) => ({ status, serverMessage: error });

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function start(id: string | null, calls: { load?: () => Promise<unknown>; save?: (r: SaveRequest) => Promise<unknown>; remove?: () => Promise<void> } = {}) {
  const saves: SaveRequest[] = [];
  const logic = recordEditorMachine.provide({
    actors: {
      load: fromPromise(async () => (calls.load ? calls.load() : stored)),
      save: fromPromise(async ({ input }: { input: SaveRequest }) => {
        saves.push(input);
        return calls.save ? calls.save(input) : { ...stored, ...(input.values as object), version: stored.version + 1 };
      }),
      remove: fromPromise(async () => (calls.remove ? calls.remove() : undefined)),
    },
  });
  const actor = createActor(logic, { input: { id } }).start();
  return { actor, saves, value: () => actor.getSnapshot().value, context: () => actor.getSnapshot().context };
}

describe('recordEditor machine', () => {
  it('starts editing at once for a new record, without loading', () => {
    const { value, context } = start(null);
    expect(value()).toBe('editing');
    expect(context().record).toBeNull();
  });

  it('loads an existing record, then edits it', async () => {
    const { actor, value, context } = start('a1');
    expect(value()).toBe('loading');
    await waitFor(actor, (s) => s.matches('editing'));
    expect(context().record).toEqual(stored);
  });

  it('shows a load failure and retries on request', async () => {
    let attempt = 0;
    const { actor, context } = start('a1', { load: async () => (++attempt === 1 ? Promise.reject(httpError(500)) : stored) });
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(context().error).toEqual({ status: 500, message: GENERIC_FAILURE });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(context().record).toEqual(stored);
  });

  it('saves a new record with its values and ends in saved with the stored record', async () => {
    const { actor, saves, context } = start(null);
    actor.send({ type: 'save', values: { name: 'Bergen' } });
    expect(actor.getSnapshot().value).toBe('saving');
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves).toEqual([{ id: null, record: null, values: { name: 'Bergen' } }]);
    expect(context().record).toMatchObject({ name: 'Bergen' });
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('sends the loaded record (its version) with the save of an existing one', async () => {
    const { actor, saves } = start('a1');
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'save', values: { name: 'Oslo North' } });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves[0]).toEqual({ id: 'a1', record: stored, values: { name: 'Oslo North' } });
  });

  it('returns to editing on a failed save, keeping the draft and the server message', async () => {
    const { actor, context } = start(null, { save: async () => Promise.reject(httpError(409, 'A laboratory named "Oslo" already exists')) });
    actor.send({ type: 'save', values: { name: 'Oslo' } });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(context().draft).toEqual({ name: 'Oslo' });
    expect(context().error).toEqual({ status: 409, message: 'A laboratory named "Oslo" already exists' });
  });

  it('after a conflict reloads the current version and keeps the draft', async () => {
    let version = 3;
    const { actor, context } = start('a1', {
      load: async () => ({ ...stored, version }),
      save: async () => Promise.reject(httpError(409, 'changed by someone else')),
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'save', values: { name: 'Mine' } });
    await waitFor(actor, (s) => isConflict(s.context.error));
    version = 4;
    actor.send({ type: 'reload' });
    await waitFor(actor, (s) => s.matches('editing') && (s.context.record as Rec).version === 4);
    expect(context().draft).toEqual({ name: 'Mine' });
    expect(context().error).toBeNull();
  });

  it('ignores reload and delete for a record that does not exist yet', () => {
    const { actor, value } = start(null);
    actor.send({ type: 'delete' });
    expect(value()).toBe('editing');
    actor.send({ type: 'reload' });
    expect(value()).toBe('editing');
  });

  it('deletes only after confirmation; cancel returns to editing', async () => {
    let removed = 0;
    const { actor, value } = start('a1', {
      remove: async () => {
        removed++;
      },
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'delete' });
    expect(value()).toBe('confirmingDelete');
    actor.send({ type: 'delete.cancel' });
    expect(value()).toBe('editing');
    expect(removed).toBe(0);
    actor.send({ type: 'delete' });
    actor.send({ type: 'delete.confirm' });
    expect(value()).toBe('deleting');
    await waitFor(actor, (s) => s.matches('deleted'));
    expect(removed).toBe(1);
  });

  it('shows why a delete was refused and stays on the record', async () => {
    const { actor, context } = start('a1', { remove: async () => Promise.reject(httpError(409, 'Marker D3S1358 is used by GlobalFiler')) });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'delete' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(context().error?.message).toBe('Marker D3S1358 is used by GlobalFiler');
  });

  it('ignores a second save while one is in flight', async () => {
    const pending = deferred<unknown>();
    const { actor, saves } = start(null, { save: () => pending.promise });
    actor.send({ type: 'save', values: { name: 'One' } });
    actor.send({ type: 'save', values: { name: 'Two' } });
    pending.resolve({ id: 'x', name: 'One', version: 1 });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves).toHaveLength(1);
  });
});

describe('toEditorError', () => {
  it('uses the server message when there is one, else the spec 8.1 text', () => {
    expect(toEditorError(httpError(400, 'Name is too long'))).toEqual({ status: 400, message: 'Name is too long' });
    expect(toEditorError(new TypeError('Failed to fetch'))).toEqual({ status: 0, message: 'Your request failed. Please try again later.' });
  });
});
