import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition, waitFor, type SnapshotFrom, type StateValue } from 'xstate';
import type { Population, StatisticsPreview } from '../../../core/schemas/populations';
import {
  populationUploadMachine,
  type ChosenFile,
  type PopulationUploadContext,
  type PreviewRequest,
  type SaveStatisticsRequest,
} from '../../../machines/populationUpload.machine';
import { GENERIC_FAILURE } from '../../../machines/recordEditor.machine';

const POPULATION_ID = '0b7c4f3e-2d1a-4c5b-8e9f-1a2b3c4d5e6f';
const input = { populationId: POPULATION_ID, version: 4 };
const fileOf = (name: string): ChosenFile => new File(['marker,allele,frequency\n'], name);
const good = fileOf('fbi2015.csv');
const bad = fileOf('broken.csv');
const sizes = fileOf('fbi2015-n.csv');

const previewOf = (fileName: string, errors: StatisticsPreview['errors'] = []): StatisticsPreview => ({
  fileName,
  kind: 'Autosomal',
  format: 'Long table (marker, allele, frequency)',
  population: null,
  populations: [],
  markers: [{ markerId: 'f0a5d3b2-0000-4000-8000-000000000001', marker: 'D3S1358', sampleSize: 404, alleles: [{ allele: '15', frequency: 1 }], sum: 1 }],
  haplotypeCount: 0,
  haplotypeTotal: 0,
  errors,
  warnings: [],
});
const clean = previewOf('fbi2015.csv');
const withErrors = previewOf('broken.csv', [{ row: 12, marker: 'D3S1358', message: 'frequency 1.5 is not in (0, 1]' }]);
const savedPopulation = { id: POPULATION_ID, name: 'Caucasian', version: 5 } as Population;
const httpError = (status: number, error?: string) => ({ status, serverMessage: error });

type Snapshot = SnapshotFrom<typeof populationUploadMachine>;

/** A snapshot in `value` with `context` (what a reviewer sees there), without running any actor. */
function at(value: StateValue, context: Partial<PopulationUploadContext> = {}): Snapshot {
  return populationUploadMachine.resolveState({
    value,
    context: { ...input, file: null, sampleSizesFile: null, sourcePopulation: null, preview: null, error: null, saved: null, ...context },
  });
}

/** Runs the machine with fake calls that answer from the given functions and record what they were asked. */
function start(calls: { preview?: (r: PreviewRequest) => Promise<StatisticsPreview>; save?: (r: SaveStatisticsRequest) => Promise<Population> } = {}) {
  const previews: PreviewRequest[] = [];
  const saves: SaveStatisticsRequest[] = [];
  const logic = populationUploadMachine.provide({
    actors: {
      previewStatistics: fromPromise(async ({ input: request }: { input: PreviewRequest }) => {
        previews.push(request);
        return calls.preview ? calls.preview(request) : request.file.name === bad.name ? withErrors : clean;
      }),
      saveStatistics: fromPromise(async ({ input: request }: { input: SaveStatisticsRequest }) => {
        saves.push(request);
        return calls.save ? calls.save(request) : savedPopulation;
      }),
    },
  });
  const actor = createActor(logic, { input }).start();
  return { actor, previews, saves, snapshot: () => actor.getSnapshot() };
}

describe('populationUpload machine: pure transitions', () => {
  it('starts idle with the population and its version, no file and nothing saved', () => {
    const [snapshot] = initialTransition(populationUploadMachine, input);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ ...input, file: null, sampleSizesFile: null, sourcePopulation: null, preview: null, error: null, saved: null });
    expect(snapshot.can({ type: 'save.confirm' })).toBe(false);
  });

  it('goes from idle to choosing when the picker opens', () => {
    const [snapshot] = transition(populationUploadMachine, at('idle'), { type: 'file.choose' });
    expect(snapshot.value).toBe('choosing');
  });

  it('uploads a picked file for preview (from the picker, or dropped straight onto idle)', () => {
    for (const from of ['idle', 'choosing'] as const) {
      const [snapshot] = transition(populationUploadMachine, at(from), { type: 'file.selected', file: good });
      expect(snapshot.value).toBe('previewing');
      expect(snapshot.context.file).toBe(good);
      expect(snapshot.hasTag('busy')).toBe(true);
    }
  });

  it('returns to idle when the picker closes without a file and nothing was previewed', () => {
    const [snapshot] = transition(populationUploadMachine, at('choosing'), { type: 'file.dismissed' });
    expect(snapshot.value).toBe('idle');
  });

  it('returns to the preview it came from when the picker closes without a file (guard hasPreview)', () => {
    const [ready] = transition(populationUploadMachine, at('choosing', { file: good, preview: clean }), { type: 'file.dismissed' });
    expect(ready.value).toEqual({ preview: 'ready' });
    expect(ready.context.file).toBe(good);
    // guard previewHasErrors: a preview with errors stays one where Save is not offered.
    const [blocked] = transition(populationUploadMachine, at('choosing', { file: bad, preview: withErrors }), { type: 'file.dismissed' });
    expect(blocked.value).toEqual({ preview: 'withErrors' });
    expect(blocked.can({ type: 'save.confirm' })).toBe(false);
  });

  it('offers Save only for a preview without errors', () => {
    expect(at({ preview: 'ready' }, { file: good, preview: clean }).can({ type: 'save.confirm' })).toBe(true);
    expect(at({ preview: 'withErrors' }, { file: bad, preview: withErrors }).can({ type: 'save.confirm' })).toBe(false);
    const [unchanged] = transition(populationUploadMachine, at({ preview: 'withErrors' }, { file: bad, preview: withErrors }), { type: 'save.confirm' });
    expect(unchanged.value).toEqual({ preview: 'withErrors' });
  });

  it('saves the previewed file with the version read when Save is confirmed', () => {
    const [snapshot] = transition(populationUploadMachine, at({ preview: 'ready' }, { file: good, preview: clean }), { type: 'save.confirm' });
    expect(snapshot.value).toBe('saving');
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.preview).toBe(clean);
  });

  it('lets the user choose another file from either preview, replacing the old file and preview', () => {
    for (const sub of ['ready', 'withErrors'] as const) {
      const from = at({ preview: sub }, { file: bad, preview: withErrors });
      expect(transition(populationUploadMachine, from, { type: 'file.choose' })[0].value).toBe('choosing');
      const [next] = transition(populationUploadMachine, from, { type: 'file.selected', file: good });
      expect(next.value).toBe('previewing');
      expect(next.context).toMatchObject({ file: good, preview: null, error: null });
    }
  });

  it('previews the same file again for the population chosen from a file that holds several', () => {
    for (const value of [{ preview: 'withErrors' }, { preview: 'ready' }, 'failed'] as const) {
      const [next] = transition(populationUploadMachine, at(value, { file: good, preview: withErrors }), { type: 'population.select', population: 'Caucasian' });
      expect(next.value, JSON.stringify(value)).toBe('previewing');
      expect(next.context).toMatchObject({ file: good, sourcePopulation: 'Caucasian', preview: null, error: null });
    }
    expect(at('idle').can({ type: 'population.select', population: 'Caucasian' })).toBe(false);
    expect(at('saving', { file: good, preview: clean }).can({ type: 'population.select', population: 'Caucasian' })).toBe(false);
  });

  it('keeps a sample-size file chosen before the statistics file, and previews both once that comes', () => {
    const [kept] = transition(populationUploadMachine, at('idle'), { type: 'sampleSizes.selected', file: sizes });
    expect(kept.value).toBe('idle');
    expect(kept.context.sampleSizesFile).toBe(sizes);
    const [next] = transition(populationUploadMachine, kept, { type: 'file.selected', file: good });
    expect(next.value).toBe('previewing');
    expect(next.context).toMatchObject({ file: good, sampleSizesFile: sizes });
  });

  it('previews again when the sample-size file is chosen or removed over a preview or a failed save, keeping the population chosen', () => {
    for (const value of [{ preview: 'withErrors' }, { preview: 'ready' }, 'failed', 'previewFailed'] as const) {
      const from = at(value, { file: good, sourcePopulation: 'Caucasian', preview: clean });
      const [added] = transition(populationUploadMachine, from, { type: 'sampleSizes.selected', file: sizes });
      expect(added.value, JSON.stringify(value)).toBe('previewing');
      expect(added.context).toMatchObject({ file: good, sampleSizesFile: sizes, sourcePopulation: 'Caucasian', preview: null, error: null });
      const [removed] = transition(populationUploadMachine, at(value, { file: good, sampleSizesFile: sizes, preview: clean }), { type: 'sampleSizes.selected', file: null });
      expect(removed.value).toBe('previewing');
      expect(removed.context.sampleSizesFile).toBeNull();
    }
    // Not while a call runs: the inputs wait.
    expect(at('previewing', { file: good }).can({ type: 'sampleSizes.selected', file: sizes })).toBe(false);
    expect(at('saving', { file: good, preview: clean }).can({ type: 'sampleSizes.selected', file: sizes })).toBe(false);
  });

  it('forgets the chosen population when another file is picked', () => {
    const [next] = transition(populationUploadMachine, at({ preview: 'ready' }, { file: good, sourcePopulation: 'Caucasian', preview: clean }), {
      type: 'file.selected',
      file: bad,
    });
    expect(next.context.sourcePopulation).toBeNull();
  });

  it('goes back from a failed save to the preview, keeping the file and clearing the error', () => {
    const error = { status: 500, message: GENERIC_FAILURE };
    const [snapshot] = transition(populationUploadMachine, at('failed', { file: good, preview: clean, error }), { type: 'failure.dismiss' });
    expect(snapshot.value).toEqual({ preview: 'ready' });
    expect(snapshot.context).toMatchObject({ file: good, preview: clean, error: null });
  });

  it('retries a failed save directly, or takes another file from the failure', () => {
    const failed = at('failed', { file: good, preview: clean, error: { status: 500, message: GENERIC_FAILURE } });
    const [retry] = transition(populationUploadMachine, failed, { type: 'save.confirm' });
    expect(retry.value).toBe('saving');
    expect(retry.context.error).toBeNull();
    expect(transition(populationUploadMachine, failed, { type: 'file.choose' })[0].value).toBe('choosing');
    const [other] = transition(populationUploadMachine, failed, { type: 'file.selected', file: bad });
    expect(other.value).toBe('previewing');
    expect(other.context).toMatchObject({ file: bad, preview: null, error: null });
  });

  it('retries a failed preview only while it has the file (guard hasFile)', () => {
    const error = { status: 0, message: GENERIC_FAILURE };
    const [retry] = transition(populationUploadMachine, at('previewFailed', { file: good, error }), { type: 'preview.retry' });
    expect(retry.value).toBe('previewing');
    expect(retry.context.error).toBeNull();
    const [refused] = transition(populationUploadMachine, at('previewFailed', { file: null, error }), { type: 'preview.retry' });
    expect(refused.value).toBe('previewFailed');
  });

  it('takes another file after a failed preview', () => {
    const failed = at('previewFailed', { file: bad, error: { status: 413, message: 'Too large' } });
    expect(transition(populationUploadMachine, failed, { type: 'file.choose' })[0].value).toBe('choosing');
    const [next] = transition(populationUploadMachine, failed, { type: 'file.selected', file: good });
    expect(next.value).toBe('previewing');
    expect(next.context).toMatchObject({ file: good, error: null });
  });

  it('cancels from every state except while saving', () => {
    const states: StateValue[] = ['idle', 'choosing', 'previewing', 'previewFailed', { preview: 'ready' }, { preview: 'withErrors' }, 'failed'];
    for (const value of states) {
      const [snapshot] = transition(populationUploadMachine, at(value, { file: good, preview: clean }), { type: 'upload.cancel' });
      expect(snapshot.value, JSON.stringify(value)).toBe('cancelled');
      expect(snapshot.status).toBe('done');
    }
    // The server may already be replacing the statistics: the outcome is waited for.
    expect(at('saving', { file: good, preview: clean }).can({ type: 'upload.cancel' })).toBe(false);
  });

  it('ignores events that make no sense in a state', () => {
    expect(at('idle').can({ type: 'file.dismissed' })).toBe(false);
    expect(at('idle').can({ type: 'failure.dismiss' })).toBe(false);
    expect(at('previewing', { file: good }).can({ type: 'save.confirm' })).toBe(false);
    expect(at('saving', { file: good, preview: clean }).can({ type: 'file.selected', file: bad })).toBe(false);
    expect(at({ preview: 'ready' }, { file: good, preview: clean }).can({ type: 'failure.dismiss' })).toBe(false);
  });
});

describe('populationUpload machine: calls and their outcomes', () => {
  it('previews a clean file, then saves it with the population id and version, ending in saved', async () => {
    const { actor, previews, saves, snapshot } = start();
    actor.send({ type: 'file.choose' });
    actor.send({ type: 'file.selected', file: good });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    expect(previews).toEqual([{ populationId: POPULATION_ID, file: good, sampleSizesFile: null, sourcePopulation: null }]);
    expect(snapshot().context.preview).toEqual(clean);
    actor.send({ type: 'save.confirm' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves).toEqual([{ populationId: POPULATION_ID, file: good, sampleSizesFile: null, sourcePopulation: null, version: 4 }]);
    expect(snapshot().context.saved).toBe(savedPopulation);
    expect(snapshot().context.version).toBe(5);
    expect(snapshot().status).toBe('done');
  });

  it('shows a file with errors without offering Save', async () => {
    const { actor, snapshot } = start();
    actor.send({ type: 'file.selected', file: bad });
    await waitFor(actor, (s) => s.matches({ preview: 'withErrors' }));
    expect(snapshot().context.preview?.errors).toHaveLength(1);
    expect(snapshot().can({ type: 'save.confirm' })).toBe(false);
  });

  it('moves to previewFailed with the server message when the preview call fails', async () => {
    const { actor, snapshot } = start({ preview: () => Promise.reject(httpError(400, 'broken.csv could not be read: no header')) });
    actor.send({ type: 'file.selected', file: bad });
    await waitFor(actor, (s) => s.matches('previewFailed'));
    expect(snapshot().context.error).toEqual({ status: 400, message: 'broken.csv could not be read: no header' });
    expect(snapshot().context.preview).toBeNull();
  });

  it('says the request failed when the preview gets no answer, and succeeds on retry', async () => {
    let attempt = 0;
    const { actor, snapshot } = start({ preview: async () => (++attempt === 1 ? Promise.reject(new TypeError('fetch failed')) : clean) });
    actor.send({ type: 'file.selected', file: good });
    await waitFor(actor, (s) => s.matches('previewFailed'));
    expect(snapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
    actor.send({ type: 'preview.retry' });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    expect(snapshot().context.error).toBeNull();
  });

  it('moves to failed on a refused save, keeping the file and the preview, and saves on retry', async () => {
    let attempt = 0;
    const { actor, saves, snapshot } = start({
      save: async () => (++attempt === 1 ? Promise.reject(httpError(409, 'This record was changed by someone else')) : savedPopulation),
    });
    actor.send({ type: 'file.selected', file: good });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'save.confirm' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot().context).toMatchObject({ file: good, preview: clean, error: { status: 409, message: 'This record was changed by someone else' } });
    actor.send({ type: 'failure.dismiss' });
    expect(snapshot().value).toEqual({ preview: 'ready' });
    actor.send({ type: 'save.confirm' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(saves).toHaveLength(2);
  });

  it('sends the chosen population with the preview and the save', async () => {
    const { actor, previews, saves } = start();
    actor.send({ type: 'file.selected', file: good });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'population.select', population: 'SW Hispanic' });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'save.confirm' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(previews.map((p) => p.sourcePopulation)).toEqual([null, 'SW Hispanic']);
    expect(saves[0]).toMatchObject({ file: good, sourcePopulation: 'SW Hispanic' });
  });

  it('sends the sample-size file with the preview and the save', async () => {
    const { actor, previews, saves } = start();
    actor.send({ type: 'file.selected', file: good });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'sampleSizes.selected', file: sizes });
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    actor.send({ type: 'save.confirm' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(previews.map((p) => p.sampleSizesFile)).toEqual([null, sizes]);
    expect(saves[0]).toMatchObject({ file: good, sampleSizesFile: sizes });
  });

  it('drops the answer of a preview that was cancelled', async () => {
    let answer: (preview: StatisticsPreview) => void = () => undefined;
    const { actor, snapshot } = start({ preview: () => new Promise((resolve) => (answer = resolve)) });
    actor.send({ type: 'file.selected', file: good });
    actor.send({ type: 'upload.cancel' });
    answer(clean);
    await Promise.resolve();
    expect(snapshot().value).toBe('cancelled');
    expect(snapshot().context.preview).toBeNull();
  });

  it('previews the newly chosen file, replacing the preview of the old one', async () => {
    const { actor, previews, snapshot } = start();
    actor.send({ type: 'file.selected', file: bad });
    await waitFor(actor, (s) => s.matches({ preview: 'withErrors' }));
    actor.send({ type: 'file.choose' });
    actor.send({ type: 'file.selected', file: good });
    expect(snapshot().context.preview).toBeNull();
    await waitFor(actor, (s) => s.matches({ preview: 'ready' }));
    expect(previews.map((p) => p.file.name)).toEqual(['broken.csv', 'fbi2015.csv']);
    expect(snapshot().context.preview?.fileName).toBe('fbi2015.csv');
  });

  it('refuses to run without real calls (the actors must be provided)', async () => {
    const actor = createActor(populationUploadMachine, { input }).start();
    actor.send({ type: 'file.selected', file: good });
    await waitFor(actor, (s) => s.matches('previewFailed'));
    expect(actor.getSnapshot().context.error).toEqual({ status: 0, message: GENERIC_FAILURE });
  });
});
