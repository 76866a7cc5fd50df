import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { cmfExportObstacles } from '../../core/cmf-limits';
import { can } from '../../core/permissions';
import { MIXTURE_SAMPLE_TYPES, type ProfileWithMarkers } from '../../core/schemas/profiles';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { AuditTrail } from '../ui/audit-trail/audit-trail';
import { HitList } from '../hits/hit-list';
import { FamilialSearchPanel } from '../familial-search/familial-search-panel';
import { kindLabel } from './profile-columns';
import { ProfileDelete } from './profile-delete';
import { ProfileDetails } from './profile-details';
import { ProfileDownloads } from './profile-downloads';
import { ProfileMarkersTable } from './profile-markers-table';
import { ProfileReplicates } from './profile-replicates';
import { ProfileSearchRulesNote } from './profile-search-rules';
import { ProfileUploadEligibilityNote } from './profile-upload-eligibility';
import type { ProfileCalls } from './profiles-api';
import { ReviewActions } from './review-actions';
import { LinkTabs } from '../ui/link-tabs';
import './profiles.css';

/** The profile view's child tabs (spec 2.8); null is the view's own route, which shows the markers. */
export type ProfileTab = 'markers' | 'hits' | 'audit' | null;

export interface ProfileViewProps {
  orgId: string;
  profile: ProfileWithMarkers;
  tab: ProfileTab;
  /**
   * Spec 2.8 passes the admin status to the view. The shared screen decides every action with
   * can() (core/permissions), which already lets administrators through; a kind's own view may use it.
   */
  isAdmin: boolean;
  calls: ProfileCalls;
  /** A review decision or a reload answered with the profile as it now is. */
  onChange(profile: ProfileWithMarkers): void;
}

/**
 * The profile view (spec 2.8 `cases/{caseId}/profiles/{sampleid}`): what the profile is, the review
 * actions its status and the user's rights allow, download, edit and delete, and the child tabs
 * markers (Markers Read), hits (Hits Read) and audit (Profiles ViewAudit).
 */
export function ProfileView({ orgId, profile, tab, calls, onChange }: ProfileViewProps) {
  const principal = usePrincipal();
  const [, navigate] = useLocation();
  const params = { orgId, caseId: profile.caseId, sampleid: profile.id };
  const may = (entity: 'Profiles' | 'Markers' | 'Hits', verb: 'Read' | 'Edit' | 'Delete' | 'ViewAudit') => can(principal, entity, verb, { orgId: profile.organizationId });
  const readsMarkers = may('Markers', 'Read');
  const shown: ProfileTab = tab ?? (readsMarkers ? 'markers' : null);
  const tabs = [
    ...(readsMarkers ? [{ label: 'Markers', href: routes.ProfileMarkers.href(params), current: shown === 'markers' }] : []),
    ...(may('Hits', 'Read') ? [{ label: 'Hits', href: routes.ProfileHits.href(params), current: shown === 'hits' }] : []),
    ...(may('Profiles', 'ViewAudit') ? [{ label: 'Audit', href: routes.ProfileAudit.href(params), current: shown === 'audit' }] : []),
  ];
  const content: Record<Exclude<ProfileTab, null>, () => ReactNode> = {
    markers: () => (
      <>
        <ProfileMarkersTable profileId={profile.profileId} markerValues={profile.markerValues} />
        <ProfileReplicates profileId={profile.profileId} replicates={profile.replicates ?? []} />
      </>
    ),
    hits: () => <HitList orgId={orgId} owner={{ profileId: profile.id }} list="all" />,
    audit: () => (
      <AuditTrail
        key={profile.version}
        label={`Audit trail of ${profile.profileId}`}
        load={(query) => calls.audit(profile.id, query)}
        onExport={(format, timeZone) => calls.exportAudit(profile.id, format, timeZone)}
      />
    ),
  };
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">
          {kindLabel(profile.kind)} profile {profile.profileId}
        </h1>
      </div>
      <ProfileDetails orgId={orgId} profile={profile} />
      <ProfileSearchRulesNote profileId={profile.id} sampleType={profile.sampleType} calls={calls} />
      {/* Read again with each version: an approval, a marker edit or a new sample type changes the verdict. */}
      <ProfileUploadEligibilityNote profileId={profile.id} version={profile.version} calls={calls} />
      {/* Keyed by id only: the review machine keeps its own copy of the profile across decisions. */}
      <ReviewActions key={profile.id} profile={profile} calls={calls} onChange={onChange} />
      <CmfExportNote profile={profile} />
      <div className="profile-actions">
        <ProfileDownloads profile={profile} calls={calls} />
        {may('Profiles', 'Edit') ? (
          <div className="profile-actions__group">
            <Link href={routes.ProfileEdit.href(params)} className="button button--secondary">
              Edit
            </Link>
            {profile.status === 'pending' ? (
              <Link href={routes.ProfileMarkersEdit.href(params)} className="button button--secondary">
                Enter markers
              </Link>
            ) : null}
          </div>
        ) : null}
        {/* Issue 17: a forensic stain's LR-ranked search of the references, this profile its first replicate. */}
        {MIXTURE_SAMPLE_TYPES.has(profile.sampleType) && profile.kind === 'Autosomal' && may('Profiles', 'Read') && can(principal, 'Analyses', 'Read') ? (
          <Link href={routes.ProfileMixtureSearch.href(params)} className="button button--secondary">
            Mixture search
          </Link>
        ) : null}
        {may('Profiles', 'Delete') ? <ProfileDelete profile={profile} calls={calls} onDeleted={() => navigate(routes.CaseProfiles.href({ orgId, caseId: profile.caseId }))} /> : null}
      </div>
      {tabs.length > 0 ? <LinkTabs label={`Profile ${profile.profileId}`} tabs={tabs} /> : null}
      {shown ? content[shown]() : null}
      {/* Issue 12: relatives of an approved profile among the organization's searched profiles, on request. */}
      {can(principal, 'Hits', 'Publish', { orgId: profile.organizationId }) && profile.status === 'approved' ? <FamilialSearchPanel key={profile.id} orgId={orgId} profile={profile} /> : null}
    </section>
  );
}

/** Says, before anyone downloads it, why the profile cannot go out as CODIS CMF as it stands (the CSV still can). */
function CmfExportNote({ profile }: { profile: ProfileWithMarkers }) {
  const obstacles = cmfExportObstacles(profile);
  if (obstacles.length === 0) return null;
  return (
    <p className="notice notice--warning" role="note">
      Not exportable as CODIS CMF 3.2 as it stands: {obstacles.join('; ')}. The CMF download can name its CODIS specimen category and a
      short specimen id.
    </p>
  );
}
