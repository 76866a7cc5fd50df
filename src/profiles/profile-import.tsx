import { useCallback, useMemo } from 'react';
import { useMachine } from '@xstate/react';
import { Link } from 'wouter';
import { fromPromise } from 'xstate';
import { PROFILE_KIND_LABELS, type ProfileKind } from '../../core/schemas/profiles';
import {
  confirmBlockers,
  profileImportMachine,
  type AddedProfiles,
  type AddProfilesRequest,
  type ImportAssignment,
  type ParsedImport,
  type ParseRequest,
} from '../../machines/profileImport.machine';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { ImportAssignmentForm } from './import-assignment';
import { ImportPreview } from './import-preview';
import { LoadState } from './load-state';
import type { ProfileType } from './profile-types';
import { profilesApi } from './profiles-api';
import { useProfileFormData } from './use-profile-form-data';
import './profiles.css';

/** Files the parsers read (issue 4: CODIS CMF XML, GeneMapper ID-X tables, CSV). */
const ACCEPT = '.xml,.cmf,.csv,.tsv,.txt';

export interface ProfileImportProps {
  orgId: string;
  caseId: string;
  type: ProfileType;
  /**
   * Spec 2.8 passes the admin status to the import screen. The server decides what may be added;
   * the shared screen needs nothing more, a kind's own screen may.
   */
  isAdmin: boolean;
}

/** The kind every parsed profile has, or null when the file mixes kinds or holds none. */
const kindOfFile = (profiles: readonly { kind: ProfileKind }[]): ProfileKind | null =>
  profiles.length > 0 && profiles.every((p) => p.kind === profiles[0]!.kind) ? profiles[0]!.kind : null;

/**
 * The import screen of a profile type (spec 2.8 `…/profiles/{type}/upload`, driven by
 * machines/profileImport): choose a file; see the parsed profiles with their errors; choose which
 * to add and where they go; confirm with the import's approval token. Nothing is saved before Confirm.
 */
export function ProfileImport({ orgId, caseId, type }: ProfileImportProps) {
  const api = useApi();
  const calls = useMemo(() => profilesApi(api), [api]);
  const formData = useProfileFormData(calls, orgId, caseId);
  const logic = useMemo(
    () =>
      profileImportMachine.provide({
        actors: {
          parseFile: fromPromise<ParsedImport, ParseRequest>(({ input }) => calls.parse(input.file)),
          addProfiles: fromPromise<AddedProfiles, AddProfilesRequest>(async ({ input }) => {
            const { result, include, assignment, token } = input;
            // The profiles go back exactly as parsed: the server compares them with what the token approved.
            const profiles = result.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues.map(({ markerId, alleles }) => ({ markerId, alleles })) }));
            const added = await calls.add({ caseId, ...assignment, profiles, include, importedFrom: result.fileName }, token);
            return { added: added.count };
          }),
        },
      }),
    [calls, caseId],
  );
  const [snapshot, send] = useMachine(logic);
  const { file, result, include, assignment, error, added } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const onAssignment = useCallback((patch: Partial<ImportAssignment>) => send({ type: 'assignment.change', patch }), [send]);
  const blockers = result ? confirmBlockers(snapshot.context) : [];
  const fileKind = result ? kindOfFile(result.profiles) : null;
  const kind = fileKind ?? type.kind;

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Upload {type.label} profiles</h1>
      <p>Nothing is saved until you confirm: the file is read first, and you choose which of its profiles to add to the case.</p>

      {snapshot.matches('added') ? (
        <div className="notice" role="status">
          <p>
            Added {added} profile{added === 1 ? '' : 's'} from {file?.name} to the case. {added === 1 ? 'It waits' : 'They wait'} for review.
          </p>
          <p>
            <Link href={routes.CaseProfiles.href({ orgId, caseId })}>The case’s profiles</Link> ·{' '}
            <Link href={routes.ProfilesReview.href({ orgId })}>Profiles waiting for review</Link> ·{' '}
            <button type="button" className="button button--secondary" onClick={() => send({ type: 'import.startOver' })}>
              Upload another file
            </button>
          </p>
        </div>
      ) : (
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
      )}

      {snapshot.matches('choosing') && error ? (
        <p className="notice notice--negative" role="alert">
          The file could not be read: {error.message}
        </p>
      ) : null}
      {snapshot.matches('parsing') || snapshot.matches('reparsing') ? (
        <p role="status" aria-busy="true">
          Reading {file?.name}…{' '}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'parse.cancel' })}>
            Cancel
          </button>
        </p>
      ) : null}
      {snapshot.matches('tokenExpired') ? (
        <div className="notice notice--warning" role="alert">
          <p>{error?.message}</p>
          <button type="button" className="button button--primary" onClick={() => send({ type: 'file.parseAgain' })}>
            Read {file?.name} again
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'import.startOver' })}>
            Start over
          </button>
        </div>
      ) : null}
      {snapshot.matches('failed') ? (
        <div className="notice notice--negative" role="alert">
          <p>Nothing was added: {error?.message}</p>
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'add.retry' })}>
            Try again
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'failure.dismiss' })}>
            Back to the profiles
          </button>
        </div>
      ) : null}

      {result && !snapshot.matches('added') ? (
        <>
          <ImportPreview result={result} chosen={new Set(include)} onToggle={(index) => send({ type: 'profile.toggle', index })} disabled={!snapshot.matches('parsed')} />
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
                resetKey={result}
                data={data}
                kind={kind}
                chemistryHint={result.suggestedChemistryId ? 'Chosen for the file’s markers: the kit that holds most of them.' : 'No kit of this kind holds the file’s markers; choose one.'}
                disabled={!snapshot.matches('parsed')}
                onChange={onAssignment}
              />
            )}
          </LoadState>
          <div className="form__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={!snapshot.can({ type: 'import.confirm' })}
              aria-describedby={blockers.length > 0 ? 'confirm-blockers' : undefined}
              onClick={() => send({ type: 'import.confirm' })}
            >
              {snapshot.matches('confirming') ? 'Adding…' : `Confirm and add ${include.length} profile${include.length === 1 ? '' : 's'}`}
            </button>
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => send({ type: 'import.startOver' })}>
              Start over
            </button>
          </div>
          {blockers.length > 0 && snapshot.matches('parsed') ? (
            <ul id="confirm-blockers" className="field__hint">
              {blockers.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
