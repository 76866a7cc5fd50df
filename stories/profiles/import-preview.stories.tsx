/**
 * The import preview of the profile upload (src/profiles/import-preview.tsx) on its own: the
 * summary, the file's errors and warnings, the ladders and controls set apart, the filter, the
 * pager and the profiles with their errors and problems. The checkboxes, filter and pager work: the
 * machine runs from the page given, and every page it asks for holds the story's rows that match.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useActor } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { ProfileImportJob, ProfileImportRow } from '../../core/schemas/profile-imports';
import { initialImportContext, profileImportMachine, type ProfileImportContext } from '../../machines/profileImport.machine';
import { ImportPreview } from '../../src/profiles/import-preview';
import '../../src/profiles/profiles.css';

const CASE = '7b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const values = (entries: [string, string[]][]) => entries.map(([name, alleles]) => ({ markerId: `m-${name}`, marker: name, alleles }));
const row = (index: number, profileId: string, patch: Partial<ProfileImportRow> = {}): ProfileImportRow => ({
  index,
  line: index + 2,
  profileId,
  kind: 'Autosomal',
  kit: 'GlobalFiler',
  sampleType: 'Forensic, Unknown',
  markerValues: values([
    ['D3S1358', ['15', '16']],
    ['vWA', ['17']],
    ['Amelogenin', ['X', 'Y']],
  ]),
  errors: [],
  problems: [],
  warnings: [],
  chosen: false,
  added: false,
  ...patch,
});
const rows = [
  row(0, 'ABCD1234NL#01'),
  row(1, 'ABCD1234NL#02', { errors: ['Marker D99S999 is invalid'] }),
  row(2, 'ABCD1234NL#03', { problems: ['D3S1358 has 3 alleles; a Suspect, Known profile takes at most 2'] }),
  row(3, 'ABCD1234NL#04', { markerValues: values([['D21S11', ['29', '30', '31.2', '32.2']]]) }),
];
const job = (patch: Partial<ProfileImportJob> = {}): ProfileImportJob => ({
  id: '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  fileName: 'Codis-Four-Profiles.xml',
  fileBytes: 9_000,
  format: 'CODIS CMF 3.2',
  state: 'parsed',
  done: 4,
  total: 4,
  caseId: CASE,
  profileCount: 4,
  flaggedCount: 1,
  errors: [],
  warnings: [],
  controls: [],
  markers: [],
  suggestedChemistryId: null,
  chosenCount: 0,
  addedCount: 0,
  message: '',
  problemCount: 0,
  approvalExpiresAt: '2026-11-22T11:00:00.000Z',
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:00:00.000Z',
  ...patch,
});

function Preview({ context }: { context: Partial<ProfileImportContext> }) {
  const snapshot = useMemo(
    () => profileImportMachine.resolveState({ value: { parsed: 'ready' }, context: { ...initialImportContext(CASE), job: job(), rows, rowCount: rows.length, ...context } }),
    [context],
  );
  const logic = useMemo(
    () =>
      profileImportMachine.provide({
        actors: {
          readPage: fromPromise(async ({ input }) => {
            const shown = snapshot.context.rows.filter((r) => input.filter === 'all' || (input.filter === 'flagged' ? r.errors.length > 0 : input.filter === 'problems' ? r.problems.length > 0 : r.errors.length + r.problems.length === 0));
            return { items: shown, count: input.filter === 'all' ? snapshot.context.rowCount : shown.length };
          }),
        },
      }),
    [snapshot],
  );
  const [state, send] = useActor(logic, { input: { caseId: CASE }, snapshot });
  return (
    <div className="page profile-import">
      <ImportPreview snapshot={state} send={send} />
    </div>
  );
}

const meta = { title: 'Profiles/Import preview', component: Preview } satisfies Meta<typeof Preview>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Profiles with a parser error (cannot be checked), a problem of the check (can be left out), and a four-allele mixture marker. */
export const RowErrorsAndProblems: Story = { args: { context: {} } };
/** One error in the file (singular), 133 warnings (the list scrolls), and the ladders and controls set apart. */
export const FileErrorsWarningsAndControls: Story = {
  args: {
    context: {
      job: job({
        errors: [{ row: 12, sample: 'ABCD1234NL#03', marker: 'D99S999', message: 'Marker D99S999 is invalid' }],
        warnings: Array.from({ length: 133 }, (_, i) => ({ row: i + 14, marker: 'Amelogenin', message: 'Amelogenin written 1/2 was read as X/Y' })),
        controls: [
          { sampleName: 'Ladder', line: 2, reason: 'allelic ladder' },
          { sampleName: 'NC_01', line: 3, reason: 'negative control' },
        ],
      }),
    },
  },
};
/** Page 2 of a large file, one profile left out. */
export const LargeFilePage2: Story = {
  args: { context: { job: job({ profileCount: 100_000, flaggedCount: 133 }), page: 1, rowCount: 100_000, rows: rows.map((r) => ({ ...r, index: r.index + 100 })), excluded: new Set([100]) } },
};
/** A filter that matches nothing. */
export const NothingToShow: Story = { args: { context: { filter: 'problems', rows: [], rowCount: 0 } } };
