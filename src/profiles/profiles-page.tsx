import { useCallback, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { can } from '../../core/permissions';
import type { ListQueryInput } from '../../core/schemas/list';
import type { Profile } from '../../core/schemas/profiles';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { useOrganizationEvents } from '../app/use-organization-events';
import { PROFILE_COLUMNS } from './profile-columns';
import { profilesApi } from './profiles-api';
import { LinkTabs } from '../ui/link-tabs';
import { SelectableTable } from '../ui/bulk-review/selectable-table';
import { ProfileBulkReview } from './profile-bulk-review';
import './profiles.css';

export type ProfilesTab = 'profiles' | 'review';

const PROFILE_CHANGES = ['profiles'] as const;

/** Where a profile row leads: its view, under its case. */
export const profileHref = (orgId: string, profile: Pick<Profile, 'id' | 'caseId'>) =>
  routes.ProfilesView.href({ orgId, caseId: profile.caseId, sampleid: profile.id });

/**
 * The Profiles tab page (spec 2.3): Profiles, every profile of the organization (of all of them at
 * `all`), whose rows open the profile view with the Add permission; Review, the pending profiles,
 * whose rows always open it. Adding happens in a case, which a new profile belongs to.
 */
export function ProfilesPage({ orgId, tab }: { orgId: string; tab: ProfilesTab }) {
  const api = useApi();
  const principal = usePrincipal();
  const [, navigate] = useLocation();
  const calls = useMemo(() => profilesApi(api), [api]);
  const load = useCallback(
    (query: ListQueryInput) => calls.list(orgId, tab === 'review' ? { ...query, status: 'pending' } : query),
    [calls, orgId, tab],
  );
  const [decided, setDecided] = useState(0);
  // Another user's imports and decisions show in an open list without a reload (issue 18).
  const [changes, setChanges] = useState(0);
  useOrganizationEvents(can(principal, 'Profiles', 'Read', { orgId }) ? orgId : null, PROFILE_CHANGES, () => setChanges((n) => n + 1));
  const opens = tab === 'review' || can(principal, 'Profiles', 'Add', { orgId });
  const title = tab === 'review' ? routes.ProfilesReview.title : routes.Profiles.title;
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <LinkTabs
        label="Profile lists"
        tabs={[
          { label: 'Profiles', href: routes.Profiles.href({ orgId }), current: tab === 'profiles' },
          { label: 'Review', href: routes.ProfilesReview.href({ orgId }), current: tab === 'review' },
          ...(can(principal, 'Profiles', 'Edit', { orgId }) ? [{ label: 'Self-comparison', href: routes.ProfilesSelfComparison.href({ orgId }), current: false }] : []),
        ]}
      />
      {/* On Review, rows can be selected and decided together (issue 18); the list is read again after. */}
      <ProfileBulkReview key={tab} orgId={orgId} enabled={tab === 'review'} onDecided={() => setDecided((n) => n + 1)}>
        {(selectColumn) => (
          <SelectableTable<Profile>
            selectColumn={selectColumn}
            label={tab === 'review' ? 'Profiles waiting for review' : 'Profiles'}
            columns={PROFILE_COLUMNS}
            load={load}
            {...(opens ? { rowHref: (row: Profile) => profileHref(orgId, row) } : {})}
            onNavigate={navigate}
            reloadKey={`${decided}/${changes}`}
            emptyText={tab === 'review' ? 'No profile is waiting for review.' : 'No profiles yet. Profiles are added or imported in a case.'}
          />
        )}
      </ProfileBulkReview>
    </section>
  );
}
