import { Link } from 'wouter';
import type { SnapshotFrom } from 'xstate';
import { IMPORT_RUNNING_STATES, type ProfileImportJob } from '../../core/schemas/profile-imports';
import type { ProfileImportEvent, profileImportMachine } from '../../machines/profileImport.machine';
import { routes } from '../app/routes';
import { counted, formatCount } from './import-preview';
import { progressText } from './import-progress';

/**
 * The parts of the import screen that draw the job rather than its profiles: the user's unfinished
 * imports while no file is chosen, the progress of a running job, and the notice of each state
 * the machine can end up in (refused upload, unreadable file, added, stopped, interrupted …).
 */

export type ImportSnapshot = SnapshotFrom<typeof profileImportMachine>;

/** What each part of the screen is given: the machine's snapshot and the way to send it events. */
export interface ImportViewProps {
  snapshot: ImportSnapshot;
  send(event: ProfileImportEvent): void;
}

/** Where an unfinished import stands, in words. */
export function unfinishedStateText(job: ProfileImportJob): string {
  if (job.state === 'parsing') return 'reading';
  if (job.state === 'parsed') return 'waiting for your confirmation';
  if (job.state === 'adding') return `adding ${formatCount(job.done)} of ${formatCount(job.total)}`;
  return job.state;
}

const startedAt = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** One unfinished import: what it is, and Continue; Resume when interrupted; Discard when it is not running. */
function UnfinishedItem({ job, snapshot, send }: ImportViewProps & { job: ProfileImportJob }) {
  const action = (type: 'unfinished.continue' | 'unfinished.resume' | 'unfinished.discard', label: string, tone: 'primary' | 'secondary') => {
    const event = { type, importId: job.id };
    return (
      <button type="button" className={`button button--${tone}`} aria-label={`${label} ${job.fileName}`} disabled={!snapshot.can(event)} onClick={() => send(event)}>
        {label}
      </button>
    );
  };
  const interrupted = job.state === 'interrupted';
  return (
    <li className="profile-import__unfinished-item">
      <span>
        <strong>{job.fileName}</strong> — {unfinishedStateText(job)} — started {startedAt(job.createdAt)}
      </span>
      <span className="profile-import__unfinished-actions">
        {action('unfinished.continue', 'Continue', interrupted ? 'secondary' : 'primary')}
        {interrupted ? action('unfinished.resume', 'Resume', 'primary') : null}
        {IMPORT_RUNNING_STATES.has(job.state) ? null : action('unfinished.discard', 'Discard', 'secondary')}
      </span>
    </li>
  );
}

/** The user's unfinished imports of the case, above the file input; a quiet notice when they could not be listed. */
export function UnfinishedImports({ snapshot, send }: ImportViewProps) {
  const { unfinished } = snapshot.context;
  if (snapshot.matches({ choosing: 'listFailed' })) {
    return (
      <p className="field__hint" role="status">
        Your unfinished imports in this case could not be listed.{' '}
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'unfinished.refresh' })}>
          List them again
        </button>
      </p>
    );
  }
  if (unfinished.length === 0) return null;
  return (
    <section className="profile-import__unfinished" aria-labelledby="unfinished-imports-title">
      <h2 id="unfinished-imports-title">Your unfinished imports in this case</h2>
      <ul aria-labelledby="unfinished-imports-title">
        {unfinished.map((job) => (
          <UnfinishedItem key={job.id} job={job} snapshot={snapshot} send={send} />
        ))}
      </ul>
    </section>
  );
}

/** A running job: its progress, and the way to stop it (reading: Cancel; adding: after the current batch). */
function JobProgress({ snapshot, send }: ImportViewProps) {
  const job = snapshot.context.job!;
  const reading = job.state === 'parsing';
  const stopping = !snapshot.matches({ following: { stop: 'idle' } });
  const error = snapshot.context.error;
  return (
    <div className="profile-import__progress">
      <p role="status" aria-busy="true">
        {progressText(job, snapshot.context.progressMark)}
      </p>
      {job.total > 0 ? <progress value={job.done} max={job.total} aria-label={reading ? 'Profiles stored' : 'Profiles done'} /> : <progress aria-label="Working" />}
      {stopping ? (
        <p role="status">{reading ? 'Cancelling…' : 'Stopping after the current batch…'}</p>
      ) : (
        <button type="button" className="button button--secondary" onClick={() => send({ type: reading ? 'parse.cancel' : 'add.cancel' })}>
          {reading ? 'Cancel' : 'Stop after the current batch'}
        </button>
      )}
      {error ? (
        <p className="notice notice--negative" role="alert">
          It could not be stopped: {error.message}
        </p>
      ) : null}
    </div>
  );
}

/** Where to go once profiles were added: the case's profiles, the review list, or another file. */
function AfterAdding({ orgId, caseId, send }: Pick<ImportViewProps, 'send'> & { orgId: string; caseId: string }) {
  return (
    <p>
      <Link href={routes.CaseProfiles.href({ orgId, caseId })}>The case’s profiles</Link> ·{' '}
      <Link href={routes.ProfilesReview.href({ orgId })}>Profiles waiting for review</Link> ·{' '}
      <button type="button" className="button button--secondary" onClick={() => send({ type: 'import.startOver' })}>
        Upload another file
      </button>
    </p>
  );
}

/** The approval could not be used: its message, and the ways on (reading the file again needs the file at hand). */
function RefusalNotice({ snapshot, send }: ImportViewProps) {
  const { file, error } = snapshot.context;
  const expired = snapshot.matches('tokenExpired');
  return (
    <div className={`notice ${expired ? 'notice--warning' : 'notice--negative'}`} role="alert">
      <p>{error?.message}</p>
      {snapshot.can({ type: 'file.parseAgain' }) ? (
        <>
          <button type="button" className="button button--primary" onClick={() => send({ type: 'file.parseAgain' })}>
            Read {file?.name} again
          </button>{' '}
        </>
      ) : null}
      <button type="button" className="button button--secondary" onClick={() => send({ type: 'import.startOver' })}>
        Start over
      </button>
    </div>
  );
}

/** A line that says what the screen is waiting for. */
const Busy = ({ text }: { text: string }) => (
  <p role="status" aria-busy="true">
    {text}
  </p>
);

/** The notice of the machine's state about the job: what happened to it, and the ways on. */
export function JobNotices({ orgId, caseId, snapshot, send }: ImportViewProps & { orgId: string; caseId: string }) {
  const { file, job, error } = snapshot.context;
  const addedCount = job?.addedCount ?? 0;
  return (
    <>
      {snapshot.matches('choosing') && error ? (
        <p className="notice notice--negative" role="alert">
          The file could not be read: {error.message}
        </p>
      ) : null}
      {snapshot.matches('uploading') ? <Busy text={`Uploading ${file?.name}…`} /> : null}
      {snapshot.matches('opening') ? <Busy text={`Opening the import of ${job?.fileName}…`} /> : null}
      {snapshot.matches('parseFailed') ? (
        <p className="notice notice--negative" role="alert">
          {job?.message} Choose another file.
        </p>
      ) : null}
      {snapshot.matches('following') ? <JobProgress snapshot={snapshot} send={send} /> : null}
      {snapshot.matches('unreachable') ? (
        <div className="notice notice--negative" role="alert">
          <p>The import’s progress could not be read: {error?.message}</p>
          <button type="button" className="button button--primary" onClick={() => send({ type: 'job.refresh' })}>
            Check again
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'import.startOver' })}>
            Start over
          </button>
        </div>
      ) : null}

      {snapshot.matches('added') ? (
        <div className="notice" role="status">
          <p>
            Added {counted(addedCount, 'profile')} from {job?.fileName} to the case. {addedCount === 1 ? 'It waits' : 'They wait'} for review.
          </p>
          <AfterAdding orgId={orgId} caseId={caseId} send={send} />
        </div>
      ) : null}
      {snapshot.matches('cancelled') ? (
        <div className="notice notice--warning" role="status">
          <p>Stopped: {addedCount === 1 ? '1 profile was' : `${formatCount(addedCount)} profiles were`} added (whole batches); the rest were not.</p>
          <AfterAdding orgId={orgId} caseId={caseId} send={send} />
        </div>
      ) : null}
      {snapshot.matches('interrupted') ? (
        <div className="notice notice--warning" role="alert">
          <p>{job?.message}</p>
          {error ? <p>It could not be resumed: {error.message}</p> : null}
          <button type="button" className="button button--primary" onClick={() => send({ type: 'job.resume' })}>
            Resume
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'job.discard' })}>
            Discard
          </button>
        </div>
      ) : null}
      {snapshot.matches('resuming') ? <Busy text={`Resuming the import of ${job?.fileName}…`} /> : null}
      {snapshot.matches('discarding') ? <Busy text={`Discarding the import of ${job?.fileName}…`} /> : null}

      {snapshot.matches('tokenExpired') || snapshot.matches('refused') ? <RefusalNotice snapshot={snapshot} send={send} /> : null}
      {snapshot.matches('addFailed') ? (
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
    </>
  );
}
