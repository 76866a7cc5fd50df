/**
 * Every state of the population upload a reviewer can reach, drawn by the real screen (UploadPanel)
 * from a resolved snapshot (no network). "Interactive" runs the machine with fake calls: choose any
 * file; a name containing "error" previews with errors, "fail" fails the save.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise, type SnapshotFrom, type StateValue } from 'xstate';
import type { Population, StatisticsPreview } from '../../core/schemas/populations';
import {
  populationUploadMachine,
  type ChosenFile,
  type PopulationUploadContext,
  type PopulationUploadEvent,
} from '../../machines/populationUpload.machine';
import { UploadPanel } from '../../src/admin/populations/upload-panel';
import '../../src/admin/populations/populations.css';

const POPULATION_ID = '6f1c2a8e-5b7d-4e3f-9a10-2c4d6e8f0a1b';
const file: ChosenFile = new File(['population,marker,allele,frequency\n'], 'fbi2015-caucasian.csv');
const brokenFile: ChosenFile = new File(['marker,allele,frequency\n'], 'frequencies-with-errors.csv');
const sizesFile: ChosenFile = new File(['population,marker,n_alleles\n'], 'fbi2015-n.csv');

// FBI 2015 Caucasian (Moretti et al. 2016), shared/data/frequencies/fbi2015.csv; 404 allele observations per marker.
const D3S1358 = [
  ['13', 0.0024752475247524753],
  ['14', 0.13861386138613863],
  ['15', 0.24752475247524752],
  ['16', 0.23267326732673269],
  ['17', 0.2103960396039604],
  ['18', 0.16336633663366337],
  ['19', 0.0049504950495049506],
] as const;
const TH01 = [
  ['6', 0.22524752475247525],
  ['7', 0.17326732673267325],
  ['8', 0.12623762376237624],
  ['8.3', 0.0024752475247524753],
  ['9', 0.16584158415841585],
  ['9.3', 0.30445544554455445],
  ['10', 0.0024752475247524753],
] as const;
const marker = (markerId: string, name: string, values: readonly (readonly [string, number])[]) => {
  const alleles = values.map(([allele, frequency]) => ({ allele, frequency }));
  return { markerId, marker: name, sampleSize: 404, alleles, sum: alleles.reduce((t, a) => t + a.frequency, 0) };
};

const clean: StatisticsPreview = {
  fileName: file.name,
  kind: 'Autosomal',
  format: 'Long table (population, marker, allele, frequency)',
  population: 'Caucasian',
  populations: ['Caucasian', 'SW Hispanic', 'African American'],
  markers: [marker('0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c', 'D3S1358', D3S1358), marker('1e7a9c5b-2d3f-4a4b-9c6d-8e0f1a2b3c4d', 'TH01', TH01)],
  haplotypeCount: 0,
  haplotypeTotal: 0,
  errors: [],
  warnings: [{ row: null, message: 'Penta D is not in the file' }],
};
const withErrors: StatisticsPreview = {
  ...clean,
  fileName: brokenFile.name,
  errors: [
    { row: 12, marker: 'D3S1358', message: 'frequency 1.5 is not in (0, 1]' },
    { row: 31, message: 'Marker D99S999 is invalid' },
    { row: null, marker: 'TH01', message: 'frequencies sum to 0.871, not 1 ± 0.02' },
  ],
};
const saved = { id: POPULATION_ID, name: 'Caucasian', version: 3 } as Population;

const base: PopulationUploadContext = {
  populationId: POPULATION_ID,
  version: 2,
  file: null,
  sampleSizesFile: null,
  sourcePopulation: null,
  preview: null,
  error: null,
  saved: null,
};

type UploadSnapshot = SnapshotFrom<typeof populationUploadMachine>;

/** The upload page around the panel, naming the machine state shown. */
function UploadPage({ snapshot, send }: { snapshot: UploadSnapshot; send(event: PopulationUploadEvent): void }) {
  return (
    <section className="page" style={{ margin: '1rem' }}>
      <h1>Upload statistics: Caucasian</h1>
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      <UploadPanel populationName="Caucasian" snapshot={snapshot} send={send} />
    </section>
  );
}

/** The upload screen in one state of the machine; events go nowhere (see Interactive). */
function UploadState({ value, context }: { value: StateValue; context: Partial<PopulationUploadContext> }) {
  return <UploadPage snapshot={populationUploadMachine.resolveState({ value, context: { ...base, ...context } })} send={() => undefined} />;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The machine running with fake calls, from idle to saved. */
function InteractiveUpload() {
  const logic = useMemo(
    () =>
      populationUploadMachine.provide({
        actors: {
          previewStatistics: fromPromise(async ({ input }) => {
            await wait(600);
            const preview = input.file.name.includes('error') ? withErrors : clean;
            return { ...preview, fileName: input.file.name, population: input.sourcePopulation ?? 'Caucasian' };
          }),
          saveStatistics: fromPromise(async ({ input }) => {
            await wait(600);
            if (input.file.name.includes('fail')) throw { status: 409, serverMessage: 'This record was changed by someone else since you opened it.' };
            return saved;
          }),
        },
      }),
    [],
  );
  const [snapshot, send] = useMachine(logic, { input: { populationId: POPULATION_ID, version: 2 } });
  return <UploadPage snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Population upload', component: UploadState, args: { context: {} } } satisfies Meta<typeof UploadState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle: nothing chosen; Save is disabled. */
export const Idle: Story = { args: { value: 'idle' } };
/** choosing: the file picker is open. */
export const Choosing: Story = { args: { value: 'choosing' } };
/** choosing again over an earlier preview, which stays visible until a new file is picked. */
export const ChoosingOverPreview: Story = { args: { value: 'choosing', context: { file, preview: clean } } };
/** previewing: the server is parsing the file; the input and Save wait. */
export const Previewing: Story = { args: { value: 'previewing', context: { file } } };
/** previewFailed: the file could not be read at all (e.g. an unknown format); try again or choose another. */
export const PreviewFailed: Story = {
  args: { value: 'previewFailed', context: { file, error: { status: 400, message: 'fbi2015-caucasian.csv could not be read: no header row' } } },
};
/** preview.ready: markers, sums and charts; Save statistics is enabled. */
export const PreviewReady: Story = { args: { value: { preview: 'ready' }, context: { file, preview: clean } } };
/** preview.ready with the sample sizes sent apart (fbi2015-n.csv): N per marker, one marker the N file leaves out warned of. */
export const PreviewWithSampleSizes: Story = {
  args: {
    value: { preview: 'ready' },
    context: {
      file,
      sampleSizesFile: sizesFile,
      preview: {
        ...clean,
        markers: [{ ...clean.markers[0]!, sampleSize: 202 }, { ...clean.markers[1]!, sampleSize: null }],
        warnings: [{ row: null, marker: 'TH01', message: "TH01 has no sample size (N): its rare alleles get the population's minimum allele frequency instead of 5/(2N)" }],
      },
    },
  },
};
/** preview.withErrors of a file with several populations and none chosen: the choice is the way on. */
export const PreviewChoosePopulation: Story = {
  args: {
    value: { preview: 'withErrors' },
    context: {
      file,
      preview: {
        ...clean,
        population: null,
        markers: [],
        warnings: [],
        errors: [{ row: null, message: 'This file holds 3 populations (Caucasian, SW Hispanic, African American); choose the one to import' }],
      },
    },
  },
};
/** preview.withErrors: each row error is listed; Save statistics stays disabled. */
export const PreviewWithErrors: Story = { args: { value: { preview: 'withErrors' }, context: { file: brokenFile, preview: withErrors } } };
/** saving: the statistics are being replaced in one transaction. */
export const Saving: Story = { args: { value: 'saving', context: { file, preview: clean } } };
/** failed: the save was refused; the file and preview are kept. */
export const Failed: Story = {
  args: {
    value: 'failed',
    context: { file, preview: clean, error: { status: 409, message: 'This record was changed by someone else since you opened it. Reload it and apply your changes again.' } },
  },
};
/** saved (final): the screen leaves for the population's edit page with a notice. */
export const Saved: Story = { args: { value: 'saved', context: { file, preview: clean, saved, version: 3 } } };

export const Interactive: Story = { args: { value: 'idle' }, render: () => <InteractiveUpload /> };
