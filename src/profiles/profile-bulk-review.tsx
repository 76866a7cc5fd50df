import type { ReactNode } from 'react';
import { can } from '../../core/permissions';
import type { BulkProfileReviewBody, BulkReviewResult } from '../../core/schemas/bulk-review';
import type { Profile } from '../../core/schemas/profiles';
import { profileBulkReview, type BulkRequest, type ProfileBulkAction } from '../../machines/bulkReview.machine';
import { useApi } from '../app/api-provider';
import { usePrincipal } from '../app/use-principal';
import { unwrap } from '../api/unwrap';
import { BulkReview, type BulkActionText } from '../ui/bulk-review/bulk-review';
import type { DataColumn } from '../ui/data-table/data-table';

const ACTIONS: Record<ProfileBulkAction, BulkActionText> = {
  approve: {
    button: 'Approve',
    consequence:
      'Each profile is approved with its marker values exactly as stored: they are not confirmed marker by marker here, so open a profile to check or correct its values first. A profile you entered or imported is refused (four-eyes review). Each approved profile is searched against the database.',
  },
  reject: { button: 'Reject', consequence: 'Each profile is rejected with the reason below, and stays out of every search.' },
};

/** POST /api/profiles/bulk-review with the decision the reviewer confirmed. */
export function profileBulkBody({ action, text, items }: BulkRequest<ProfileBulkAction>): BulkProfileReviewBody {
  return action === 'approve' ? { action, items, comments: text.trim() } : { action, items, reason: text.trim() };
}

/**
 * The profile Review list's bulk review (issue 18): with Profiles Edit, rows are selected and approved (with
 * their stored marker values) or rejected (with a reason) together; the list is read again after. `enabled`
 * false (the other lists): no checkboxes.
 */
export function ProfileBulkReview({ orgId, enabled, onDecided, children }: { orgId: string; enabled: boolean; onDecided(): void; children(column: DataColumn<Profile> | null): ReactNode }) {
  const api = useApi();
  const edits = enabled && can(usePrincipal(), 'Profiles', 'Edit', { orgId });
  const call = (request: BulkRequest<ProfileBulkAction>): Promise<BulkReviewResult> => unwrap(api.POST('/api/profiles/bulk-review', { body: profileBulkBody(request) }));
  return (
    <BulkReview<ProfileBulkAction, Profile>
      bulk={profileBulkReview}
      allowed={edits ? ['approve', 'reject'] : []}
      call={call}
      onDecided={onDecided}
      actions={ACTIONS}
      noun={{ one: 'profile', many: 'profiles' }}
      rowLabel={(p) => `${p.profileId} (${p.caseNumber})`}
    >
      {children}
    </BulkReview>
  );
}
