import type { ImportIssue, ProfileImportResult } from '../../core/schemas/profiles';
import { formatAlleles } from './allele-text';
import { kindLabel } from './profile-columns';

/** Where an import problem is: row, sample and marker when the file says (null row: the whole file). */
export function issueText(issue: ImportIssue): string {
  const where = [issue.row !== null ? `Row ${issue.row}` : null, issue.sample, issue.marker].filter(Boolean).join(', ');
  return where ? `${where}: ${issue.message}` : issue.message;
}

function IssueList({ title, issues, tone }: { title: string; issues: readonly ImportIssue[]; tone: 'negative' | 'warning' }) {
  if (issues.length === 0) return null;
  return (
    <div className={`notice notice--${tone}`} role={tone === 'negative' ? 'alert' : 'status'}>
      <p>
        {issues.length} {title}
        {issues.length === 1 ? '' : 's'}
      </p>
      <ul className="profile-import__issues">
        {issues.map((issue, i) => (
          <li key={i}>{issueText(issue)}</li>
        ))}
      </ul>
    </div>
  );
}

interface ImportPreviewProps {
  result: ProfileImportResult;
  /** Indices of the profiles chosen to add. */
  chosen: ReadonlySet<number>;
  onToggle(index: number): void;
  disabled: boolean;
}

/**
 * What the server parsed from the file, before anything is saved (issue 4): the file's errors and
 * warnings, and a grid of its profiles, each with its markers and, beside it, what keeps it from
 * being added. Profiles without errors can be chosen.
 */
export function ImportPreview({ result, chosen, onToggle, disabled }: ImportPreviewProps) {
  return (
    <div className="profile-import__preview">
      <p>
        {result.fileName}: {result.format}, {result.profiles.length} profile{result.profiles.length === 1 ? '' : 's'}.
      </p>
      <IssueList title="error in the file" issues={result.errors} tone="negative" />
      <IssueList title="warning" issues={result.warnings} tone="warning" />
      {result.profiles.length > 0 ? (
        <table className="profile-import__grid">
          <caption>Profiles in {result.fileName}</caption>
          <thead>
            <tr>
              <th scope="col">Add</th>
              <th scope="col">Profile</th>
              <th scope="col">Type</th>
              <th scope="col">Markers</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {result.profiles.map((p, index) => {
              const addable = p.errors.length === 0;
              return (
                <tr key={index} className={addable ? undefined : 'profile-import__row--invalid'}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Add ${p.profileId}`}
                      checked={chosen.has(index)}
                      disabled={disabled || !addable}
                      onChange={() => onToggle(index)}
                    />
                  </td>
                  <th scope="row">{p.profileId}</th>
                  <td>{kindLabel(p.kind)}</td>
                  <td className="profile-import__markers">
                    {p.markerValues.map((m) => `${m.marker} ${formatAlleles(m.alleles)}`).join('; ') || 'No markers'}
                  </td>
                  <td>
                    {addable ? (
                      'None'
                    ) : (
                      <ul className="profile-import__errors">
                        {p.errors.map((e, i) => (
                          <li key={i}>{e}</li>
                        ))}
                      </ul>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
