import { useCallback, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { ProfileImportJob } from '../../core/schemas/profile-imports';
import { PROFILE_KIND_LABELS } from '../../core/schemas/profiles';
import {
  addableCount,
  chosenCount,
  confirmBlockers,
  IMPORT_POLL_MS,
  profileImportMachine,
  type AddImportRequest,
  type ImportAssignment,
  type JobRequest,
  type JobView,
  type PageRequest,
  type RowsPage,
  type UnfinishedRequest,
  type UploadRequest,
} from '../../machines/profileImport.machine';
import { useApi } from '../app/api-provider';
import { ImportAssignmentForm, kindOfMarkers } from './import-assignment';
import { JobNotices, UnfinishedImports, type ImportViewProps } from './import-job-panel';
import { counted, ImportPreview } from './import-preview';
import { LoadState } from './load-state';
import type { ProfileTypeTraits } from './profile-type-traits';
import { profilesApi } from './profiles-api';
import type { Loaded } from './use-loaded';
import { useProfileFormData, type ProfileFormData } from './use-profile-form-data';
import './profiles.css';

/** Files the parsers read (issue 4: CODIS CMF XML, GeneMapper ID-X tables, CSV). */
const ACCEPT = '.xml,.cmf,.csv,.tsv,.txt';

export interface ProfileImportProps {
  orgId: string;
  caseId: string;
  type: ProfileTypeTraits;
  /**
   * Spec 2.8 passes the admin status to the import screen. The server decides what may be added;
   * the shared screen needs nothing more, a kind's own screen may.
   */
  isAdmin: boolean;
  /** The pause between two reads of a running import (the machine's `pollInterval`); tests shorten it. */
  pollMs?: number;
}

/**
 * The import screen of a profile type (spec 2.8 `…/profiles/{type}/upload`, driven by
 * machines/profileImport): choosing a file uploads it and the server reads it as a job; the
 * profiles are previewed page by page; the user leaves some out, says where they go and confirms
 * with the import's approval token; the check and the add are followed to their end. Nothing is
 * saved before Confirm.
 */
export function ProfileImport({ orgId, caseId, type, pollMs = IMPORT_POLL_MS }: ProfileImportProps) {
  const api = useApi();
  const calls = useMemo(() => profilesApi(api), [api]);
  const formData = useProfileFormData(calls, orgId, caseId);
  const logic = useMemo(
    () =>
      profileImportMachine.provide({
        actors: {
          uploadFile: fromPromise<JobView, UploadRequest>(({ input }) => calls.upload(input.file, input.caseId)),
          readJob: fromPromise<JobView, JobRequest>(({ input }) => calls.importJob(input.importId)),
          readPage: fromPromise<RowsPage, PageRequest>(({ input }) => calls.importRows(input)),
          addProfiles: fromPromise<JobView, AddImportRequest>(({ input }) => calls.addImport(input)),
          cancelJob: fromPromise<JobView, JobRequest>(({ input }) => calls.cancelImport(input.importId)),
          resumeJob: fromPromise<JobView, JobRequest>(({ input }) => calls.resumeImport(input.importId)),
          discardJob: fromPromise<void, JobRequest>(({ input }) => calls.discardImport(input.importId)),
          listUnfinished: fromPromise<ProfileImportJob[], UnfinishedRequest>(({ input }) => calls.unfinishedImports(input.caseId).then((list) => list.items)),
        },
        // Fire and forget: the API client tells the user of a failure; the screen has moved on.
        actions: { discardQuietly: (_, { importId }) => void calls.discardImport(importId).catch(() => undefined) },
        delays: { pollInterval: pollMs },
      }),
    [calls, pollMs],
  );
  const [snapshot, send] = useMachine(logic, { input: { caseId } });
  return <ImportPanel orgId={orgId} caseId={caseId} type={type} formData={formData} snapshot={snapshot} send={send} />;
}

interface ImportPanelProps extends ImportViewProps {
  orgId: string;
  caseId: string;
  type: ProfileTypeTraits;
  /** The choices of the assignment form (chemistries with their markers, sources, laboratories, the case's items). */
  formData: Loaded<ProfileFormData> & { reload(): void };
}

/** The confirmation: where the chosen profiles go, then Confirm. */
function AddToCase({ type, formData, snapshot, send }: Omit<ImportPanelProps, 'orgId' | 'caseId'>) {
  const { job, assignment } = snapshot.context;
  const onAssignment = useCallback((patch: Partial<ImportAssignment>) => send({ type: 'assignment.change', patch }), [send]);
  if (!job) return null;
  const editable = snapshot.matches('parsed');
  if (addableCount(job) === 0) return <NothingToAdd profileCount={job.profileCount} editable={editable} send={send} />;
  const blockers = confirmBlockers(snapshot.context);
  const count = chosenCount(snapshot.context);
  const chemistries = formData.status === 'loaded' ? formData.value.options.chemistries : [];
  const fileKind = chemistries.find((c) => c.id === job.suggestedChemistryId)?.kind ?? kindOfMarkers(job.markers, chemistries);
  const kind = fileKind ?? type.kind;
  return (
    <>
      {fileKind && fileKind !== type.kind ? (
        <p className="notice notice--warning" role="status">
          This file holds {PROFILE_KIND_LABELS[fileKind]} profiles, not {type.label} ones; they are offered {PROFILE_KIND_LABELS[fileKind]} chemistries.
        </p>
      ) : null}
      <h2>Add to the case</h2>
      <LoadState loaded={formData} missing="This case no longer exists.">
        {(data) => (
          <ImportAssignmentForm
            assignment={assignment}
            data={data}
            kind={kind}
            fileMarkers={job.markers}
            chemistryHint={job.suggestedChemistryId ? 'Chosen for the file’s markers: the kit that holds most of them.' : 'No kit of this kind holds the file’s markers; choose one.'}
            disabled={!editable}
            onChange={onAssignment}
          />
        )}
      </LoadState>
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={!editable || !snapshot.can({ type: 'import.confirm' })}
          aria-describedby={blockers.length > 0 ? 'confirm-blockers' : undefined}
          onClick={() => send({ type: 'import.confirm' })}
        >
          {snapshot.matches('confirming') ? 'Adding…' : `Confirm and add ${counted(count, 'profile')}`}
        </button>
        <button type="button" className="button button--secondary" disabled={!editable} onClick={() => send({ type: 'import.startOver' })}>
          Start over
        </button>
      </div>
      {blockers.length > 0 && editable ? (
        <ul id="confirm-blockers" className="field__hint">
          {blockers.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** No profile of the file can be added (each has an error, or it holds none): no assignment to fill in and no Confirm, only what to do. */
function NothingToAdd({ profileCount, editable, send }: { profileCount: number; editable: boolean; send: ImportPanelProps['send'] }) {
  return (
    <>
      <p className="notice notice--negative" role="alert">
        {profileCount === 0
          ? 'This file holds no profile to add.'
          : profileCount === 1
            ? 'The profile in this file cannot be added: it has an error.'
            : `None of the ${counted(profileCount, 'profile')} in this file can be added: each has an error.`}{' '}
        Correct the file, then choose it again.
      </p>
      <div className="form__actions">
        <button type="button" className="button button--secondary" disabled={!editable} onClick={() => send({ type: 'import.startOver' })}>
          Start over
        </button>
      </div>
    </>
  );
}

/** The import screen for one state of the machine (stories draw it from a resolved snapshot). */
export function ImportPanel({ orgId, caseId, type, formData, snapshot, send }: ImportPanelProps) {
  const { file, job } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const choosing = snapshot.matches('choosing') || snapshot.matches('uploading') || snapshot.matches('parseFailed');
  const previewing = snapshot.matches('parsed') || snapshot.matches('confirming') || snapshot.matches('addFailed') || snapshot.matches('tokenExpired');

  return (
    <section className="page profile-import" aria-labelledby="page-title">
      <h1 id="page-title">Upload {type.label} profiles</h1>
      <p>Nothing is saved until you confirm: the file is read first, and you choose which of its profiles to add to the case.</p>

      {snapshot.matches('choosing') ? <UnfinishedImports snapshot={snapshot} send={send} /> : null}
      {choosing ? (
        <div className="field">
          <label className="field__label" htmlFor="profile-file">
            Profile file
          </label>
          <input
            id="profile-file"
            className="input"
            type="file"
            accept={ACCEPT}
            disabled={busy}
            aria-describedby="profile-file-hint"
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              if (chosen) send({ type: 'file.selected', file: chosen });
              // Lets the same file be chosen again after it was corrected.
              e.target.value = '';
            }}
          />
          <p className="field__hint" id="profile-file-hint">
            {file ? `Chosen: ${file.name}. ` : ''}
            {type.importHint}
          </p>
        </div>
      ) : null}

      <JobNotices orgId={orgId} caseId={caseId} snapshot={snapshot} send={send} />

      {previewing && job ? (
        <>
          {snapshot.matches('parsed') && job.problemCount > 0 && job.message ? (
            <p className="notice notice--negative" role="alert">
              {job.message}
            </p>
          ) : null}
          <ImportPreview snapshot={snapshot} send={send} />
          <AddToCase type={type} formData={formData} snapshot={snapshot} send={send} />
        </>
      ) : null}
    </section>
  );
}
