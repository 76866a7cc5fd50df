import type { SnapshotFrom } from 'xstate';
import { IMPORT_ROW_FILTERS, type ImportRowFilter, type ProfileImportJob, type ProfileImportRow } from '../../core/schemas/profile-imports';
import type { ImportControl, ImportIssue } from '../../core/schemas/profiles';
import { addableCount, IMPORT_PAGE_SIZE, type ProfileImportEvent, type profileImportMachine } from '../../machines/profileImport.machine';
import { formatAlleles } from './allele-text';
import { ReplicateJoin } from './import-replicate-join';

/** A count as the screen writes it: 100,000. */
export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** "1 error", "133 errors". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Where an import problem is: row, sample and marker when the file says (null row: the whole file). */
export function issueText(issue: ImportIssue): string {
  // The allele rules already name the marker ("vWA: …"): it is not said twice.
  const named = issue.marker !== undefined && issue.message.startsWith(`${issue.marker}`);
  const where = [issue.row !== null ? `Row ${issue.row}` : null, issue.sample, named ? null : issue.marker].filter(Boolean).join(', ');
  return where ? `${where}: ${issue.message}` : issue.message;
}

function IssueList({ title, issues, tone }: { title: string; issues: readonly ImportIssue[]; tone: 'negative' | 'warning' }) {
  if (issues.length === 0) return null;
  return (
    <div className={`notice notice--${tone}`} role={tone === 'negative' ? 'alert' : 'status'}>
      <p>{title}</p>
      <ul className="profile-import__issues">
        {issues.map((issue, i) => (
          <li key={i}>{issueText(issue)}</li>
        ))}
      </ul>
    </div>
  );
}

/** Ladders and controls the parser set apart: not profiles, never added. */
function ControlList({ controls }: { controls: readonly ImportControl[] }) {
  if (controls.length === 0) return null;
  return (
    <div className="profile-import__scroll">
      <table className="profile-import__grid profile-import__controls">
        <caption>Allelic ladders and controls, not imported</caption>
        <thead>
          <tr>
            <th scope="col">Sample</th>
            <th scope="col">Line</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {controls.map((c, i) => (
            <tr key={i}>
              <th scope="row">{c.sampleName}</th>
              <td>{c.line ?? '—'}</td>
              <td>{c.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The labels of the preview's filters (server filters all, addable, flagged, problems). */
export const FILTER_LABELS: Record<ImportRowFilter, string> = {
  all: 'All',
  addable: 'Can be added',
  flagged: 'With errors',
  problems: 'Not accepted',
};

/** "<profileCount> profiles read: <addable> can be added, <flagged> have errors". */
export function summaryText(job: Pick<ProfileImportJob, 'profileCount' | 'flaggedCount'>): string {
  const flagged = job.flaggedCount;
  return `${counted(job.profileCount, 'profile')} read: ${formatCount(addableCount(job))} can be added, ${formatCount(flagged)} ${flagged === 1 ? 'has' : 'have'} errors`;
}

/** What is wrong with a row, in words: the parser's errors, what the check against the assignment refused, then the peak heights' warnings. */
function RowProblems({ row }: { row: ProfileImportRow }) {
  if (row.errors.length === 0 && row.problems.length === 0 && row.warnings.length === 0) return <>None</>;
  return (
    <ul className="profile-import__errors">
      {row.errors.map((e, i) => (
        <li key={`e${i}`}>{e}</li>
      ))}
      {row.problems.map((p, i) => (
        <li key={`p${i}`}>Not accepted: {p}</li>
      ))}
      {/* Issue 31: against the chosen kit; kept, so they never keep the profile from being added. */}
      {row.warnings.map((w, i) => (
        <li key={`w${i}`} className="profile-import__warning">
          Warning: {w}
        </li>
      ))}
    </ul>
  );
}

type ImportSnapshot = SnapshotFrom<typeof profileImportMachine>;

interface ImportPreviewProps {
  snapshot: ImportSnapshot;
  send(event: ProfileImportEvent): void;
}

/**
 * What the server read from the file, before anything is saved (issues 4, 13): the summary, the
 * file's errors and warnings, the ladders and controls set apart, and the profiles page by page
 * with a filter, each with its markers and what keeps it from being added. A profile without errors
 * can be left out; what the machine allows decides every checkbox and button.
 */
export function ImportPreview({ snapshot, send }: ImportPreviewProps) {
  const { job, rows, rowCount, page, filter, excluded, groups } = snapshot.context;
  if (!job) return null;
  const editable = snapshot.matches('parsed');
  const loading = snapshot.matches({ parsed: 'loadingPage' });
  const first = page * IMPORT_PAGE_SIZE + 1;
  const last = Math.min(rowCount, (page + 1) * IMPORT_PAGE_SIZE);
  return (
    <div className="profile-import__preview">
      <p>
        {job.fileName}: {job.format}. <strong>{summaryText(job)}</strong>
        {excluded.size > 0 ? ` ${formatCount(excluded.size)} left out.` : ''}
      </p>
      <IssueList title={`${counted(job.errors.length, 'error')} in the file`} issues={job.errors} tone="negative" />
      <IssueList title={`${counted(job.warnings.length, 'warning')} in the file`} issues={job.warnings} tone="warning" />
      <ControlList controls={job.controls} />

      <fieldset className="profile-import__filter" disabled={!editable}>
        <legend>Show</legend>
        {IMPORT_ROW_FILTERS.map((f) => (
          <label key={f}>
            <input type="radio" name="profile-import-filter" value={f} checked={filter === f} onChange={() => send({ type: 'filter.change', filter: f })} />{' '}
            {FILTER_LABELS[f]}
          </label>
        ))}
      </fieldset>

      {snapshot.matches({ parsed: 'pageFailed' }) ? (
        <div className="notice notice--negative" role="alert">
          <p>This page of profiles could not be read: {snapshot.context.error?.message}</p>
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'page.retry' })}>
            Try again
          </button>
        </div>
      ) : null}

      <nav className="profile-import__pager" aria-label="Pages of profiles">
        <button type="button" className="button button--secondary" disabled={!editable || !snapshot.can({ type: 'page.previous' })} onClick={() => send({ type: 'page.previous' })}>
          Previous
        </button>
        <span aria-live="polite">{rowCount > 0 ? `Profiles ${formatCount(first)}–${formatCount(last)} of ${formatCount(rowCount)}` : loading ? 'Reading the profiles…' : 'No profiles to show'}</span>
        <button type="button" className="button button--secondary" disabled={!editable || !snapshot.can({ type: 'page.next' })} onClick={() => send({ type: 'page.next' })}>
          Next
        </button>
        {filter === 'problems' && snapshot.can({ type: 'page.leaveOut' }) ? (
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'page.leaveOut' })}>
            Leave out the profiles on this page
          </button>
        ) : null}
      </nav>

      {rows.length > 0 ? (
        <div className="profile-import__scroll" role="region" aria-label="Profiles of the file" tabIndex={0}>
          <table className="profile-import__grid" aria-busy={loading}>
            <caption>Profiles in {job.fileName}</caption>
            <thead>
              <tr>
                <th scope="col">Add</th>
                <th scope="col">Profile</th>
                <th scope="col">Line</th>
                <th scope="col">Errors</th>
                <th scope="col">Markers</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const flagged = row.errors.length > 0;
                return (
                  <tr key={row.index} className={flagged || row.problems.length > 0 ? 'profile-import__row--invalid' : undefined}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Add ${row.profileId}`}
                        checked={!flagged && !excluded.has(row.index)}
                        disabled={!editable || !snapshot.can({ type: 'profile.toggle', index: row.index })}
                        onChange={() => send({ type: 'profile.toggle', index: row.index })}
                      />
                    </td>
                    <th scope="row">{row.profileId}</th>
                    <td>{row.line ?? '—'}</td>
                    <td className="profile-import__problems">
                      <RowProblems row={row} />
                    </td>
                    <td className="profile-import__markers">
                      {row.markerValues.map((m) => `${m.marker} ${formatAlleles(m.alleles)}`).join('; ') || 'No markers'}
                      {row.replicates?.length ? <p className="profile-import__replicates">{replicatesText(row.replicates)}</p> : null}
                      <ReplicateJoin row={row} rows={rows} groups={groups} excluded={excluded} disabled={!editable} send={send} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

/** Issue 31: the runs read with heights, as the preview names them (a profile's replicates, grouped by sample name). */
function replicatesText(replicates: readonly { name: string }[]): string {
  const names = replicates.map((r) => r.name).join(', ');
  return replicates.length === 1 ? `With peak heights (run ${names})` : `With peak heights: ${replicates.length} replicates (${names})`;
}
