import type { ReactNode } from 'react';
import { can } from '../../core/permissions';
import type { BulkHitDecisionBody, BulkReviewResult } from '../../core/schemas/bulk-review';
import type { HitSummary } from '../../core/schemas/hits';
import { hitBulkReview, type BulkRequest, type HitBulkAction } from '../../machines/bulkReview.machine';
import { useApi } from '../app/api-provider';
import { usePrincipal } from '../app/use-principal';
import { unwrap } from '../api/unwrap';
import { BulkReview, type BulkActionText } from '../ui/bulk-review/bulk-review';
import type { DataColumn } from '../ui/data-table/data-table';
import { hitProfilesText } from './hit-list';

const ACTIONS: Record<HitBulkAction, BulkActionText> = {
  publish: {
    button: 'Publish',
    consequence:
      'Each hit is published with the comments below and listed with the published hits. A hit resting on a profile you entered or imported is refused (four-eyes review).',
  },
  reject: { button: 'Reject', consequence: 'Each hit is rejected with the reason below and listed with the rejected hits.' },
};

/** POST /api/hits/bulk-decision with the decision the reviewer confirmed. */
export function hitBulkBody({ action, text, notify, items }: BulkRequest<HitBulkAction>): BulkHitDecisionBody {
  return action === 'publish' ? { action, items, comments: text.trim(), notify } : { action, items, reason: text.trim() };
}

/** How the confirmation and the result name a hit: its analysis and its profiles, on one line. */
export const hitBulkLabel = (hit: Pick<HitSummary, 'analysisName' | 'profiles'>): string => `${hit.analysisName}: ${hitProfilesText(hit).replace(/\s+/g, ' ')}`;

/**
 * The hits Review list's bulk review (issue 18): with Hits Publish, rows are selected and published (notifying
 * the cases' assigned users or not) or rejected (with a reason) together; the list is read again after.
 * `enabled` false (the other lists): no checkboxes.
 */
export function HitBulkReview({ orgId, enabled, onDecided, children }: { orgId: string; enabled: boolean; onDecided(): void; children(column: DataColumn<HitSummary> | null): ReactNode }) {
  const api = useApi();
  const publishes = enabled && can(usePrincipal(), 'Hits', 'Publish', { orgId });
  const call = (request: BulkRequest<HitBulkAction>): Promise<BulkReviewResult> => unwrap(api.POST('/api/hits/bulk-decision', { body: hitBulkBody(request) }));
  return (
    <BulkReview<HitBulkAction, HitSummary>
      bulk={hitBulkReview}
      allowed={publishes ? ['publish', 'reject'] : []}
      call={call}
      onDecided={onDecided}
      actions={ACTIONS}
      notifies="publish"
      noun={{ one: 'hit', many: 'hits' }}
      rowLabel={hitBulkLabel}
    >
      {children}
    </BulkReview>
  );
}
