import type { ReactNode } from 'react';
import type { ReviewCounts } from '../../../core/schemas/review-counts';
import { REVIEW_LISTS, waitingForReview } from '../review-lists';
import type { RouteName } from '../routes';
import './review-count-badge.css';

/**
 * The small count beside a navigation entry (issue 18): how many wait in its review list, read out as
 * "3 profiles waiting for review". Not a link of its own: the entry beside it keeps its name and is the
 * one stop for the keyboard. Nothing at 0, or where the figure is null (the user may not review them).
 */
export function ReviewCountBadge({ count, one, many }: { count: number | null; one: string; many: string }) {
  if (count === null || count === 0) return null;
  return (
    <span className="review-count-badge">
      <span aria-hidden="true">{count > 999 ? '999+' : count.toLocaleString('en-GB')}</span>
      <span className="visually-hidden">{waitingForReview(count, one, many)}</span>
    </span>
  );
}

/** The navigation's badges, by the area whose entry each sits beside; none while the counts are unknown. */
export function reviewBadges(counts: ReviewCounts | null): Partial<Record<RouteName, ReactNode>> {
  if (!counts) return {};
  return Object.fromEntries(
    REVIEW_LISTS.filter((r) => (counts[r.key] ?? 0) > 0).map((r) => [r.area, <ReviewCountBadge key={r.key} count={counts[r.key]} one={r.one} many={r.many} />]),
  );
}
