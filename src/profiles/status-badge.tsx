import { PROFILE_STATUS_LABELS, type ProfileStatus } from '../../core/schemas/profiles';

/** A profile's review status (ARCHITECTURE.md "States"), coloured by state and always written out. */
export function StatusBadge({ status }: { status: ProfileStatus }) {
  return <span className={`status-badge status-badge--${status}`}>{PROFILE_STATUS_LABELS[status]}</span>;
}
