import { useCallback, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { can } from '../../core/permissions';
import type { ListQueryInput } from '../../core/schemas/list';
import type { Profile } from '../../core/schemas/profiles';
import { PROFILE_COLUMNS } from '../profiles/profile-columns';
import { canOpen } from '../app/route-access';
import { getRoute, routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { DataTable, type DataColumn } from '../ui/data-table/data-table';
import type { CaseCalls } from './cases-api';

/** The profile table's columns without Case (every row is this case's), the sample name linking to its view. */
function profileColumns(viewHref: (p: Profile) => string): DataColumn<Profile>[] {
  return PROFILE_COLUMNS.filter((c) => c.field !== 'caseNumber').map((c) =>
    c.field === 'profileId' ? { ...c, render: (p: Profile) => <Link href={viewHref(p)}>{p.profileId}</Link> } : c,
  );
}

/**
 * The case's profiles (spec 2.8 CaseProfiles): each row opens the profile view; importing (per
 * profile type) and adding by hand are offered with Profiles Add.
 */
export function CaseProfilesTab({ orgId, caseId, calls }: { orgId: string; caseId: string; calls: Pick<CaseCalls, 'profiles'> }) {
  const principal = usePrincipal();
  const [, navigate] = useLocation();
  const load = useCallback((query: ListQueryInput) => calls.profiles(caseId, query), [calls, caseId]);
  const viewHref = useCallback((p: Profile) => routes.ProfilesView.href({ orgId, caseId, sampleid: p.id }), [orgId, caseId]);
  const columns = useMemo(() => profileColumns(viewHref), [viewHref]);
  const adds = can(principal, 'Profiles', 'Add');
  const upload = (sampleid: 'autosomal' | 'ystr') => routes.ProfileUpload.href({ orgId, caseId, sampleid });
  const addParams = { orgId, caseId, sampleid: 'new' };
  return (
    <>
      <div className="case-tab__header">
        <h2>Profiles</h2>
        {adds ? (
          <div className="case-tab__actions">
            <Link href={upload('autosomal')} className="button button--primary">
              Import autosomal
            </Link>
            <Link href={upload('ystr')} className="button button--primary">
              Import Y-STR
            </Link>
            {canOpen(principal, getRoute('ProfileEdit'), addParams) ? (
              <Link href={routes.ProfileEdit.href(addParams)} className="button button--secondary">
                Add profile
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
      <DataTable<Profile>
        label="Profiles"
        columns={columns}
        load={load}
        rowHref={viewHref}
        onNavigate={navigate}
        emptyText="No profiles in this case yet."
      />
    </>
  );
}
