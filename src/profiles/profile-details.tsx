import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PROFILE_STATUS_LABELS, type Profile } from '../../core/schemas/profiles';
import { describeParty } from '../../core/party-roles';
import { routes } from '../app/routes';
import { formatCollectedAt } from '../cases/collection-time';
import { kindLabel } from './profile-columns';
import { StatusBadge } from './status-badge';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** What the last review decision was called, as the details list names it. */
const DECISION_LABEL: Record<Profile['status'], string> = { approved: 'Approval comments', rejected: 'Rejection reason', pending: 'Reset comments' };

/** The item and its collection (issue 18): "BS-1, collected Mar 2, 2026, 10:00 AM at Police station by Officer Berg". */
function itemText(profile: Profile): string {
  const item = profile.physicalItem;
  if (!item) return profile.physicalItemName ?? 'None';
  const collected = [item.collectedAt ? `collected ${formatCollectedAt(item.collectedAt)}` : '', item.collectionPlace ? `at ${item.collectionPlace}` : '', item.collectedBy ? `by ${item.collectedBy}` : '']
    .filter(Boolean)
    .join(' ');
  return collected ? `${item.itemId}, ${collected}` : item.itemId;
}

/** The profile view's header facts (spec 2.8): what the profile is, where it came from, and its review. */
export function ProfileDetails({ orgId, profile }: { orgId: string; profile: Profile }) {
  const facts: [string, ReactNode][] = [
    ['Profile', profile.profileId],
    ['Case', <Link href={routes.CaseInvolvedParties.href({ orgId, caseId: profile.caseId })}>{profile.caseNumber}</Link>],
    ['Type', kindLabel(profile.kind)],
    ['Chemistry', profile.chemistryName],
    ['Sample Type', profile.sampleType],
    ['Source', profile.sampleSourceName ?? 'None'],
    ['Item', itemText(profile)],
    ['Taken from', profile.involvedParty ? describeParty(profile.involvedParty) : 'None'],
    ['Source Laboratory', profile.laboratoryName ?? 'None'],
    ['Status', <StatusBadge status={profile.status} />],
    ['Came in', profile.source],
    ['Entered by', profile.enteredBy ?? 'Not recorded'],
  ];
  if (profile.comments) facts.push(['Comments', profile.comments]);
  if (profile.reviewedBy) facts.push([`${PROFILE_STATUS_LABELS[profile.status]} by`, `${profile.reviewedBy}${profile.reviewedAt ? `, ${when(profile.reviewedAt)}` : ''}`]);
  if (profile.reviewComments) facts.push([DECISION_LABEL[profile.status], profile.reviewComments]);
  return (
    <dl className="profile-details">
      {facts.map(([term, value]) => (
        <div key={term} className="profile-details__fact">
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
