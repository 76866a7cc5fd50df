import { WEIGHED_AGAIN_LABEL } from '../../core/hit-weighing';
import { HIT_STATUS_LABELS, type HitHistoryEntry } from '../../core/schemas/hits';
import { formatDateTime } from '../cases/format';

/** What one transition did, as the history reads it. */
function whatHappened(entry: HitHistoryEntry): string {
  if (entry.from === null) return 'Found by the database search';
  if (entry.from === entry.to) return WEIGHED_AGAIN_LABEL;
  if (entry.to === 'published') return entry.notified ? 'Published, assigned users notified' : 'Published';
  if (entry.to === 'rejected') return 'Rejected';
  // A reset of a published hit is a retraction; `notified` says the people its publication told were e-mailed.
  if (entry.from === 'published') return entry.notified ? 'Retracted: reset to pending, notified users e-mailed' : 'Retracted: reset to pending (was published)';
  return `Reset to pending (was ${HIT_STATUS_LABELS[entry.from].toLowerCase()})`;
}

/** The hit's history (ARCHITECTURE.md "States": every transition kept): who, when, what, comments or reason. */
export function HitHistory({ history }: { history: readonly HitHistoryEntry[] }) {
  return (
    <section aria-labelledby="hit-history-title">
      <h2 id="hit-history-title">History</h2>
      <table className="hit-table">
        <caption className="visually-hidden">History of the hit</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">What</th>
            <th scope="col">Comments</th>
          </tr>
        </thead>
        <tbody>
          {history.map((entry, i) => (
            <tr key={`${entry.at}/${i}`}>
              <td>{formatDateTime(entry.at)}</td>
              <td>{entry.userName}</td>
              <td>{whatHappened(entry)}</td>
              <td>{entry.comments || '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
