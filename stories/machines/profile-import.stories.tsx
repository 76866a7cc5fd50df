/**
 * Every state of the profile import a reviewer can reach, drawn by a small screen in this file
 * from a resolved snapshot (no network). "Interactive" runs the machine with fake calls: choose any
 * file; a name containing "refused" is refused by the parse, "expired" has its approval expire on
 * the first confirmation, "fail" fails every confirmation.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise, type SnapshotFrom, type StateValue } from 'xstate';
import { SAMPLE_TYPES, type ImportedProfile, type ProfileImportResult, type SampleType } from '../../core/schemas/profiles';
import {
  ImportCallError,
  confirmBlockers,
  initialImportContext,
  profileImportMachine,
  type ProfileImportContext,
  type ProfileImportEvent,
} from '../../machines/profileImport.machine';
import type { ChosenFile } from '../../machines/populationUpload.machine';

const GLOBALFILER = '3f1c2a8e-5b7d-4e3f-9a10-2c4d6e8f0a1b';
const CHEMISTRIES = [
  { id: GLOBALFILER, name: 'GlobalFiler' },
  { id: '4a2d3b9f-6c8e-4f4a-8b21-3d5e7f9a1b2c', name: 'PowerPlex Fusion 6C' },
];
const file: ChosenFile = new File(['specimenId,D3S1358_1,D3S1358_2\n'], 'database_codis_2records_utf8withBOM.csv');

// The two samples of shared/data/formats/cmf/database_codis_2records_utf8withBOM.csv (a few markers), and one the parser refused.
const marker = (markerId: string, name: string, alleles: string[]) => ({ markerId, marker: name, alleles });
const profile = (profileId: string, markers: ImportedProfile['markerValues'], errors: string[] = []): ImportedProfile => ({
  profileId,
  kind: 'Autosomal',
  kit: null,
  sampleType: 'Suspect, Known',
  markerValues: markers,
  errors,
});
const D3 = '0d6f8b4a-1c2e-4f3a-8b5c-7d9e0f1a2b3c';
const TH01 = '1e7a9c5b-2d3f-4a4b-9c6d-8e0f1a2b3c4d';
const VWA = '2f8b0d6c-3e4a-4b5c-8d7e-9f1a2b3c4d5e';
const result: ProfileImportResult = {
  fileName: file.name,
  format: 'CODIS CSV (specimenId, marker_1 … marker_4)',
  profiles: [
    profile('suspect', [marker(D3, 'D3S1358', ['16', '16']), marker(TH01, 'TH01', ['7', '7']), marker(VWA, 'vWA', ['15', '18'])]),
    profile('ABCD1234NL#01', [marker(D3, 'D3S1358', ['15', '18']), marker(TH01, 'TH01', ['5', '6']), marker(VWA, 'vWA', ['16', '16'])]),
    profile('ABCD1234NL#02', [marker(D3, 'D3S1358', ['15', '17'])], ['Marker D99S999 is not a known marker', 'vWA has 5 alleles; at most 4']),
  ],
  errors: [],
  warnings: [{ row: 3, sample: 'ABCD1234NL#01', marker: 'SE33', message: 'SE33 is not in GlobalFiler' }],
  suggestedChemistryId: GLOBALFILER,
  approvalExpiresAt: '2026-03-01T12:30:00.000Z',
};
const parsed: Partial<ProfileImportContext> = {
  file,
  result,
  token: 'token',
  include: [0, 1],
  assignment: { ...initialImportContext().assignment, chemistryId: GLOBALFILER, sampleType: 'Suspect, Known' },
};
const expiredMessage = 'The approval of this import has expired. Parse the file again, then confirm.';

type ImportSnapshot = SnapshotFrom<typeof profileImportMachine>;

/** The chosen profiles' grid: a checkbox the machine allows or not, the markers, the errors. */
function ProfileGrid({ snapshot, send }: { snapshot: ImportSnapshot; send(event: ProfileImportEvent): void }) {
  const { result: parsedResult, include } = snapshot.context;
  if (!parsedResult) return null;
  return (
    <table>
      <caption>
        {parsedResult.fileName}: {parsedResult.format}
      </caption>
      <thead>
        <tr>
          <th>Add</th>
          <th>Profile</th>
          <th>Markers</th>
          <th>Errors</th>
        </tr>
      </thead>
      <tbody>
        {parsedResult.profiles.map((p, index) => (
          <tr key={index}>
            <td>
              <input
                type="checkbox"
                aria-label={`Add ${p.profileId}`}
                checked={include.includes(index)}
                disabled={!snapshot.can({ type: 'profile.toggle', index })}
                onChange={() => send({ type: 'profile.toggle', index })}
              />
            </td>
            <th scope="row">{p.profileId}</th>
            <td>{p.markerValues.map((m) => `${m.marker} ${m.alleles.join(',')}`).join('; ')}</td>
            <td>{p.errors.join('; ') || 'None'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The assignment fields and what keeps Confirm from being offered. */
function AssignmentFields({ snapshot, send }: { snapshot: ImportSnapshot; send(event: ProfileImportEvent): void }) {
  const { assignment } = snapshot.context;
  const editable = snapshot.matches('parsed');
  const blockers = confirmBlockers(snapshot.context);
  return (
    <div className="form__fields">
      <label className="field">
        <span className="field__label">Chemistry</span>
        <select className="input" disabled={!editable} value={assignment.chemistryId ?? ''} onChange={(e) => send({ type: 'assignment.change', patch: { chemistryId: e.target.value || null } })}>
          <option value="">Choose…</option>
          {CHEMISTRIES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Sample type</span>
        <select
          className="input"
          disabled={!editable}
          value={assignment.sampleType ?? ''}
          onChange={(e) => send({ type: 'assignment.change', patch: { sampleType: (e.target.value || null) as SampleType | null } })}
        >
          <option value="">Choose…</option>
          {SAMPLE_TYPES.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Comments</span>
        <input className="input" disabled={!editable} value={assignment.comments} onChange={(e) => send({ type: 'assignment.change', patch: { comments: e.target.value } })} />
      </label>
      {editable && blockers.length > 0 ? (
        <ul className="field__hint" aria-label="Before confirming">
          {blockers.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const Button = ({ label, event, snapshot, send, primary }: { label: string; event: ProfileImportEvent; snapshot: ImportSnapshot; send(e: ProfileImportEvent): void; primary?: boolean }) =>
  snapshot.can(event) ? (
    <button type="button" className={`button ${primary ? 'button--primary' : 'button--secondary'}`} onClick={() => send(event)}>
      {label}
    </button>
  ) : null;

/** The import screen, reduced to what the machine decides: which parts show and which buttons are offered. */
function ImportScreen({ snapshot, send }: { snapshot: ImportSnapshot; send(event: ProfileImportEvent): void }) {
  const { context } = snapshot;
  const actions = { snapshot, send };
  return (
    <section className="page" style={{ margin: '1rem' }}>
      <h1>Import profiles: case 2026-0142</h1>
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(snapshot.value)}</strong>
      </p>
      {context.error ? (
        <p className={`notice ${snapshot.matches('tokenExpired') ? 'notice--warning' : 'notice--negative'}`} role="alert">
          {context.error.message}
        </p>
      ) : null}
      {snapshot.matches('choosing') ? (
        <input type="file" aria-label="Profile file" onChange={(e) => e.target.files?.[0] && send({ type: 'file.selected', file: e.target.files[0] })} />
      ) : null}
      {snapshot.hasTag('busy') ? <p aria-busy="true">{snapshot.matches('confirming') ? 'Adding the chosen profiles…' : `Parsing ${context.file?.name}…`}</p> : null}
      {snapshot.matches('added') ? <p className="notice">{context.added} profiles added to the case as pending.</p> : null}
      {context.result && !snapshot.matches('added') && !snapshot.matches('reparsing') ? (
        <>
          <ProfileGrid {...actions} />
          <AssignmentFields {...actions} />
        </>
      ) : null}
      <div className="form__actions">
        <Button label="Cancel" event={{ type: 'parse.cancel' }} {...actions} />
        {snapshot.matches('parsed') ? (
          <button type="button" className="button button--primary" disabled={!snapshot.can({ type: 'import.confirm' })} onClick={() => send({ type: 'import.confirm' })}>
            Add {context.include.length} profiles
          </button>
        ) : null}
        <Button label="Try again" event={{ type: 'add.retry' }} primary {...actions} />
        <Button label="Back" event={{ type: 'failure.dismiss' }} {...actions} />
        <Button label="Parse the file again" event={{ type: 'file.parseAgain' }} primary {...actions} />
        <Button label={snapshot.matches('added') ? 'Import another file' : 'Start over'} event={{ type: 'import.startOver' }} {...actions} />
      </div>
    </section>
  );
}

/** The import screen in one state of the machine; events go nowhere (see Interactive). */
function ImportState({ value, context }: { value: StateValue; context: Partial<ProfileImportContext> }) {
  return <ImportScreen snapshot={profileImportMachine.resolveState({ value, context: { ...initialImportContext(), ...context } })} send={() => undefined} />;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The machine running with fake calls, from choosing to added. */
function InteractiveImport() {
  const logic = useMemo(() => {
    let confirmations = 0;
    return profileImportMachine.provide({
      actors: {
        parseFile: fromPromise(async ({ input }) => {
          await wait(600);
          if (input.file.name.includes('refused')) throw new ImportCallError(`${input.file.name} is not a profile file this import reads (CMF XML, GeneMapper, CSV)`, 400);
          return { result: { ...result, fileName: input.file.name }, token: `token-${Date.now()}` };
        }),
        addProfiles: fromPromise(async ({ input }) => {
          await wait(600);
          confirmations += 1;
          if (input.result.fileName.includes('expired') && confirmations === 1) throw new ImportCallError(expiredMessage, 400, 'expired');
          if (input.result.fileName.includes('fail')) throw new ImportCallError('Case 2026-0142 is closed; no profiles can be added.', 409);
          return { added: input.include.length };
        }),
      },
    });
  }, []);
  const [snapshot, send] = useMachine(logic);
  return <ImportScreen snapshot={snapshot} send={send} />;
}

const meta = { title: 'Machines/Profile import', component: ImportState, args: { context: {} } } satisfies Meta<typeof ImportState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** choosing: no file yet. */
export const Choosing: Story = { args: { value: 'choosing' } };
/** choosing after the server refused the file (400 unreadable, 413 too large): its message, and the picker again. */
export const ChoosingAfterRefusal: Story = { args: { value: 'choosing', context: { error: { status: 413, message: 'The file is larger than 20 MB' } } } };
/** parsing: the server reads the file; nothing is saved. Cancel goes back to choosing. */
export const Parsing: Story = { args: { value: 'parsing', context: { file } } };
/** parsed: every profile without errors chosen, kit and sample type pre-filled from the file; the one with errors cannot be chosen. */
export const Parsed: Story = { args: { value: 'parsed', context: parsed } };
/** parsed, but Confirm is not offered: nothing chosen, no chemistry or sample type; the reasons are listed. */
export const ParsedNotReady: Story = { args: { value: 'parsed', context: { ...parsed, include: [], assignment: initialImportContext().assignment } } };
/** confirming: the chosen profiles are being added with the approval token; nothing can change. */
export const Confirming: Story = { args: { value: 'confirming', context: parsed } };
/** added: the count, and an offer to import another file. */
export const Added: Story = { args: { value: 'added', context: { ...parsed, added: 2 } } };
/** failed: the add was refused; try again, go back to the choices, or start over. */
export const Failed: Story = {
  args: { value: 'failed', context: { ...parsed, error: { status: 400, message: 'The profiles sent differ from what the import parsed. Nothing was added.', approval: 'mismatch' } } },
};
/** tokenExpired: the approval ran out before Confirm; parse the same file again, keeping the choices. */
export const TokenExpired: Story = { args: { value: 'tokenExpired', context: { ...parsed, error: { status: 400, message: expiredMessage, approval: 'expired' } } } };
/** reparsing: the same file is parsed again for a new approval. */
export const Reparsing: Story = { args: { value: 'reparsing', context: { ...parsed, error: { status: 400, message: expiredMessage, approval: 'expired' } } } };

export const Interactive: Story = { args: { value: 'choosing' }, render: () => <InteractiveImport /> };
