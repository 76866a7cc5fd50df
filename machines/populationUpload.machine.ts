import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Population, StatisticsPreview } from '../core/schemas/populations';
import { toEditorError, type EditorError } from './recordEditor.machine';

/**
 * Uploading a population's statistics in two steps (spec 2.7 Upload Statistics): choose a file, see
 * what the server parsed from it (format, markers, errors by row), then confirm. Nothing is saved
 * before the confirmation, and Save is possible only for a preview without errors. A failed save
 * keeps the file and its preview, so the user can try again or choose another file. A table that
 * ships its sample sizes apart (fbi2015.csv and fbi2015-n.csv) takes that second file too, optional,
 * sent with the first; choosing or removing it previews again.
 * Pure: the preview and save calls are injected actors.
 */

/** The chosen file: a browser File (or any Blob with a name, in tests and stories). */
export type ChosenFile = Blob & { readonly name: string };

export interface PopulationUploadInput {
  populationId: string;
  /** The population's version as the screen read it; the save sends it (a stale one is refused with 409). */
  version: number;
}

export interface PopulationUploadContext extends PopulationUploadInput {
  file: ChosenFile | null;
  /** The optional sample-size file (N per marker), for a table that ships N apart. */
  sampleSizesFile: ChosenFile | null;
  /** Which population of the file to read, for a file that holds several (null: the file's only one). */
  sourcePopulation: string | null;
  preview: StatisticsPreview | null;
  error: EditorError | null;
  /** The population after a successful save. */
  saved: Population | null;
}

export type PopulationUploadEvent =
  /** The user opened the file picker. */
  | { type: 'file.choose' }
  /** A file was picked (from the picker, or dropped). */
  | { type: 'file.selected'; file: ChosenFile }
  /** One population chosen from a file that holds several; the file is previewed again for it. */
  | { type: 'population.select'; population: string }
  /** The picker was closed without a file. */
  | { type: 'file.dismissed' }
  /** A sample-size file was picked, or removed (file null); a file already chosen is previewed again with it. */
  | { type: 'sampleSizes.selected'; file: ChosenFile | null }
  | { type: 'preview.retry' }
  | { type: 'save.confirm' }
  /** Back from a failed save to the preview, which still holds the file. */
  | { type: 'failure.dismiss' }
  | { type: 'upload.cancel' };

export interface PreviewRequest {
  populationId: string;
  file: ChosenFile;
  sampleSizesFile: ChosenFile | null;
  sourcePopulation: string | null;
}

export interface SaveStatisticsRequest extends PreviewRequest {
  version: number;
}

/** Tags the view asks with hasTag: `busy` while a call runs (the file input and buttons wait). */
export type PopulationUploadTag = 'busy';

/**
 * A file of several populations read before one is chosen (fbi2015.csv holds 12): what it lacks is a choice,
 * not a correction, so the screen asks for it instead of listing the parser's "choose one" as an error.
 */
export const awaitsPopulationChoice = (preview: Pick<StatisticsPreview, 'population' | 'populations'> | null): boolean =>
  preview !== null && preview.population === null && preview.populations.length > 1;

const notProvided = async (): Promise<never> => {
  throw new Error('populationUploadMachine: provide this actor (src/admin/populations/population-upload.tsx)');
};

export const populationUploadMachine = setup({
  types: {
    context: {} as PopulationUploadContext,
    events: {} as PopulationUploadEvent,
    input: {} as PopulationUploadInput,
    tags: {} as PopulationUploadTag,
  },
  actors: {
    previewStatistics: fromPromise<StatisticsPreview, PreviewRequest>(notProvided),
    saveStatistics: fromPromise<Population, SaveStatisticsRequest>(notProvided),
  },
  guards: {
    /** A preview to return to when the picker is closed without a file. */
    hasPreview: ({ context }) => context.preview !== null,
    hasFile: ({ context }) => context.file !== null,
    previewHasErrors: (_, params: { preview: StatisticsPreview | null }) => (params.preview?.errors.length ?? 0) > 0,
  },
  actions: {
    // A new file replaces the old one and its preview.
    storeFile: assign(({ event }) => {
      assertEvent(event, 'file.selected');
      return { file: event.file, sourcePopulation: null, preview: null, error: null };
    }),
    // The population chosen from the file stays: the sample sizes are read for it.
    storeSampleSizes: assign(({ event }) => {
      assertEvent(event, 'sampleSizes.selected');
      return { sampleSizesFile: event.file, preview: null, error: null };
    }),
    storeSourcePopulation: assign(({ event }) => {
      assertEvent(event, 'population.select');
      return { sourcePopulation: event.population, preview: null, error: null };
    }),
    storePreview: assign((_, params: { preview: StatisticsPreview }) => ({ preview: params.preview, error: null })),
    storeError: assign((_, params: { error: unknown }) => ({ error: toEditorError(params.error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'populationUpload',
  context: ({ input }) => ({ ...input, file: null, sampleSizesFile: null, sourcePopulation: null, preview: null, error: null, saved: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'upload.cancel': 'cancelled',
        'file.choose': 'choosing',
        'file.selected': { target: 'previewing', actions: 'storeFile' },
        // Chosen before the statistics file: kept until that one comes.
        'sampleSizes.selected': { actions: 'storeSampleSizes' },
      },
    },
    choosing: {
      on: {
        'file.selected': { target: 'previewing', actions: 'storeFile' },
        'file.dismissed': [
          { guard: { type: 'previewHasErrors', params: ({ context }) => ({ preview: context.preview }) }, target: 'preview.withErrors' },
          { guard: 'hasPreview', target: 'preview.ready' },
          { target: 'idle' },
        ],
        'upload.cancel': 'cancelled',
      },
    },
    previewing: {
      tags: ['busy'],
      // Leaving stops the preview call; nothing was saved.
      on: { 'upload.cancel': 'cancelled' },
      invoke: {
        src: 'previewStatistics',
        input: ({ context }) => ({
          populationId: context.populationId,
          file: context.file!,
          sampleSizesFile: context.sampleSizesFile,
          sourcePopulation: context.sourcePopulation,
        }),
        onDone: [
          {
            guard: { type: 'previewHasErrors', params: ({ event }) => ({ preview: event.output }) },
            target: 'preview.withErrors',
            actions: { type: 'storePreview', params: ({ event }) => ({ preview: event.output }) },
          },
          { target: 'preview.ready', actions: { type: 'storePreview', params: ({ event }) => ({ preview: event.output }) } },
        ],
        onError: { target: 'previewFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    previewFailed: {
      on: {
        'preview.retry': { guard: 'hasFile', target: 'previewing', actions: 'clearError' },
        'file.choose': 'choosing',
        'file.selected': { target: 'previewing', actions: 'storeFile' },
        'sampleSizes.selected': { guard: 'hasFile', target: 'previewing', actions: 'storeSampleSizes' },
        'upload.cancel': 'cancelled',
      },
    },
    preview: {
      initial: 'ready',
      on: {
        'file.choose': 'choosing',
        'file.selected': { target: 'previewing', actions: 'storeFile' },
        'population.select': { target: 'previewing', actions: 'storeSourcePopulation' },
        'sampleSizes.selected': { target: 'previewing', actions: 'storeSampleSizes' },
        'upload.cancel': 'cancelled',
      },
      states: {
        /** Errors listed by row: Save is not offered until another file is chosen. */
        withErrors: {},
        ready: {
          on: { 'save.confirm': '#populationUpload.saving' },
        },
      },
    },
    saving: {
      // No cancel here: the server may already be replacing the statistics; the outcome is shown.
      tags: ['busy'],
      invoke: {
        src: 'saveStatistics',
        input: ({ context }) => ({
          populationId: context.populationId,
          file: context.file!,
          sampleSizesFile: context.sampleSizesFile,
          sourcePopulation: context.sourcePopulation,
          version: context.version,
        }),
        onDone: { target: 'saved', actions: assign({ saved: ({ event }) => event.output, version: ({ event }) => event.output.version }) },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    /** The save was refused or failed; the file and its preview are kept. */
    failed: {
      on: {
        'failure.dismiss': { target: 'preview.ready', actions: 'clearError' },
        'save.confirm': { target: 'saving', actions: 'clearError' },
        'file.choose': 'choosing',
        'file.selected': { target: 'previewing', actions: 'storeFile' },
        'population.select': { target: 'previewing', actions: 'storeSourcePopulation' },
        'sampleSizes.selected': { target: 'previewing', actions: 'storeSampleSizes' },
        'upload.cancel': 'cancelled',
      },
    },
    saved: { type: 'final' },
    cancelled: { type: 'final' },
  },
});
