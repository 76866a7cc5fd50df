import { createElement } from 'react';
import type { FeatureArea } from '../app/feature-area';
import type { RouteViewProps } from '../app/route-view-props';
import type { RouteName } from '../app/routes';
import type { ProfileTab } from './profile-view';
import { profilesApi } from './profiles-api';
import { lazyPage } from '../app/lazy-page';

const MarkerEntryPage = lazyPage(() => import('./marker-entry-form'), 'MarkerEntryPage');
const ProfileEditRoute = lazyPage(() => import('./profile-routes'), 'ProfileEditRoute');
const ProfileUploadRoute = lazyPage(() => import('./profile-routes'), 'ProfileUploadRoute');
const ProfileViewRoute = lazyPage(() => import('./profile-routes'), 'ProfileViewRoute');
const ProfilesPage = lazyPage(() => import('./profiles-page'), 'ProfilesPage');
const SelfComparisonPage = lazyPage(() => import('../self-comparison/self-comparison-page'), 'SelfComparisonPage');

/** The route's profile (orgId, caseId, sampleid) and title, keyed so another profile starts fresh. */
const profileRoute = ({ route, params }: RouteViewProps) => ({
  key: `${params.caseId}/${params.sampleid}`,
  orgId: params.orgId!,
  caseId: params.caseId!,
  sampleid: params.sampleid!,
  title: route.title,
});
const TAB_OF_ROUTE: Partial<Record<RouteName, ProfileTab>> = { ProfileMarkers: 'markers', ProfileHits: 'hits', ProfileAudit: 'audit' };
// One component for the view and its tabs, so moving between tabs keeps the profile read once.
const profileView = (props: RouteViewProps) => createElement(ProfileViewRoute, { ...profileRoute(props), tab: TAB_OF_ROUTE[props.route.name] ?? null });

/** Profiles (spec 2.3, 2.8): the profile tables, the profile view with its tabs, the forms and the import. */
export const profilesArea: FeatureArea = {
  views: {
    Profiles: ({ params }: RouteViewProps) => createElement(ProfilesPage, { key: params.orgId, orgId: params.orgId!, tab: 'profiles' }),
    ProfilesReview: ({ params }: RouteViewProps) => createElement(ProfilesPage, { key: params.orgId, orgId: params.orgId!, tab: 'review' }),
    ProfilesSelfComparison: ({ params }: RouteViewProps) => createElement(SelfComparisonPage, { key: params.orgId, orgId: params.orgId! }),
    ProfilesView: profileView,
    ProfileMarkers: profileView,
    ProfileHits: profileView,
    ProfileAudit: profileView,
    ProfileEdit: (props: RouteViewProps) => createElement(ProfileEditRoute, profileRoute(props)),
    ProfileMarkersEdit: (props: RouteViewProps) => createElement(MarkerEntryPage, profileRoute(props)),
    ProfileUpload: (props: RouteViewProps) => createElement(ProfileUploadRoute, profileRoute(props)),
  },
  // The view's crumb is the sample name; `new` and the upload's profile type show as New (spec 5).
  names: { ProfilesView: async (api, id) => (await profilesApi(api).get(id)).profileId },
};
