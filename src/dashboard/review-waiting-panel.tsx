import { useId } from 'react';
import { Link } from 'wouter';
import { useReviewCounts } from '../app/review-counts';
import { REVIEW_LISTS, waitingForReview } from '../app/review-lists';
import { getRoute } from '../app/routes';
import './review-waiting-panel.css';

/**
 * "Waiting for review" (issue 18): how many profiles and hits wait in their review lists, each a link
 * to its list. The figures are the navigation's (one read, kept current by the organization's event
 * stream); a figure the user may not see is left out, and the panel with both.
 */
export function ReviewWaitingPanel({ orgId }: { orgId: string }) {
  const headingId = useId();
  const counts = useReviewCounts();
  const lists = counts ? REVIEW_LISTS.flatMap((r) => (counts[r.key] === null ? [] : [{ ...r, count: counts[r.key]! }])) : [];
  if (lists.length === 0) return null;
  return (
    <section className="dashboard-panel review-waiting" aria-labelledby={headingId}>
      <h2 id={headingId}>Waiting for review</h2>
      <ul className="review-waiting__list">
        {lists.map((r) => (
          <li key={r.key}>
            <Link href={getRoute(r.list).href({ orgId })} className="review-waiting__link" aria-label={waitingForReview(r.count, r.one, r.many)}>
              <span className="review-waiting__count">{r.count.toLocaleString('en-GB')}</span> {r.count === 1 ? r.one : r.many}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
