import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { can } from '../../core/permissions';
import type { ReviewCounts } from '../../core/schemas/review-counts';
import { unwrap } from '../api/unwrap';
import { ApiContext } from './api-provider';
import { useOrganizationEvents } from './use-organization-events';
import { usePrincipal } from './use-principal';

/** The change kinds that move a count: a profile or a hit added, decided or reset. */
const COUNTED_CHANGES = ['profiles', 'hits'] as const;

/**
 * How many profiles and hits wait for review in `orgId` (issue 18), read from GET
 * organizations/{orgId}/review-counts, again when the organization changes and when its event stream
 * says profiles or hits changed (batched, use-organization-events.ts). Null until the first answer, and
 * for a user who may see neither review list (or without an API: stories).
 */
export function useReviewCountsOf(orgId: string): ReviewCounts | null {
  const api = useContext(ApiContext);
  const principal = usePrincipal();
  const mayCount = can(principal, 'Profiles', 'Read', { orgId }) || can(principal, 'Hits', 'Publish', { orgId });
  // The stream opens for Hits Read or Profiles Read (each user hears only the kinds they may read).
  const mayFollow = can(principal, 'Profiles', 'Read', { orgId }) || can(principal, 'Hits', 'Read', { orgId });
  const [counts, setCounts] = useState<{ orgId: string; value: ReviewCounts } | null>(null);
  const [reads, setReads] = useState(0);
  const latest = useRef(0);

  useOrganizationEvents(mayCount && mayFollow ? orgId : null, COUNTED_CHANGES, () => setReads((n) => n + 1));

  useEffect(() => {
    if (!api || !mayCount) return;
    // Answers may cross: only the last read asked is shown.
    const read = ++latest.current;
    unwrap(api.GET('/api/organizations/{orgId}/review-counts', { params: { path: { orgId } } })).then(
      (value) => {
        if (read === latest.current) setCounts({ orgId, value });
      },
      // The API client has told the user; the last counts stay until a read succeeds.
      () => undefined,
    );
  }, [api, orgId, mayCount, reads]);

  // Another organization's counts are never shown for this one while its first read is under way.
  return mayCount && counts?.orgId === orgId ? counts.value : null;
}

/** The page's review counts; stories provide them directly. */
export const ReviewCountsContext = createContext<ReviewCounts | null>(null);

/** Reads the organization's review counts once for the navigation and the dashboard below it. */
export function ReviewCountsProvider({ orgId, children }: { orgId: string; children: ReactNode }) {
  return <ReviewCountsContext.Provider value={useReviewCountsOf(orgId)}>{children}</ReviewCountsContext.Provider>;
}

/** The review counts of the page's organization; null outside a ReviewCountsProvider or while unknown. */
export function useReviewCounts(): ReviewCounts | null {
  return useContext(ReviewCountsContext);
}
